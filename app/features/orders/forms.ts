import { z } from "~/lib/zod";
import type { OrderAddress, OrderInvoice, OrderStatus } from "~/db/schema/orders";
import { validateRfc } from "~/lib/rfc";
import { ESTADOS, appliesTo, findRegimen, findUsoCfdi } from "./sat-catalogs";
import { emailField, isMexicanPhone, MEXICAN_PHONE_MESSAGE } from "~/lib/form-fields";

// Forms and labels of the cart, checkout and orders, shared by the browser (instant validation)
// and the server (the authority).

export type { OrderAddress, OrderInvoice, OrderStatus };

export const ORDER_STATUSES: readonly { value: OrderStatus; label: string }[] = [
  { value: "pendiente_pago", label: "Pendiente de pago" },
  { value: "pagado", label: "Pagado" },
  { value: "en_preparacion", label: "En preparación" },
  { value: "enviado", label: "Enviado" },
  { value: "listo_para_recoger", label: "Listo para recoger" },
  { value: "entregado", label: "Entregado" },
  { value: "cancelado", label: "Cancelado" },
];

export function orderStatusLabel(status: string): string {
  return ORDER_STATUSES.find((entry) => entry.value === status)?.label ?? status;
}

export const DELIVERY_OPTIONS = [
  { value: "recoger", label: "Recoger en planta" },
  { value: "envio", label: "Envío a domicilio" },
] as const;

export const PAYMENT_OPTIONS = [
  { value: "spei", label: "Transferencia SPEI" },
  { value: "recoger", label: "Pago al recoger en planta" },
] as const;

export function deliveryLabel(value: string): string {
  return DELIVERY_OPTIONS.find((option) => option.value === value)?.label ?? value;
}

export function paymentLabel(value: string): string {
  return PAYMENT_OPTIONS.find((option) => option.value === value)?.label ?? value;
}

/** "Av. Constituyentes 120, col. El Carrizal, CP 76030, Querétaro, Querétaro". */
export function formatOrderAddress(address: OrderAddress): string {
  return `${address.calle} ${address.numero}, col. ${address.colonia}, CP ${address.codigoPostal}, ${address.municipio}, ${address.estado}${address.referencias ? ` (${address.referencias})` : ""}`;
}

export const MAX_LINE_QUANTITY = 9_999;

/** What the cart forms post: agregar (from a product page), actualizar and quitar (from /carrito). */
export const CartActionSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("agregar"),
    productId: z.uuid({ error: "Ese producto no existe." }),
    quantity: z.coerce.number().int().min(1).max(MAX_LINE_QUANTITY).catch(1),
  }),
  z.object({
    intent: z.literal("actualizar"),
    productId: z.uuid({ error: "Ese producto no existe." }),
    quantity: z.coerce
      .number({ error: "Escriba una cantidad." })
      .int("La cantidad debe ser un número entero.")
      .min(0, "La cantidad no puede ser negativa.")
      .max(MAX_LINE_QUANTITY, `Máximo ${MAX_LINE_QUANTITY.toLocaleString("es-MX")} por producto.`),
  }),
  z.object({ intent: z.literal("quitar"), productId: z.uuid({ error: "Ese producto no existe." }) }),
]);

export type CartAction = z.output<typeof CartActionSchema>;

const ORDER_STATUS_VALUES = ORDER_STATUSES.map((status) => status.value) as [OrderStatus, ...OrderStatus[]];

/** The staff's status form on /admin/pedidos/:id: the status button pressed and an optional note for the customer. */
export const OrderTransitionSchema = z.object({
  status: z.enum(ORDER_STATUS_VALUES, { error: "Elija un estado de la lista." }),
  note: z
    .string()
    .trim()
    .max(1_000, "Máximo 1,000 caracteres.")
    .optional()
    .transform((value) => value || null),
});

const optionalText = (max: number) => z.string().trim().max(max, `Máximo ${max} caracteres.`).optional();
const postalCode = /^(?!00)\d{5}$/;

const ESTADO_NAMES = ESTADOS.map((estado) => estado.name) as [string, ...string[]];

/**
 * /checkout. Address fields are required only for "envío" and invoice fields only when a factura is
 * requested; the rules that tie fields together (régimen valid for the RFC's persona, uso CFDI valid
 * for the régimen, pago al recoger only when picking up) run in superRefine so each error lands
 * next to its field.
 */
