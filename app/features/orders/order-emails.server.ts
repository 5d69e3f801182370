import type { OrderAddress, OrderInvoice, OrderStatus } from "~/db/schema/orders";
import { enqueueMail, type DbTransaction } from "~/services/mail/outbox.server";
import { staffRecipientsFor } from "~/services/mail/mail-config.server";
import { renderEmail } from "~/services/mail/templates.server";
import type { SiteFacts } from "~/services/site-config/business-facts";
import { speiAccountLine } from "~/services/site-config/payment-account";
import { getEnv } from "~/lib/env.server";
import { formatMoney } from "~/lib/format";
import { priceWithIva } from "~/lib/money";
import { formatUnitQuantity } from "~/lib/units";
import { regimenLabel, usoCfdiLabel } from "./sat-catalogs";
import { deliveryLabel, formatOrderAddress, orderStatusLabel } from "./forms";
import { shippingPaymentText } from "./shipping";

// The order's emails, written to the outbox inside the transaction that changes the order. Their
// business facts (`facts`) are the caller's getSiteFacts(), read before that transaction
// (docs/decisions/0047).

export interface OrderMailFacts {
  id: string;
  number: string;
  userId: string | null;
  name: string;
  email: string;
  phone: string;
  company: string | null;
  delivery: "recoger" | "envio";
  address: OrderAddress | null;
  invoice: OrderInvoice | null;
  paymentMethod: "spei" | "recoger";
  paymentReference: string;
  subtotalCentavos: number;
  ivaCentavos: number;
  totalCentavos: number;
  lines: { name: string; sku: string; unit: string; quantity: number; unitPriceCentavos: number; ivaBp: number; netCentavos: number; ivaCentavos: number }[];
}

/**
 * What to pay and how, in the words the email and the confirmation page both use. A home delivery
 * adds that the total leaves shipping out and that shipping is paid apart (./shipping.ts).
 */
export function paymentInstructionLines(order: Pick<OrderMailFacts, "paymentMethod" | "paymentReference" | "totalCentavos" | "number" | "delivery">, facts: SiteFacts): string[] {
  const shipping = order.delivery === "envio" ? [shippingPaymentText(order.totalCentavos)] : [];
  if (order.paymentMethod === "recoger") {
    return [
      `Pago en planta: ${formatMoney(order.totalCentavos)} con IVA, al recoger su pedido en ${facts.address.formatted}, ${facts.hours.inSentence}. Le avisaremos cuando esté listo; mencione el pedido ${order.number}.`,
      ...shipping,
    ];
  }
  return [
    `Pague por transferencia SPEI ${formatMoney(order.totalCentavos)} a:`,
    speiAccountLine(facts.payment),
    `Escriba la referencia ${order.paymentReference} en el concepto de la transferencia: así encontramos su pago. Preparamos su pedido en cuanto lo confirmemos.`,
    ...shipping,
  ];
}

function summaryLines(order: OrderMailFacts, facts: SiteFacts): string[] {
  return [
    ...order.lines.map((line) => `${formatUnitQuantity(line.quantity, line.unit)} × ${line.name} (${line.sku}) a ${formatMoney(priceWithIva(line.unitPriceCentavos, line.ivaBp))} c/u: ${formatMoney(line.netCentavos + line.ivaCentavos)}`),
    `Subtotal: ${formatMoney(order.subtotalCentavos)} · IVA: ${formatMoney(order.ivaCentavos)} · Total: ${formatMoney(order.totalCentavos)}`,
    order.delivery === "envio" && order.address ? `Entrega: envío a ${formatOrderAddress(order.address)}` : `Entrega: ${deliveryLabel("recoger")}, ${facts.address.formatted}`,
    order.invoice
      ? `Factura CFDI a ${order.invoice.razonSocial}, RFC ${order.invoice.rfc}, régimen ${regimenLabel(order.invoice.regimenFiscal)}, uso ${usoCfdiLabel(order.invoice.usoCfdi)}, CP ${order.invoice.codigoPostal}.`
      : "Sin factura.",
  ];
}

