import type { OrderStatus } from "../forms";
import { orderStatusLabel } from "../forms";

const STYLES: Record<OrderStatus, string> = {
  pendiente_pago: "bg-amber-100 text-amber-900",
  pagado: "bg-blue-100 text-blue-900",
  en_preparacion: "bg-forja-100 text-forja-700",
  enviado: "bg-indigo-100 text-indigo-900",
  listo_para_recoger: "bg-indigo-100 text-indigo-900",
  entregado: "bg-green-100 text-green-900",
  cancelado: "bg-acero-100 text-acero-700",
};

export function OrderStatusPill({ status }: { status: OrderStatus }) {
  return (
    <span className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ${STYLES[status] ?? STYLES.cancelado}`}>
      {orderStatusLabel(status)}
    </span>
  );
}
