import { and, desc, eq, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { orderItems, orders, type OrderStatus } from "~/db/schema/orders";
import { speiDetails, type SpeiDetails } from "~/services/site-config/payment-account";
import { getSiteFacts } from "~/features/site/index.server";
import { loadOrderDetail, type OrderDetail } from "./order-records.server";
import { orderVisibleToCustomer, orderVisibleToViewer, type OrderViewer } from "./visibility.server";

// What customers see of their orders. Owners see only their own: an order placed while signed in
// belongs to that account; a guest's order is readable only from the browser that placed it (a
// signed cookie, read by http.server.ts into an OrderViewer).

export type { OrderViewer };

/** The order if this viewer owns it, otherwise null (the route answers 404, never 403). */
export async function getCustomerOrder(number: string, viewer: OrderViewer): Promise<OrderDetail | null> {
  if (!/^PED-\d{4}-\d{4,}$/.test(number)) return null;
  return loadOrderDetail(and(eq(orders.number, number), orderVisibleToViewer(viewer))!);
}

export interface OrderConfirmation extends OrderDetail {
  /** The SPEI account of `ajustes` with the order's reference, for an order paid by transfer. */
  payment: SpeiDetails | null;
}

/** /checkout/confirmacion/:number — the order with its payment instructions, for its owner only. */
export async function getOrderConfirmation(number: string, viewer: OrderViewer): Promise<OrderConfirmation | null> {
  const detail = await getCustomerOrder(number, viewer);
  if (!detail) return null;
  return { ...detail, payment: detail.order.paymentMethod === "spei" ? speiDetails((await getSiteFacts()).payment, detail.order.paymentReference) : null };
}

export interface CustomerOrderSummary {
  number: string;
  status: OrderStatus;
  createdAt: Date;
  totalCentavos: number;
  delivery: "recoger" | "envio";
  paymentMethod: "spei" | "recoger";
  items: number;
}

/** /cuenta/pedidos: the signed-in customer's orders, newest first. */
export async function listCustomerOrders(userId: string): Promise<CustomerOrderSummary[]> {
  return getDb()
    .select({
      number: orders.number,
      status: orders.status,
      createdAt: orders.createdAt,
      totalCentavos: orders.totalCentavos,
      delivery: orders.delivery,
      paymentMethod: orders.paymentMethod,
      // The outer row's id written out in full: Drizzle renders ${orders.id} as a bare "id", which inside
      // this subquery would mean order_items.id (and every order would count 0 pieces).
      items: sql<number>`(select coalesce(sum(${orderItems.quantity}), 0)::int from ${orderItems} where ${orderItems.orderId} = "orders"."id")`,
    })
    .from(orders)
    .where(orderVisibleToCustomer(userId))
    .orderBy(desc(orders.createdAt))
    .limit(200);
}
