// The business data shown across the site. The owner edits this one module (CONTENT.md).
import { TIME_ZONE } from "~/lib/time";

export const siteConfig = {
  name: "Forja Diseño y Manufactura",
  shortName: "Forja",
  legalName: "Forja Diseño y Manufactura, S.A. de C.V.",
  rfc: "FDM150312AB1",
  tagline: "Diseño industrial, ingeniería y manufactura en Querétaro",
  description:
    "Diseño industrial, ingeniería CAD, prototipado, maquinado CNC, lámina, moldes de inyección y ensamble por contrato en Querétaro. Cotice en línea con sus archivos CAD.",
  address: {
    street: "Parque Industrial Querétaro",
    locality: "Santa Rosa Jáuregui",
    region: "Querétaro",
    postalCode: "76220",
    country: "MX",
  },
  hours: {
    label: "Lunes a viernes, 8:00 a 18:00",
    days: ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"],
    opens: "08:00",
    closes: "18:00",
  },
  phone: { display: "+52 442 000 0000", href: "tel:+524420000000" },
  whatsapp: { display: "+52 442 000 0001", number: "524420000001" },
  email: "ventas@forja.example",
  timeZone: TIME_ZONE,
  locale: "es-MX",
} as const;

export type SiteConfig = typeof siteConfig;

export function whatsappUrl(message = "Hola, me interesa cotizar un proyecto con Forja."): string {
  return `https://wa.me/${siteConfig.whatsapp.number}?text=${encodeURIComponent(message)}`;
}

export function formatAddress(): string {
  const a = siteConfig.address;
  return `${a.street}, ${a.locality}, ${a.region}, CP ${a.postalCode}`;
}
