import { eq } from "drizzle-orm";
import { orders } from "~/db/schema/orders";
import { isUuid, loadOrderDetail, type OrderDetail } from "./order-records.server";

// /admin/pedidos/:id: one order, its lines and its history. Which status buttons to show is
// asked of states.ts by the page itself.

export async function getOrderDetail(id: string): Promise<OrderDetail | null> {
  if (!isUuid(id)) return null;
  return loadOrderDetail(eq(orders.id, id));
}
