import { and, eq, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { cartItems, carts } from "~/db/schema/orders";
import { getProductsForCart } from "~/features/catalogue/index.server";
import { conflict, notFoundResult, ok, type Result } from "~/lib/result";
import { formatUnitQuantity } from "~/lib/units";
import { MAX_LINE_QUANTITY } from "./forms";
import { ensureCart, findCartId, purchasable, stockPhrase, unavailableNotice, type CartOwner } from "./cart.server";

// The cart's three commands (agregar, actualizar, quitar). Each answers with a sentence for the
// person: on success it may say the server bounded the quantity (stock, minimum order); a failure
// says why nothing was added.

export type CartCommandResult = Result<{ message: string }>;

/** Adds to the line (creating the cart), bounded by stock and at least the minimum order. */
export async function addToCart(owner: CartOwner, productId: string, quantity: number): Promise<CartCommandResult> {
  const [product] = await getProductsForCart([productId]);
  if (!product || !product.active) return conflict("Ese producto ya no está a la venta.");
  if (product.stock <= 0 || product.stock < product.minOrder) {
    return conflict(`«${product.name}» está agotado por ahora. Escríbanos si lo necesita sobre pedido.`);
  }
  const wanted = Math.max(1, Math.min(quantity, MAX_LINE_QUANTITY));
  const cartId = await ensureCart(owner);
  const db = getDb();
  const [before] = await db
    .select({ quantity: cartItems.quantity })
    .from(cartItems)
    .where(and(eq(cartItems.cartId, cartId), eq(cartItems.productId, productId)));
  const desired = (before?.quantity ?? 0) + wanted;
  // Atomic: two adds at once both count, and the bounds hold whatever the other one did.
  const [after] = await db
    .insert(cartItems)
    .values({ cartId, productId, quantity: Math.min(Math.max(wanted, product.minOrder), product.stock) })
    .onConflictDoUpdate({
      target: [cartItems.cartId, cartItems.productId],
      set: { quantity: sql`least(greatest(${cartItems.quantity} + ${wanted}, ${product.minOrder}), ${product.stock})` },
    })
    .returning({ quantity: cartItems.quantity });
  await db.update(carts).set({ updatedAt: new Date() }).where(eq(carts.id, cartId));
  const now = after!.quantity;
  if (now < desired) {
    return ok({ message: `${stockPhrase(product.stock, product.unit, product.name)} en existencia; su carrito tiene ${formatUnitQuantity(now, product.unit)}.` });
  }
  if (now > desired) {
    return ok({ message: `El pedido mínimo de «${product.name}» es de ${formatUnitQuantity(product.minOrder, product.unit)}; agregamos esa cantidad a su carrito.` });
  }
  return ok({ message: `Agregamos ${formatUnitQuantity(wanted, product.unit)} de «${product.name}» a su carrito.` });
}

/** Sets a line's quantity (0 removes it), bounded like addToCart. */
export async function setCartItemQuantity(owner: CartOwner, productId: string, quantity: number): Promise<CartCommandResult> {
  if (quantity <= 0) return removeFromCart(owner, productId);
  const cartId = await findCartId(owner);
  const [product] = await getProductsForCart([productId]);
  const db = getDb();
  if (!cartId) return conflict("Su carrito está vacío.");
  const [line] = await db.select({ quantity: cartItems.quantity }).from(cartItems).where(and(eq(cartItems.cartId, cartId), eq(cartItems.productId, productId)));
  if (!line) return notFoundResult("Ese producto ya no está en su carrito.");
  if (!purchasable(product)) {
    await db.delete(cartItems).where(and(eq(cartItems.cartId, cartId), eq(cartItems.productId, productId)));
    return conflict(unavailableNotice(product));
  }
  const bounded = Math.min(Math.max(quantity, product.minOrder), product.stock);
  await db.update(cartItems).set({ quantity: bounded }).where(and(eq(cartItems.cartId, cartId), eq(cartItems.productId, productId)));
  await db.update(carts).set({ updatedAt: new Date() }).where(eq(carts.id, cartId));
  if (bounded < quantity) return ok({ message: `${stockPhrase(product.stock, product.unit, product.name)}; dejamos ${formatUnitQuantity(bounded, product.unit)} en su carrito.` });
  if (bounded > quantity) return ok({ message: `El pedido mínimo de «${product.name}» es de ${formatUnitQuantity(product.minOrder, product.unit)}; ajustamos la cantidad.` });
  return ok({ message: `Actualizamos «${product.name}»: ${formatUnitQuantity(bounded, product.unit)}.` });
}

export async function removeFromCart(owner: CartOwner, productId: string): Promise<CartCommandResult> {
  const cartId = await findCartId(owner);
  if (!cartId) return ok({ message: "Su carrito está vacío." });
  const [removed] = await getDb()
    .delete(cartItems)
    .where(and(eq(cartItems.cartId, cartId), eq(cartItems.productId, productId)))
    .returning({ productId: cartItems.productId });
  if (!removed) return ok({ message: "Ese producto ya no estaba en su carrito." });
  const [product] = await getProductsForCart([productId]);
  return ok({ message: product ? `Quitamos «${product.name}» de su carrito.` : "Quitamos el producto de su carrito." });
}
