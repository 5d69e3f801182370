import { and, asc, eq, gte, sql } from "drizzle-orm";
import { getDb, type DbTransaction } from "~/db/client.server";
import { products } from "~/db/schema/catalogue";
import { billingProfiles, cartItems, carts, orderEvents, orderItems, orders, type OrderInvoice } from "~/db/schema/orders";
import { nudgeMailWorker } from "~/services/mail/outbox.server";
import { getSiteFacts } from "~/features/site/index.server";
import { nextRecordNumber } from "~/services/numbering/next-number.server";
import { formatMoney } from "~/lib/format";
import { formatUnitQuantity } from "~/lib/units";
import { emptyCart, findCartId, type CartOwner } from "./cart.server";
import { mailOrderPlaced } from "./order-emails.server";
import { paymentReferenceFor } from "./payment-config";
import { priceLines } from "./pricing";
import type { CheckoutInput } from "./forms";
import { isUniqueViolation } from "~/db/errors.server";

// Placing an order: one transaction that takes the stock with conditional updates (never below
// zero, whatever runs at the same time), numbers the order PED-YYYY-NNNN, stores its lines,
// its first event and its emails, saves the CFDI data for next time and empties the cart.
// The checkout token is stored on the order: a second call with the same token finds that order
// instead of creating another. The refusal keeps its reason (empty cart, stock, minimum, price)
// for the caller; checkout.server.ts turns it into the shared Result.

export type PlaceOrderResult =
  | { ok: true; orderId: string; number: string; duplicate: boolean }
  | { ok: false; message: string; reason: "empty" | "stock" | "minimum" | "price" };

class CheckoutRefusal extends Error {
  constructor(
    message: string,
    readonly reason: "empty" | "stock" | "minimum" | "price",
  ) {
    super(message);
  }
}

export async function findOrderByToken(token: string): Promise<{ id: string; number: string } | null> {
  const [row] = await getDb().select({ id: orders.id, number: orders.number }).from(orders).where(eq(orders.checkoutToken, token)).limit(1);
  return row ?? null;
}

export interface PlaceOrderInput {
  owner: CartOwner;
  /** The signed-in customer, if any: the order is theirs and the CFDI data is saved for them. */
  userId: string | null;
  checkout: CheckoutInput;
  /** The one-time checkout token of the page that was submitted. */
  checkoutToken: string;
  now?: Date;
}

/**
 * Creates the order from the owner's cart, or refuses in Spanish with nothing changed. A second call
 * with the same token returns the first order (duplicate: true).
 */
