import { and, asc, eq, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { cartItems, carts } from "~/db/schema/orders";
import { getProductsForCart } from "~/features/catalogue/index.server";
import { ok, type Result } from "~/lib/result";
import { formatUnitQuantity } from "~/lib/units";
import { ensureCart, hashCartToken, purchasable, stockPhrase, unavailableNotice } from "./cart.server";

// Merge rule: whenever a cart is read or changed by a signed-in person who still carries a guest
// cart (the first page after signing in, or the header's count), the guest cart's lines are added
// to the account's cart (quantities summed, bounded by stock) and the guest cart is deleted.

/**
 * Moves a guest cart into the account's: quantities summed and bounded by stock; then the guest
 * cart is deleted. The value lists lines that were reduced or dropped. Safe to run twice at once
 * (the guest cart is locked; the second run finds nothing).
 */
export async function mergeGuestCart(input: { guestToken: string; userId: string }): Promise<Result<string[]>> {
  const db = getDb();
  const guestTokenHash = hashCartToken(input.guestToken);
  const [found] = await db.select({ id: carts.id }).from(carts).where(eq(carts.guestTokenHash, guestTokenHash));
  if (!found) return ok([]);
  // Products are read before the transaction: PGlite has one connection, so a query outside the
  // transaction while it runs would wait for it forever. Stock here only bounds the cart; the
  // checkout's conditional update is what guarantees it.
  const before = await db.select({ productId: cartItems.productId }).from(cartItems).where(eq(cartItems.cartId, found.id));
  const byId = new Map((await getProductsForCart(before.map((item) => item.productId))).map((product) => [product.id, product]));

  const notices = await db.transaction(async (tx) => {
    const [guest] = await tx.select({ id: carts.id }).from(carts).where(eq(carts.guestTokenHash, guestTokenHash)).for("update");
    if (!guest) return [];
    const items = await tx
      .select({ productId: cartItems.productId, quantity: cartItems.quantity })
      .from(cartItems)
      .where(eq(cartItems.cartId, guest.id))
      .orderBy(asc(cartItems.addedAt), asc(cartItems.productId));
    const notices: string[] = [];
    if (items.length > 0) {
      const userCartId = await ensureCart({ kind: "user", userId: input.userId }, tx);
      // Same lock order as checkout (the cart row before its lines): no deadlock with an order being placed.
      await tx.select({ id: carts.id }).from(carts).where(eq(carts.id, userCartId)).for("update");
      for (const item of items) {
        const product = byId.get(item.productId);
        if (!purchasable(product)) {
          // Added in the instant between the two reads (no product read for it): it goes with the guest cart.
          if (!product && !before.some((line) => line.productId === item.productId)) continue;
          notices.push(unavailableNotice(product));
          continue;
        }
        const [existing] = await tx
          .select({ quantity: cartItems.quantity })
          .from(cartItems)
          .where(and(eq(cartItems.cartId, userCartId), eq(cartItems.productId, item.productId)));
        const desired = (existing?.quantity ?? 0) + item.quantity;
        const [merged] = await tx
          .insert(cartItems)
          .values({ cartId: userCartId, productId: item.productId, quantity: Math.min(Math.max(item.quantity, product.minOrder), product.stock) })
          .onConflictDoUpdate({
            target: [cartItems.cartId, cartItems.productId],
            set: { quantity: sql`least(greatest(${cartItems.quantity} + ${item.quantity}, ${product.minOrder}), ${product.stock})` },
          })
          .returning({ quantity: cartItems.quantity });
        if (merged && merged.quantity < desired) {
          notices.push(`${stockPhrase(product.stock, product.unit, product.name)}; su carrito tiene ${formatUnitQuantity(merged.quantity, product.unit)}.`);
        }
      }
      await tx.update(carts).set({ updatedAt: new Date() }).where(eq(carts.id, userCartId));
    }
    await tx.delete(carts).where(eq(carts.id, guest.id));
    return notices;
  });
  return ok(notices);
}