export const CheckoutSchema = z
  .object({
    name: z.string({ error: "Escriba su nombre." }).trim().min(2, "Escriba su nombre completo.").max(120, "Máximo 120 caracteres."),
    email: emailField,
    phone: z
      .string({ error: "Escriba un teléfono o WhatsApp." })
      .trim()
      .refine(isMexicanPhone, MEXICAN_PHONE_MESSAGE),
    company: optionalText(160),
    delivery: z.enum(["recoger", "envio"], { error: "Elija cómo recibirá su pedido." }),
    calle: optionalText(160),
    numero: optionalText(30),
    colonia: optionalText(120),
    codigoPostal: optionalText(5),
    municipio: optionalText(120),
    estado: z.string().optional(),
    referencias: optionalText(300),
    requiereFactura: z.boolean().optional(),
    rfc: z.string().trim().max(20, "El RFC tiene 12 o 13 caracteres.").optional(),
    razonSocial: optionalText(254),
    regimenFiscal: z.string().optional(),
    usoCfdi: z.string().optional(),
    codigoPostalFiscal: optionalText(5),
    paymentMethod: z.enum(["spei", "recoger"], { error: "Elija cómo pagará su pedido." }),
    notes: optionalText(1_000),
    /** The total the person saw (centavos); the order is refused if the server's differs. */
    expectedTotal: z.number().int().nonnegative().optional(),
  })
  .superRefine(
    (value, ctx) => {
      const need = (path: keyof typeof value, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
      if (value.delivery === "envio") {
        if (!value.calle) need("calle", "Escriba la calle.");
        if (!value.numero) need("numero", "Escriba el número exterior (o S/N).");
        if (!value.colonia) need("colonia", "Escriba la colonia.");
        if (!value.codigoPostal) need("codigoPostal", "Escriba el código postal.");
        else if (!postalCode.test(value.codigoPostal)) need("codigoPostal", "El código postal tiene 5 dígitos.");
        if (!value.municipio) need("municipio", "Escriba el municipio o alcaldía.");
        if (!value.estado) need("estado", "Elija el estado.");
        else if (!ESTADO_NAMES.includes(value.estado)) need("estado", "Elija un estado de la lista.");
      }
      if (value.paymentMethod === "recoger" && value.delivery !== "recoger") {
        need("paymentMethod", "El pago al recoger solo aplica si recoge su pedido en planta. Elija transferencia SPEI para envíos.");
      }
      if (!value.requiereFactura) return;

      const rfc = value.rfc ? validateRfc(value.rfc) : null;
      if (!value.rfc) need("rfc", "Escriba el RFC para la factura.");
      else if (rfc && !rfc.ok) need("rfc", rfc.message);
      if (!value.razonSocial) need("razonSocial", "Escriba el nombre o razón social tal como aparece en su Constancia de Situación Fiscal.");
      if (!value.codigoPostalFiscal) need("codigoPostalFiscal", "Escriba el código postal de su domicilio fiscal.");
      else if (!postalCode.test(value.codigoPostalFiscal)) need("codigoPostalFiscal", "El código postal tiene 5 dígitos.");

      const regimen = value.regimenFiscal ? findRegimen(value.regimenFiscal) : undefined;
      if (!value.regimenFiscal) need("regimenFiscal", "Elija su régimen fiscal.");
      else if (!regimen) need("regimenFiscal", "Elija un régimen fiscal de la lista.");
      const uso = value.usoCfdi ? findUsoCfdi(value.usoCfdi) : undefined;
      if (!value.usoCfdi) need("usoCfdi", "Elija el uso del CFDI.");
      else if (!uso) need("usoCfdi", "Elija un uso del CFDI de la lista.");
      if (!rfc?.ok) return;

      if (rfc.generic) {
        // SAT rule for XAXX010101000 / XEXX010101000: régimen 616 and uso S01.
        if (regimen && regimen.code !== "616") need("regimenFiscal", "Con el RFC genérico el régimen fiscal es 616 · Sin obligaciones fiscales.");
        if (uso && uso.code !== "S01") need("usoCfdi", "Con el RFC genérico el uso del CFDI es S01 · Sin efectos fiscales.");
        return;
      }
      const persona = rfc.kind === "moral" ? "persona moral (RFC de 12 caracteres)" : "persona física (RFC de 13 caracteres)";
      if (regimen && !appliesTo(regimen, rfc.kind)) {
        need("regimenFiscal", `El régimen ${regimen.code} no corresponde a una ${persona}. Elija el de su Constancia de Situación Fiscal.`);
        return;
      }
      if (uso && !appliesTo(uso, rfc.kind)) need("usoCfdi", `El uso ${uso.code} no aplica a una ${persona}.`);
      else if (uso && regimen && !uso.regimenes.includes(regimen.code)) {
        need("usoCfdi", `El uso ${uso.code} no es válido con el régimen ${regimen.code}. Para una compra suele ser G01, G03 o I08; si no deducirá la compra, S01.`);
      }
    },
    // Also while other fields still have errors (an empty name must not hide a wrong RFC). Form data
    // holds only strings and the checkbox's boolean, which is all the rules above read.
    { when: (payload) => typeof payload.value === "object" && payload.value !== null },
  )
  .transform((value) => {
    const address: OrderAddress | null =
      value.delivery === "envio"
        ? {
            calle: value.calle!,
            numero: value.numero!,
            colonia: value.colonia!,
            codigoPostal: value.codigoPostal!,
            municipio: value.municipio!,
            estado: value.estado!,
            ...(value.referencias ? { referencias: value.referencias } : {}),
          }
        : null;
    const invoice: OrderInvoice | null = value.requiereFactura
      ? {
          rfc: (validateRfc(value.rfc!) as { rfc: string }).rfc,
          razonSocial: value.razonSocial!.replace(/\s+/g, " "),
          regimenFiscal: value.regimenFiscal!,
          usoCfdi: value.usoCfdi!,
          codigoPostal: value.codigoPostalFiscal!,
        }
      : null;
    return {
      contact: { name: value.name, email: value.email, phone: value.phone, company: value.company || null },
      delivery: value.delivery,
      address,
      invoice,
      paymentMethod: value.paymentMethod,
      notes: value.notes || null,
      expectedTotal: value.expectedTotal ?? null,
    };
  });

export type CheckoutInput = z.output<typeof CheckoutSchema>;
export type CheckoutFields = z.input<typeof CheckoutSchema>;
