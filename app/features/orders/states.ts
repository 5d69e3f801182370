import type { OrderStatus } from "~/db/schema/orders";
import { orderStatusLabel } from "./forms";

// The order workflow as one table, read by the domain (to refuse) and by the staff page (to decide
// which buttons to show), so the two can never disagree. Browser-safe: no server code, no database.
//
//   pendiente_pago → pagado → en_preparacion → enviado | listo_para_recoger → entregado,
//   and cancelado from pendiente_pago, pagado or en_preparacion.
//
// "Enviado" applies only to orders with envío and "listo para recoger" only to pickups; an order
// paid at pickup may go to preparation before it is paid (the payment happens on delivery).

export type { OrderStatus };

export interface OrderShape {
  status: OrderStatus;
  delivery: "recoger" | "envio";
  paymentMethod: "spei" | "recoger";
}

/** Who may move an order: only staff, in the panel (customers never change an order's status). */
export type OrderActor = "staff";

export interface OrderTransition {
  from: OrderStatus;
  to: OrderStatus;
  who: OrderActor;
  /** The row applies only to orders with this delivery / payment method. */
  delivery?: OrderShape["delivery"];
  paymentMethod?: OrderShape["paymentMethod"];
}

/** In the order the buttons appear. */
export const ORDER_TRANSITIONS: readonly OrderTransition[] = [
  { from: "pendiente_pago", to: "pagado", who: "staff" },
  { from: "pendiente_pago", to: "en_preparacion", who: "staff", paymentMethod: "recoger" },
  { from: "pendiente_pago", to: "cancelado", who: "staff" },
  { from: "pagado", to: "en_preparacion", who: "staff" },
  { from: "pagado", to: "cancelado", who: "staff" },
  { from: "en_preparacion", to: "enviado", who: "staff", delivery: "envio" },
  { from: "en_preparacion", to: "listo_para_recoger", who: "staff", delivery: "recoger" },
  { from: "en_preparacion", to: "cancelado", who: "staff" },
  { from: "enviado", to: "entregado", who: "staff" },
  { from: "listo_para_recoger", to: "entregado", who: "staff" },
];

const applies = (row: OrderTransition, order: OrderShape) =>
  row.from === order.status && (!row.delivery || row.delivery === order.delivery) && (!row.paymentMethod || row.paymentMethod === order.paymentMethod);

/** The statuses this order may move to now, in the table's order. */
export function allowedTransitions(order: OrderShape): OrderStatus[] {
  return ORDER_TRANSITIONS.filter((row) => applies(row, order)).map((row) => row.to);
}

/** The same as button values and labels for the staff page. */
export function allowedActions(order: OrderShape): { value: OrderStatus; label: string }[] {
  return allowedTransitions(order).map((value) => ({ value, label: orderStatusLabel(value) }));
}

/** Why `order` may not move to `to`, in Spanish; null when the table allows it. */
export function transitionRefusal(order: OrderShape, to: OrderStatus): string | null {
  const allowed = allowedTransitions(order);
  if (allowed.includes(to)) return null;
  const from = orderStatusLabel(order.status);
  if (order.status === to) return `El pedido ya está «${from}».`;
  if (allowed.length === 0) return `El pedido está «${from}» y ya no admite cambios de estado.`;
  // A row for this move exists but is for the other kind of delivery.
  const otherDelivery = ORDER_TRANSITIONS.find((row) => row.from === order.status && row.to === to && row.delivery && row.delivery !== order.delivery);
  if (otherDelivery?.delivery === "envio") return "Este pedido se recoge en planta: márquelo como «Listo para recoger», no como «Enviado».";
  if (otherDelivery?.delivery === "recoger") return "Este pedido se envía a domicilio: márquelo como «Enviado», no como «Listo para recoger».";
  if (to === "cancelado") return `Un pedido «${from}» ya no se puede cancelar.`;
  return `Un pedido «${from}» no puede pasar a «${orderStatusLabel(to)}». Puede pasar a: ${allowed.map((status) => `«${orderStatusLabel(status)}»`).join(", ")}.`;
}
