import { asc, eq, type SQL } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { orderEvents, orderItems, orders } from "~/db/schema/orders";

// One order with its lines and history, read the same way for the customer's and the staff's pages.

export type OrderRow = typeof orders.$inferSelect;
export type OrderItemRow = typeof orderItems.$inferSelect;
export type OrderEventRow = typeof orderEvents.$inferSelect;

export interface OrderDetail {
  order: OrderRow;
  items: OrderItemRow[];
  events: OrderEventRow[];
}

export const isUuid = (value: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);

export async function loadOrderDetail(where: SQL): Promise<OrderDetail | null> {
  const db = getDb();
  const [order] = await db.select().from(orders).where(where).limit(1);
  if (!order) return null;
  const [items, events] = await Promise.all([
    db.select().from(orderItems).where(eq(orderItems.orderId, order.id)).orderBy(asc(orderItems.name), asc(orderItems.id)),
    db.select().from(orderEvents).where(eq(orderEvents.orderId, order.id)).orderBy(asc(orderEvents.createdAt), asc(orderEvents.id)),
  ]);
  return { order, items, events };
}
