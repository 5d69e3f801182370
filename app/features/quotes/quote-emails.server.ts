import { enqueueMail, type DbTransaction } from "~/services/mail/outbox.server";
import { staffRecipientsFor } from "~/services/mail/mail-config.server";
import { renderEmail } from "~/services/mail/templates.server";
import type { SiteFacts } from "~/services/site-config/business-facts";
import { speiAccountLine } from "~/services/site-config/payment-account";
import { getEnv } from "~/lib/env.server";
import { formatDate, formatMoney } from "~/lib/format";
import { quotePaymentAmountText, quotePaymentReferenceText } from "./payment";
import { quotePaymentDetails } from "./payment.server";

interface QuoteMailFacts {
  id: string;
  number: string;
  customerName: string;
  customerEmail: string;
  totalCentavos: number;
  validUntil?: Date | null;
  revision: number;
}

const customerUrl = (id: string) => `${getEnv().publicUrl}/quotes/${id}`;
const staffUrl = (id: string) => `${getEnv().publicUrl}/admin/cotizaciones/${id}`;

// `facts` are the sender's getSiteFacts(), read before its transaction (docs/decisions/0047).

export async function mailQuoteSent(tx: DbTransaction, facts: SiteFacts, quote: QuoteMailFacts): Promise<void> {
  const revised = quote.revision > 1;
  const { html, text } = renderEmail({
    preheader: `Cotización ${quote.number}: ${formatMoney(quote.totalCentavos)} con IVA.`,
    heading: revised ? `Actualizamos su cotización ${quote.number}` : `Su cotización ${quote.number} está lista`,
    paragraphs: [
      `Hola, ${quote.customerName}.`,
      `${revised ? `La revisión ${quote.revision} de la cotización` : "La cotización"} ${quote.number} suma ${formatMoney(quote.totalCentavos)} con IVA incluido${quote.validUntil ? ` y es válida hasta el ${formatDate(quote.validUntil)}` : ""}.`,
      "En el portal puede leerla, descargar el PDF, hacernos preguntas y aceptarla en línea. Si aún no tiene cuenta, créela con este mismo correo y la cotización aparecerá en «Mis cotizaciones».",
    ],
    action: { label: "Ver la cotización", url: customerUrl(quote.id) },
  }, facts);
  await enqueueMail({ to: quote.customerEmail, subject: `Cotización ${quote.number} de ${facts.shortName}`, html, text }, { tx });
}

export async function mailQuoteDecision(tx: DbTransaction, facts: SiteFacts, quote: QuoteMailFacts, decision: { accepted: boolean; by: string; reason?: string }): Promise<void> {
  const verb = decision.accepted ? "aceptó" : "rechazó";
  const staff = renderEmail({
    preheader: `${quote.customerName} ${verb} la cotización ${quote.number}.`,
    heading: `Cotización ${quote.number} ${decision.accepted ? "aceptada" : "rechazada"}`,
    paragraphs: [
      `${decision.by} (${quote.customerEmail}) ${verb} la revisión ${quote.revision} por ${formatMoney(quote.totalCentavos)} con IVA.`,
      ...(decision.reason ? [`Motivo: ${decision.reason}`] : []),
    ],
    action: { label: "Abrir en el panel", url: staffUrl(quote.id) },
  }, facts);
  await enqueueMail(
    { to: staffRecipientsFor(facts), replyTo: quote.customerEmail, subject: `[${quote.number}] ${decision.accepted ? "Aceptada" : "Rechazada"} por ${quote.customerName}`, ...staff },
    { tx },
  );
  if (!decision.accepted) return;
  const payment = quotePaymentDetails({ number: quote.number, status: "aceptada" }, facts)!;
  const customer = renderEmail({
    preheader: `Confirmamos la aceptación de la cotización ${quote.number}.`,
    heading: `Gracias, ${quote.customerName}`,
    paragraphs: [
      `Registramos su aceptación de la cotización ${quote.number} (revisión ${quote.revision}) por ${formatMoney(quote.totalCentavos)} con IVA, firmada como «${decision.by}».`,
      quotePaymentAmountText(formatMoney(quote.totalCentavos), facts.paymentTerms.depositPercent),
      `${speiAccountLine(payment)} · Referencia: ${payment.reference}`,
      quotePaymentReferenceText(payment.reference, facts.email),
      "Nuestro equipo le escribirá para coordinar la liberación de archivos y la fecha de entrega.",
    ],
    action: { label: "Ver la cotización", url: customerUrl(quote.id) },
  }, facts);
  await enqueueMail({ to: quote.customerEmail, subject: `Aceptación registrada: cotización ${quote.number}`, ...customer }, { tx });
}

export async function mailQuoteMessage(tx: DbTransaction, facts: SiteFacts, quote: QuoteMailFacts, message: { fromStaff: boolean; author: string; body: string }): Promise<void> {
  const { html, text } = renderEmail({
    preheader: `${message.author} escribió sobre la cotización ${quote.number}.`,
    heading: `Mensaje nuevo sobre la cotización ${quote.number}`,
    paragraphs: [`${message.author} escribió:`, message.body],
    action: message.fromStaff ? { label: "Responder", url: customerUrl(quote.id) } : { label: "Responder en el panel", url: staffUrl(quote.id) },
  }, facts);
  await enqueueMail(
    message.fromStaff
      ? { to: quote.customerEmail, subject: `Mensaje sobre su cotización ${quote.number}`, html, text }
      : { to: staffRecipientsFor(facts), replyTo: quote.customerEmail, subject: `[${quote.number}] Mensaje de ${quote.customerName}`, html, text },
    { tx },
  );
}