const accountOrdersUrl = () => `${getEnv().publicUrl}/cuenta/pedidos`;

/** The customer's confirmation (with payment instructions) and the staff notification. */
export async function mailOrderPlaced(tx: DbTransaction, facts: SiteFacts, order: OrderMailFacts): Promise<void> {
  const customer = renderEmail({
    preheader: `Pedido ${order.number}: ${formatMoney(order.totalCentavos)} con IVA.`,
    heading: `Recibimos su pedido ${order.number}`,
    paragraphs: [`Hola, ${order.name}. Gracias por su compra.`, ...summaryLines(order, facts), ...paymentInstructionLines(order, facts)],
    // Guests have no page to go back to from another device; the email itself is the record.
    action: order.userId ? { label: "Ver mis pedidos", url: accountOrdersUrl() } : undefined,
    footerNote: "Si usted no hizo este pedido, responda a este correo y lo cancelamos.",
  }, facts);
  await enqueueMail({ to: order.email, subject: `Pedido ${order.number} recibido`, ...customer }, { tx });

  const staff = renderEmail({
    preheader: `${order.number}: ${order.name}, ${formatMoney(order.totalCentavos)}`,
    heading: `Nuevo pedido ${order.number}`,
    paragraphs: [
      `De: ${order.name}${order.company ? `, ${order.company}` : ""} · ${order.email} · ${order.phone}`,
      ...summaryLines(order, facts),
      order.paymentMethod === "spei" ? `Pago por SPEI con referencia ${order.paymentReference}.` : "Pago al recoger en planta.",
      // The customer was told the shipping's cost and carrier come by email, to be paid apart.
      ...(order.delivery === "envio" ? ["Envío por cotizar: escriba al cliente el costo del envío y la paquetería; lo paga aparte del total."] : []),
    ],
    action: { label: "Abrir en el panel", url: `${getEnv().publicUrl}/admin/pedidos/${order.id}` },
  }, facts);
  await enqueueMail(
    { to: staffRecipientsFor(facts), replyTo: order.email, subject: `[${order.number}] Pedido nuevo: ${order.name}`, ...staff },
    { tx },
  );
}

const statusSentences = (facts: SiteFacts): Record<OrderStatus, string> => ({
  pendiente_pago: "Su pedido está pendiente de pago.",
  pagado: "Confirmamos su pago. Empezaremos a preparar su pedido.",
  en_preparacion: "Estamos preparando su pedido.",
  enviado: "Su pedido va en camino.",
  listo_para_recoger: `Su pedido está listo para recoger en ${facts.address.formatted}, ${facts.hours.inSentence}.`,
  entregado: `Su pedido fue entregado. Gracias por comprar en ${facts.shortName}.`,
  cancelado: "Su pedido fue cancelado. Si ya había pagado, le escribiremos para el reembolso.",
});

export async function mailOrderStatusChanged(tx: DbTransaction, facts: SiteFacts, order: OrderMailFacts, status: OrderStatus, note: string | null): Promise<void> {
  const { html, text } = renderEmail({
    preheader: `Pedido ${order.number}: ${orderStatusLabel(status)}.`,
    heading: `Pedido ${order.number}: ${orderStatusLabel(status).toLowerCase()}`,
    paragraphs: [
      `Hola, ${order.name}.`,
      statusSentences(facts)[status],
      ...(note ? [`Nota de nuestro equipo: ${note}`] : []),
      ...(status === "pendiente_pago" ? paymentInstructionLines(order, facts) : []),
      `Total del pedido: ${formatMoney(order.totalCentavos)} con IVA.`,
    ],
    action: order.userId ? { label: "Ver mis pedidos", url: accountOrdersUrl() } : undefined,
  }, facts);
  await enqueueMail({ to: order.email, subject: `Pedido ${order.number}: ${orderStatusLabel(status)}`, html, text }, { tx });
}
