import { createHash, randomBytes } from "node:crypto";
import { and, asc, count, eq, gte, isNull, lt, sql } from "drizzle-orm";
import { getDb, type DbTransaction } from "~/db/client.server";
import { products } from "~/db/schema/catalogue";
import { cartItems, carts } from "~/db/schema/orders";
import { getProductsForCart, type CartProduct } from "~/features/catalogue/index.server";
import { consumeRateLimit, rateLimitMessage } from "~/services/security/rate-limit.server";
import type { Totals } from "~/lib/money";
import { limited, ok, type Result } from "~/lib/result";
import { formatUnitQuantity } from "~/lib/units";
import { priceLines } from "./pricing";

// The server-side cart (ARCHITECTURE §1: nothing only in memory): who owns it, reading it priced
// now, and its housekeeping. A guest's cart is found by a random token (only its sha256 is
// stored); a customer's by the account. Prices are never stored in the cart: every read prices it
// from the products. Which cookie carries the token is http.server.ts's business, not this file's.

/** New guest carts per IP: a person makes one; a script adding to cart in a loop makes many. */
const NEW_GUEST_CART_RULE = { limit: 20, windowMs: 10 * 60_000 };
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export type CartOwner = { kind: "user"; userId: string } | { kind: "guest"; token: string };

export type Db = ReturnType<typeof getDb> | DbTransaction;

export interface CartLine {
  productId: string;
  slug: string;
  sku: string;
  name: string;
  unit: string;
  /** URL of a small product photo (the catalogue's), or null. */
  image: string | null;
  quantity: number;
  stock: number;
  minOrder: number;
  unitPriceCentavos: number;
  ivaBp: number;
  unitPriceWithIvaCentavos: number;
  netCentavos: number;
  ivaCentavos: number;
  totalCentavos: number;
}

export interface CartView {
  lines: CartLine[];
  totals: Totals;
  /** Pieces in the cart (sum of quantities). */
  quantity: number;
  /** Things the server changed since the last look (stock went down, an item was withdrawn…). */
  notices: string[];
}

const EMPTY_TOTALS: Totals = { subtotalCentavos: 0, ivaCentavos: 0, totalCentavos: 0 };

export function emptyCartView(): CartView {
  return { lines: [], totals: { ...EMPTY_TOTALS }, quantity: 0, notices: [] };
}

export function hashCartToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** A guest token as we issue them (43 base64url characters); anything else is ignored, never looked up. */
export function isGuestCartToken(value: string | null): value is string {
  return value !== null && TOKEN_PATTERN.test(value);
}

/** A new guest cart's owner, unless this IP made too many of them lately. */
export async function startGuestCart(ip: string): Promise<Result<{ kind: "guest"; token: string }>> {
  const limit = await consumeRateLimit(`cart-new:${ip || "desconocida"}`, NEW_GUEST_CART_RULE);
  if (!limit.allowed) return limited(rateLimitMessage(limit), limit.retryAfterSeconds);
  return ok({ kind: "guest", token: randomBytes(32).toString("base64url") });
}

function ownerCondition(owner: CartOwner) {
  return owner.kind === "user" ? eq(carts.userId, owner.userId) : eq(carts.guestTokenHash, hashCartToken(owner.token));
}

export async function findCartId(owner: CartOwner, db: Db = getDb()): Promise<string | null> {
  const [row] = await db.select({ id: carts.id }).from(carts).where(ownerCondition(owner)).limit(1);
  return row?.id ?? null;
}

export async function ensureCart(owner: CartOwner, db: Db = getDb()): Promise<string> {
  const values = owner.kind === "user" ? { userId: owner.userId } : { guestTokenHash: hashCartToken(owner.token) };
  // Two first adds at once: one insert wins, the other finds its row.
  const [created] = await db.insert(carts).values(values).onConflictDoNothing().returning({ id: carts.id });
  if (created) return created.id;
  const id = await findCartId(owner, db);
  if (!id) throw new Error("cart vanished while being created");
  return id;
}

export function stockPhrase(stock: number, unit: string, name: string): string {
  return stock === 1 ? `Solo queda ${formatUnitQuantity(1, unit)} de «${name}»` : `Solo quedan ${formatUnitQuantity(stock, unit)} de «${name}»`;
}

/** Withdrawn products, and those with less stock than their minimum order, cannot be bought. */
export function purchasable(product: CartProduct | undefined): product is CartProduct {
  return !!product && product.active && product.stock > 0 && product.stock >= product.minOrder;
}