export async function placeOrder(input: PlaceOrderInput): Promise<PlaceOrderResult> {
  const existing = await findOrderByToken(input.checkoutToken);
  if (existing) return { ok: true, orderId: existing.id, number: existing.number, duplicate: true };
  const now = input.now ?? new Date();
  const { checkout } = input;
  // The emails' business facts, read before the transaction (on PGlite a read outside a running
  // transaction waits for it).
  const facts = await getSiteFacts();
  try {
    const created = await getDb().transaction(async (tx) => {
      const cartId = await findCartId(input.owner, tx);
      // Lock the cart first (every transaction that changes a cart does): two submits of the same
      // cart run one after the other. The second then finds the first's order when it is the same
      // checkout (same token), or an empty cart when it is another tab.
      if (cartId) await tx.select({ id: carts.id }).from(carts).where(eq(carts.id, cartId)).for("update");
      const [twin] = await tx.select({ id: orders.id, number: orders.number }).from(orders).where(eq(orders.checkoutToken, input.checkoutToken));
      if (twin) return { orderId: twin.id, number: twin.number, duplicate: true };
      const items = cartId
        ? await tx
            .select({ productId: cartItems.productId, quantity: cartItems.quantity, name: products.name, minOrder: products.minOrder, unit: products.unit })
            .from(cartItems)
            .innerJoin(products, eq(products.id, cartItems.productId))
            .where(eq(cartItems.cartId, cartId))
            // One lock order for every transaction that touches stock: no deadlocks on PostgreSQL.
            .orderBy(asc(cartItems.productId))
        : [];
      if (!cartId || items.length === 0) throw new CheckoutRefusal("Su carrito está vacío. Agregue productos desde el catálogo para hacer un pedido.", "empty");

      const taken: { productId: string; sku: string; name: string; unit: string; quantity: number; unitPriceCentavos: number; ivaBp: number }[] = [];
      for (const item of items) {
        if (item.quantity < item.minOrder) {
          throw new CheckoutRefusal(`El pedido mínimo de «${item.name}» es de ${formatUnitQuantity(item.minOrder, item.unit)}. Ajuste la cantidad en su carrito.`, "minimum");
        }
        // The conditional update is the reservation: it succeeds only while enough stock remains,
        // and the row lock it takes makes concurrent checkouts of the same product wait their turn.
        const [row] = await tx
          .update(products)
          .set({ stock: sql`${products.stock} - ${item.quantity}`, updatedAt: now })
          .where(and(eq(products.id, item.productId), gte(products.stock, item.quantity), eq(products.active, true)))
          .returning({ sku: products.sku, name: products.name, unit: products.unit, priceCentavos: products.priceCentavos, ivaBp: products.ivaBp });
        if (!row) {
          const [current] = await tx.select({ stock: products.stock, active: products.active, unit: products.unit }).from(products).where(eq(products.id, item.productId));
          throw new CheckoutRefusal(stockRefusal(item.name, current), "stock");
        }
        taken.push({ productId: item.productId, sku: row.sku, name: row.name, unit: row.unit, quantity: item.quantity, unitPriceCentavos: row.priceCentavos, ivaBp: row.ivaBp });
      }

      const { lines, totals } = priceLines(taken);
      if (checkout.expectedTotal !== null && checkout.expectedTotal !== totals.totalCentavos) {
        throw new CheckoutRefusal(
          `El total de su carrito cambió a ${formatMoney(totals.totalCentavos)} con IVA (un precio se actualizó). Revíselo y confirme de nuevo.`,
          "price",
        );
      }

      const number = await nextRecordNumber(tx, "PED", now);
      const paymentReference = paymentReferenceFor(number);
      const [order] = await tx
        .insert(orders)
        .values({
          number,
          userId: input.userId,
          email: checkout.contact.email,
          name: checkout.contact.name,
          phone: checkout.contact.phone,
          company: checkout.contact.company,
          delivery: checkout.delivery,
          address: checkout.address,
          invoice: checkout.invoice,
          paymentMethod: checkout.paymentMethod,
          paymentReference,
          status: "pendiente_pago",
          subtotalCentavos: totals.subtotalCentavos,
          ivaCentavos: totals.ivaCentavos,
          totalCentavos: totals.totalCentavos,
          checkoutToken: input.checkoutToken,
          notes: checkout.notes,
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: orders.id });
      const orderId = order!.id;
      await tx.insert(orderItems).values(
        lines.map((line) => ({
          orderId,
          productId: line.productId,
          sku: line.sku,
          name: line.name,
          unit: line.unit,
          quantity: line.quantity,
          unitPriceCentavos: line.unitPriceCentavos,
          ivaBp: line.ivaBp,
          netCentavos: line.netCentavos,
          ivaCentavos: line.ivaCentavos,
        })),
      );
      await tx.insert(orderEvents).values({
        orderId,
        fromStatus: null,
        toStatus: "pendiente_pago",
        note: "Pedido hecho en línea.",
        actorId: input.userId,
        actorName: checkout.contact.name,
        createdAt: now,
      });
      if (input.userId && checkout.invoice) await saveBillingProfile(tx, input.userId, checkout.invoice, now);
      await emptyCart(tx, cartId);
      await mailOrderPlaced(tx, facts, {
        id: orderId,
        number,
        userId: input.userId,
        ...checkout.contact,
        delivery: checkout.delivery,
        address: checkout.address,
        invoice: checkout.invoice,
        paymentMethod: checkout.paymentMethod,
        paymentReference,
        ...totals,
        lines,
      });
      return { orderId, number, duplicate: false };
    });
    if (!created.duplicate) nudgeMailWorker();
    return { ok: true, ...created };
  } catch (error) {
    if (error instanceof CheckoutRefusal) return { ok: false, message: error.message, reason: error.reason };
    // The same checkout submitted twice at once: the first insert won; show its order.
    const winner = isUniqueViolation(error) ? await findOrderByToken(input.checkoutToken) : null;
    if (winner) return { ok: true, orderId: winner.id, number: winner.number, duplicate: true };
    throw error;
  }
}

function stockRefusal(name: string, current: { stock: number; active: boolean; unit: string } | undefined): string {
  if (!current || !current.active) return `«${name}» ya no está a la venta. Quítelo de su carrito para continuar; no se apartó nada.`;
  if (current.stock <= 0) return `Ya no quedan piezas de «${name}»: se agotó mientras completaba su pedido. Quítelo de su carrito para continuar; no se apartó nada.`;
  const phrase = current.stock === 1 ? `Solo queda ${formatUnitQuantity(1, current.unit)}` : `Solo quedan ${formatUnitQuantity(current.stock, current.unit)}`;
  return `${phrase} de «${name}». Ajuste la cantidad en su carrito para continuar; no se apartó nada.`;
}

async function saveBillingProfile(tx: DbTransaction, userId: string, invoice: OrderInvoice, now: Date): Promise<void> {
  const values = { rfc: invoice.rfc, razonSocial: invoice.razonSocial, regimenFiscal: invoice.regimenFiscal, usoCfdi: invoice.usoCfdi, codigoPostal: invoice.codigoPostal, updatedAt: now };
  await tx.insert(billingProfiles).values({ userId, ...values }).onConflictDoUpdate({ target: billingProfiles.userId, set: values });
}
