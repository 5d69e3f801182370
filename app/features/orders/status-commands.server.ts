import { and, asc, eq, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { products } from "~/db/schema/catalogue";
import { orderEvents, orderItems, orders, type OrderStatus } from "~/db/schema/orders";
import { conflict, notFoundResult, ok, type Result } from "~/lib/result";
import { nudgeMailWorker } from "~/services/mail/outbox.server";
import { getSiteFacts } from "~/features/site/index.server";
import { orderStatusLabel } from "./forms";
import { mailOrderStatusChanged, type OrderMailFacts } from "./order-emails.server";
import { isUuid, type OrderItemRow, type OrderRow } from "./order-records.server";
import { transitionRefusal } from "./states";

// Staff move an order through its workflow (the table in states.ts).

export interface StaffActor {
  id: string;
  name: string;
}

const NOT_FOUND = "No encontramos ese pedido.";

/**
 * Moves an order to `to` if the workflow allows it: records who and when, emails the customer and,
 * on cancellation, returns the stock of every line — all in one transaction. The status update is
 * conditional on the status read, so two staff members clicking at once cannot cancel twice.
 */
export async function changeOrderStatus(input: {
  orderId: string;
  to: OrderStatus;
  actor: StaffActor;
  note?: string | null;
  now?: Date;
}): Promise<Result<{ status: OrderStatus; message: string }>> {
  if (!isUuid(input.orderId)) return notFoundResult(NOT_FOUND);
  const now = input.now ?? new Date();
  // The email's business facts, read before the transaction (a read inside it would wait on PGlite).
  const facts = await getSiteFacts();
  const result = await getDb().transaction(async (tx): Promise<Result<{ status: OrderStatus; message: string }>> => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, input.orderId)).for("update");
    if (!order) return notFoundResult(NOT_FOUND);
    const refusal = transitionRefusal(order, input.to);
    if (refusal) return conflict(refusal);
    const [updated] = await tx
      .update(orders)
      .set({ status: input.to, updatedAt: now })
      .where(and(eq(orders.id, order.id), eq(orders.status, order.status)))
      .returning({ id: orders.id });
    if (!updated) return conflict("Alguien más cambió este pedido hace un momento. Recargue la página.");

    const items = await tx.select().from(orderItems).where(eq(orderItems.orderId, order.id)).orderBy(asc(orderItems.productId));
    if (input.to === "cancelado") {
      // Same lock order as checkout (by product id). A product deleted since keeps nothing to return.
      for (const item of items) {
        if (!item.productId) continue;
        await tx
          .update(products)
          .set({ stock: sql`${products.stock} + ${item.quantity}`, updatedAt: now })
          .where(eq(products.id, item.productId));
      }
    }
    await tx.insert(orderEvents).values({
      orderId: order.id,
      fromStatus: order.status,
      toStatus: input.to,
      note: input.note ?? null,
      actorId: input.actor.id,
      actorName: input.actor.name,
      createdAt: now,
    });
    await mailOrderStatusChanged(tx, facts, toMailFacts(order, items), input.to, input.note ?? null);
    const returned = input.to === "cancelado" && items.some((item) => item.productId) ? " y el inventario regresó al catálogo" : "";
    return ok({ status: input.to, message: `El pedido ${order.number} pasó a «${orderStatusLabel(input.to)}»${returned}. Avisamos al cliente por correo.` });
  });
  if (result.ok) nudgeMailWorker();
  return result;
}

function toMailFacts(order: OrderRow, items: OrderItemRow[]): OrderMailFacts {
  return {
    id: order.id,
    number: order.number,
    userId: order.userId,
    name: order.name,
    email: order.email,
    phone: order.phone,
    company: order.company,
    delivery: order.delivery,
    address: order.address,
    invoice: order.invoice,
    paymentMethod: order.paymentMethod,
    paymentReference: order.paymentReference,
    subtotalCentavos: order.subtotalCentavos,
    ivaCentavos: order.ivaCentavos,
    totalCentavos: order.totalCentavos,
    lines: items,
  };
}