export function unavailableNotice(product: CartProduct | undefined, fallbackName = "Un producto"): string {
  if (!product || !product.active) return `«${product?.name ?? fallbackName}» ya no está a la venta; lo quitamos de su carrito.`;
  return `«${product.name}» se agotó; lo quitamos de su carrito. Escríbanos si lo necesita sobre pedido.`;
}

/**
 * The cart priced now (empty without an owner). Lines whose product was withdrawn or sold out are
 * removed and quantities are brought within [minOrder, stock]; those changes are saved and
 * described in `notices`.
 */
export async function loadCart(owner: CartOwner | null): Promise<CartView> {
  if (!owner) return emptyCartView();
  const db = getDb();
  const cartId = await findCartId(owner, db);
  if (!cartId) return emptyCartView();
  const items = await db
    .select({ productId: cartItems.productId, quantity: cartItems.quantity })
    .from(cartItems)
    .where(eq(cartItems.cartId, cartId))
    .orderBy(asc(cartItems.addedAt), asc(cartItems.productId));
  const byId = new Map((await getProductsForCart(items.map((item) => item.productId))).map((product) => [product.id, product]));

  const notices: string[] = [];
  const kept: { product: CartProduct; quantity: number }[] = [];
  for (const item of items) {
    const product = byId.get(item.productId);
    if (!purchasable(product)) {
      notices.push(unavailableNotice(product));
      await db.delete(cartItems).where(and(eq(cartItems.cartId, cartId), eq(cartItems.productId, item.productId)));
      continue;
    }
    const bounded = Math.min(Math.max(item.quantity, product.minOrder), product.stock);
    if (bounded !== item.quantity) {
      notices.push(
        bounded < item.quantity
          ? `${stockPhrase(product.stock, product.unit, product.name)}; ajustamos la cantidad de su carrito.`
          : `El pedido mínimo de «${product.name}» es de ${formatUnitQuantity(product.minOrder, product.unit)}; ajustamos la cantidad.`,
      );
      await db.update(cartItems).set({ quantity: bounded }).where(and(eq(cartItems.cartId, cartId), eq(cartItems.productId, item.productId)));
    }
    kept.push({ product, quantity: bounded });
  }

  const { lines, totals } = priceLines(
    kept.map(({ product, quantity }) => ({
      productId: product.id,
      slug: product.slug,
      sku: product.sku,
      name: product.name,
      unit: product.unit,
      image: product.image,
      quantity,
      stock: product.stock,
      minOrder: product.minOrder,
      unitPriceCentavos: product.priceCentavos,
      ivaBp: product.ivaBp,
    })),
  );
  return { lines, totals, quantity: lines.reduce((sum, line) => sum + line.quantity, 0), notices };
}

/** Pieces in a cart, for the header; cheap (no pricing, nothing rewritten). */
export async function countCartItems(owner: CartOwner | null): Promise<number> {
  if (!owner) return 0;
  const [row] = await getDb()
    .select({ quantity: sql<number>`coalesce(sum(${cartItems.quantity}), 0)::int` })
    .from(cartItems)
    .innerJoin(carts, eq(carts.id, cartItems.cartId))
    .innerJoin(products, eq(products.id, cartItems.productId))
    .where(and(ownerCondition(owner), eq(products.active, true), gte(products.stock, products.minOrder)));
  return Number(row?.quantity ?? 0);
}

/** Lines in a cart (for tests and the checkout's "nothing to buy" check). */
export async function countCartLines(owner: CartOwner): Promise<number> {
  const cartId = await findCartId(owner);
  if (!cartId) return 0;
  const [row] = await getDb().select({ lines: count() }).from(cartItems).where(eq(cartItems.cartId, cartId));
  return row?.lines ?? 0;
}

/** Empties a cart inside the transaction that placed its order. */
export async function emptyCart(tx: DbTransaction, cartId: string): Promise<void> {
  await tx.delete(cartItems).where(eq(cartItems.cartId, cartId));
  await tx.update(carts).set({ updatedAt: new Date() }).where(eq(carts.id, cartId));
}

/** Guest carts untouched for 60 days are abandoned: removed at start-up. */
export async function removeAbandonedGuestCarts(now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - 60 * 24 * 60 * 60 * 1000);
  const removed = await getDb()
    .delete(carts)
    .where(and(isNull(carts.userId), lt(carts.updatedAt, cutoff)))
    .returning({ id: carts.id });
  return removed.length;
}
