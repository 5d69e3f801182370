// The demo business data an empty database starts with: the `ajustes` record is seeded from it (the
// FAQ and the legal pages name its facts, "{correo}", and show the record's; docs/decisions/0087).
// Nothing else reads it but the about page's seed: pages, emails
// and the quote PDF take the facts from the published `ajustes` record (docs/decisions/0047), and a
// test fails when an hour, phone, email or CLABE is written anywhere else (business-facts.test.ts).
// The demo bank account for SPEI is in payment-account.ts.
import { TIME_ZONE } from "~/lib/time";
import { clock, formatAddress as formatAddressOf, formatLocality as formatLocalityOf, paymentRuleOf } from "./business-facts";

const OPENS = "08:00";
const CLOSES = "18:00";

const DEPOSIT_PERCENT = 50;

export const siteConfig = {
  name: "Forja Diseño y Manufactura",
  shortName: "Forja",
  legalName: "Forja Diseño y Manufactura, S.A. de C.V.",
  rfc: "FDM150312AB1",
  tagline: "Diseño industrial, ingeniería y manufactura en Querétaro",
  description:
    "Diseño industrial, ingeniería CAD, prototipos, maquinado CNC, lámina, moldes de inyección y ensamble en Querétaro. Cotice en línea con sus archivos CAD.",
  address: {
    street: "Parque Industrial Querétaro",
    locality: "Santa Rosa Jáuregui",
    region: "Querétaro",
    postalCode: "76220",
    country: "MX",
  },
  /** Plant hours: sales, visits and pickups alike. */
  hours: {
    label: `Lunes a viernes, ${clock(OPENS)} a ${clock(CLOSES)}`,
    /** Mid-sentence: "Recoja su pedido de lunes a viernes de 8:00 a 18:00". */
    inSentence: `de lunes a viernes de ${clock(OPENS)} a ${clock(CLOSES)}`,
    days: ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"],
    opens: OPENS,
    closes: CLOSES,
  },
  /**
   * When customers pay: the FAQ, the terms and conditions and the default terms of every quote
   * state this rule in these words.
   */
  paymentTerms: {
    depositPercent: DEPOSIT_PERCENT,
    onConfirmation: "Prototipos, piezas unitarias, productos del catálogo y pedidos menores se pagan completos al confirmar el pedido.",
    series: `Series de producción, moldes y ensamble por contrato requieren un anticipo del ${DEPOSIT_PERCENT} % para iniciar y el ${100 - DEPOSIT_PERCENT} % restante antes del envío o la recolección.`,
    credit: "Para clientes recurrentes ofrecemos crédito sujeto a evaluación.",
  },
  phone: { display: "+52 442 000 0000", href: "tel:+524420000000" },
  whatsapp: { display: "+52 442 000 0001", number: "524420000001" },
  email: "ventas@forja.example",
  timeZone: TIME_ZONE,
  locale: "es-MX",
} as const;

export type SiteConfig = typeof siteConfig;

/** The payment rule as one paragraph: paid on confirmation, or a deposit for series. */
export function paymentRule(): string {
  return paymentRuleOf(siteConfig.paymentTerms);
}

/** A new quote's terms (with the payment rule, in the FAQ's and the legal terms' words) and its validity. */
export const quoteDefaults = {
  terms: `Precios en pesos mexicanos (MXN): los precios unitarios e importes son antes de IVA; el IVA se desglosa y el total lo incluye. Forma de pago: transferencia SPEI; los datos bancarios aparecen al aceptar la cotización. ${paymentRule()} Entrega LAB planta Querétaro; el envío se cotiza por separado. El plazo de entrega corre a partir de la recepción del pago o anticipo y la liberación de archivos definitivos. Piezas fabricadas conforme a plano; tolerancias generales ISO 2768-m salvo indicación. Factura CFDI 4.0.`,
  validityDays: 30,
} as const;

/** "Santa Rosa Jáuregui, Querétaro": where the plant is, short. */
export function formatLocality(): string {
  return formatLocalityOf(siteConfig.address);
}

export function formatAddress(): string {
  return formatAddressOf(siteConfig.address);
}
