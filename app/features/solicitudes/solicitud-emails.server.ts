import { enqueueMails, type DbTransaction } from "~/services/mail/outbox.server";
import { staffRecipientsFor } from "~/services/mail/mail-config.server";
import type { EmailContent, EmailFacts } from "~/services/mail/templates.server";
import { getEnv } from "~/lib/env.server";
import { formatCalendarDate, formatNumber, shortFileName } from "~/lib/format";
import { formatUnitQuantity } from "~/lib/units";
import { CERTIFICATE_OPTIONS, INDUSTRY_OPTIONS, optionLabel, SERVICE_OPTIONS, TOLERANCE_OPTIONS } from "./forms";

export interface SolicitudMailData {
  id: string;
  number: string;
  type: "cotizacion" | "contacto";
  name: string;
  email: string;
  company?: string | null;
  phone?: string | null;
  industry?: string | null;
  service?: string | null;
  city?: string | null;
  quantity?: number | null;
  extraQuantities?: number[];
  /** "2026-12-10": a calendar day. */
  requiredBy?: string | null;
  material?: string | null;
  finish?: string | null;
  tolerance?: string | null;
  threads?: boolean | null;
  description?: string | null;
  subject?: string | null;
  message?: string | null;
  certificates?: string[];
  files: { name: string; size: number }[];
}

const labelOf = (options: readonly { value: string; label: string }[], value?: string | null) => optionLabel(options, value) ?? "—";

function summaryLines(data: SolicitudMailData): string[] {
  if (data.type === "contacto") return [`Asunto: ${data.subject ?? ""}`, `Mensaje: ${data.message ?? ""}`];
  return [
    `Industria: ${labelOf(INDUSTRY_OPTIONS, data.industry)}`,
    `Servicio: ${labelOf(SERVICE_OPTIONS, data.service)}`,
    `Cantidad: ${data.quantity != null ? formatUnitQuantity(data.quantity, "pieza") : "—"}`,
    ...(data.extraQuantities?.length ? [`Cotizar también: ${data.extraQuantities.map((quantity) => formatNumber(quantity)).join(", ")}`] : []),
    `Fecha requerida: ${data.requiredBy ? formatCalendarDate(data.requiredBy) : "sin fecha indicada"}`,
    ...(data.material ? [`Material: ${data.material}`] : []),
    ...(data.finish ? [`Acabado: ${data.finish}`] : []),
    `Tolerancias: ${labelOf(TOLERANCE_OPTIONS, data.tolerance)}`,
    ...(data.threads == null ? [] : [`Roscas: ${data.threads ? "sí" : "no"}`]),
    `Certificados: ${data.certificates?.length ? data.certificates.map((value) => labelOf(CERTIFICATE_OPTIONS, value)).join(", ") : "ninguno"}`,
    // Names are the customer's data: shortened, without control or bidi characters (React escapes the rest).
    `Archivos: ${data.files.length ? data.files.map((file) => shortFileName(file.name, 60)).join(", ") : "sin archivos"}`,
    `Descripción: ${data.description ?? ""}`,
  ];
}

/**
 * The requester's confirmation and the staff notification, written in the same transaction (the
 * facts read before it) as content: the mail worker renders them before sending, after the
 * request's answer (docs/decisions/0081).
 */
export async function enqueueSolicitudEmails(tx: DbTransaction, facts: EmailFacts, data: SolicitudMailData): Promise<void> {
  const { publicUrl } = getEnv();
  const isQuote = data.type === "cotizacion";
  const confirmation: EmailContent = {
    preheader: `Recibimos su ${isQuote ? "solicitud de cotización" : "mensaje"} ${data.number}.`,
    heading: `Recibimos su ${isQuote ? "solicitud" : "mensaje"}, ${data.name}`,
    paragraphs: [
      `Su número de solicitud es ${data.number}. Guárdelo para dar seguimiento.`,
      isQuote
        ? "Un ingeniero revisará sus archivos y le enviará una cotización formal en uno a tres días hábiles. Si falta información, le escribiremos el mismo día."
        : "Le responderemos en horario de planta, normalmente el mismo día hábil.",
      ...summaryLines(data),
    ],
    action: isQuote ? { label: "Ver mis cotizaciones", url: `${publicUrl}/quotes` } : undefined,
    footerNote: "Si usted no envió este formulario, ignore este mensaje.",
  };

  const staff: EmailContent = {
    preheader: `${data.number}: ${data.name}${data.company ? ` (${data.company})` : ""}`,
    heading: `${isQuote ? "Nueva solicitud de cotización" : "Nuevo mensaje de contacto"} ${data.number}`,
    paragraphs: [
      `De: ${data.name}${data.company ? `, ${data.company}` : ""}${data.city ? ` (${data.city})` : ""} · ${data.email}${data.phone ? ` · ${data.phone}` : ""}`,
      ...summaryLines(data),
    ],
    action: { label: "Abrir en el panel", url: `${publicUrl}/admin/formularios/${data.id}` },
  };
  // One statement for both (0075).
  await enqueueMails(
    [
      { to: data.email, subject: isQuote ? `Solicitud de cotización ${data.number} recibida` : `Mensaje ${data.number} recibido`, content: confirmation, facts },
      { to: staffRecipientsFor(facts), replyTo: data.email, subject: `[${data.number}] ${isQuote ? "Solicitud de cotización" : "Contacto"}: ${data.name}`, content: staff, facts },
    ],
    { tx },
  );
}
