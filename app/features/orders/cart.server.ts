import { createHash, randomBytes } from "node:crypto";
import { and, asc, count, eq, gte, isNull, lt, sql } from "drizzle-orm";
import { getDb, type DbTransaction } from "~/db/client.server";
import { products } from "~/db/schema/catalogue";
import { cartItems, carts } from "~/db/schema/orders";
import { getSessionUser, type SessionUser } from "~/features/accounts/index.server";
import type { RequestMeta } from "~/lib/request-meta";
import { getProductsForCart, type CartProduct } from "~/features/catalogue/index.server";
import { consumeRateLimit, rateLimitMessage } from "~/services/security/rate-limit.server";
import { getEnv } from "~/lib/env.server";
import type { Totals } from "~/lib/money";
import { priceLines } from "./pricing";
import { CartActionSchema, MAX_LINE_QUANTITY, quantityWithUnit } from "./forms";

// The server-side cart (ARCHITECTURE §1: nothing only in memory). A guest's cart is found by a
// random token in an httpOnly cookie (only its sha256 is stored); a customer's by the account.
//
// Merge rule: whenever a cart is read or changed by a signed-in request that still carries a guest
// cookie (the first page after signing in, or the header's count), the guest cart's lines are
// added to the account's cart (quantities summed, bounded by stock), the guest cart is deleted and
// the cookie cleared. Prices are never stored in the cart: every read prices it from the products.

export const GUEST_CART_COOKIE = "forja_carrito";
/** Readable by scripts; says only "this browser has a guest cart", so the header knows to ask for the count. */
export const CART_HINT_COOKIE = "forja_carrito_hint";
const FLASH_COOKIE = "forja_carrito_aviso";
const GUEST_CART_MAX_AGE = 60 * 60 * 24 * 30;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
/** New guest carts per IP: a person makes one; a script adding to cart in a loop makes many. */
const NEW_GUEST_CART_RULE = { limit: 20, windowMs: 10 * 60_000 };

export type CartOwner = { kind: "user"; userId: string } | { kind: "guest"; token: string };

type Db = ReturnType<typeof getDb> | DbTransaction;

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

export interface CartNotice {
  ok: boolean;
  message: string;
}

const EMPTY_TOTALS: Totals = { subtotalCentavos: 0, ivaCentavos: 0, totalCentavos: 0 };

export function hashCartToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

function ownerCondition(owner: CartOwner) {
  return owner.kind === "user" ? eq(carts.userId, owner.userId) : eq(carts.guestTokenHash, hashCartToken(owner.token));
}

export async function findCartId(owner: CartOwner, db: Db = getDb()): Promise<string | null> {
  const [row] = await db.select({ id: carts.id }).from(carts).where(ownerCondition(owner)).limit(1);
  return row?.id ?? null;
}

async function ensureCart(owner: CartOwner, db: Db = getDb()): Promise<string> {
  const values = owner.kind === "user" ? { userId: owner.userId } : { guestTokenHash: hashCartToken(owner.token) };
  // Two first adds at once: one insert wins, the other finds its row.
  const [created] = await db.insert(carts).values(values).onConflictDoNothing().returning({ id: carts.id });
  if (created) return created.id;
  const id = await findCartId(owner, db);
  if (!id) throw new Error("cart vanished while being created");
  return id;
}

function stockPhrase(stock: number, unit: string, name: string): string {
  return stock === 1 ? `Solo queda ${quantityWithUnit(1, unit)} de «${name}»` : `Solo quedan ${quantityWithUnit(stock, unit)} de «${name}»`;
}

/** Withdrawn products, and those with less stock than their minimum order, cannot be bought. */
function purchasable(product: CartProduct | undefined): product is CartProduct {
  return !!product && product.active && product.stock > 0 && product.stock >= product.minOrder;
}

function unavailableNotice(product: CartProduct | undefined, fallbackName = "Un producto"): string {
  if (!product || !product.active) return `«${product?.name ?? fallbackName}» ya no está a la venta; lo quitamos de su carrito.`;
  return `«${product.name}» se agotó; lo quitamos de su carrito. Escríbanos si lo necesita sobre pedido.`;
}

/**
 * The cart priced now. Lines whose product was withdrawn or sold out are removed and quantities are
 * brought within [minOrder, stock]; those changes are saved and described in `notices`.
 */
export async function loadCart(owner: CartOwner): Promise<CartView> {
  const db = getDb();
  const cartId = await findCartId(owner, db);
  if (!cartId) return { lines: [], totals: EMPTY_TOTALS, quantity: 0, notices: [] };
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
          : `El pedido mínimo de «${product.name}» es de ${quantityWithUnit(product.minOrder, product.unit)}; ajustamos la cantidad.`,
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
export async function countCartItems(owner: CartOwner): Promise<number> {
  const [row] = await getDb()
    .select({ quantity: sql<number>`coalesce(sum(${cartItems.quantity}), 0)::int` })
    .from(cartItems)
    .innerJoin(carts, eq(carts.id, cartItems.cartId))
    .innerJoin(products, eq(products.id, cartItems.productId))
    .where(and(ownerCondition(owner), eq(products.active, true), gte(products.stock, products.minOrder)));
  return Number(row?.quantity ?? 0);
}

export interface CartCommandResult {
  ok: boolean;
  message: string;
}

/** Adds to the line (creating the cart), bounded by stock and at least the minimum order. */
export async function addToCart(owner: CartOwner, productId: string, quantity: number): Promise<CartCommandResult> {
  const [product] = await getProductsForCart([productId]);
  if (!product || !product.active) return { ok: false, message: "Ese producto ya no está a la venta." };
  if (product.stock <= 0 || product.stock < product.minOrder) {
    return { ok: false, message: `«${product.name}» está agotado por ahora. Escríbanos si lo necesita sobre pedido.` };
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
    return { ok: true, message: `${stockPhrase(product.stock, product.unit, product.name)} en existencia; su carrito tiene ${quantityWithUnit(now, product.unit)}.` };
  }
  if (now > desired) {
    return { ok: true, message: `El pedido mínimo de «${product.name}» es de ${quantityWithUnit(product.minOrder, product.unit)}; agregamos esa cantidad a su carrito.` };
  }
  return { ok: true, message: `Agregamos ${quantityWithUnit(wanted, product.unit)} de «${product.name}» a su carrito.` };
}

/** Sets a line's quantity (0 removes it), bounded like addToCart. */
export async function setCartItemQuantity(owner: CartOwner, productId: string, quantity: number): Promise<CartCommandResult> {
  if (quantity <= 0) return removeFromCart(owner, productId);
  const cartId = await findCartId(owner);
  const [product] = await getProductsForCart([productId]);
  const db = getDb();
  if (!cartId) return { ok: false, message: "Su carrito está vacío." };
  const [line] = await db.select({ quantity: cartItems.quantity }).from(cartItems).where(and(eq(cartItems.cartId, cartId), eq(cartItems.productId, productId)));
  if (!line) return { ok: false, message: "Ese producto ya no está en su carrito." };
  if (!purchasable(product)) {
    await db.delete(cartItems).where(and(eq(cartItems.cartId, cartId), eq(cartItems.productId, productId)));
    return { ok: false, message: unavailableNotice(product) };
  }
  const bounded = Math.min(Math.max(quantity, product.minOrder), product.stock);
  await db.update(cartItems).set({ quantity: bounded }).where(and(eq(cartItems.cartId, cartId), eq(cartItems.productId, productId)));
  await db.update(carts).set({ updatedAt: new Date() }).where(eq(carts.id, cartId));
  if (bounded < quantity) return { ok: true, message: `${stockPhrase(product.stock, product.unit, product.name)}; dejamos ${quantityWithUnit(bounded, product.unit)} en su carrito.` };
  if (bounded > quantity) return { ok: true, message: `El pedido mínimo de «${product.name}» es de ${quantityWithUnit(product.minOrder, product.unit)}; ajustamos la cantidad.` };
  return { ok: true, message: `Actualizamos «${product.name}»: ${quantityWithUnit(bounded, product.unit)}.` };
}

export async function removeFromCart(owner: CartOwner, productId: string): Promise<CartCommandResult> {
  const cartId = await findCartId(owner);
  if (!cartId) return { ok: true, message: "Su carrito está vacío." };
  const [removed] = await getDb()
    .delete(cartItems)
    .where(and(eq(cartItems.cartId, cartId), eq(cartItems.productId, productId)))
    .returning({ productId: cartItems.productId });
  if (!removed) return { ok: true, message: "Ese producto ya no estaba en su carrito." };
  const [product] = await getProductsForCart([productId]);
  return { ok: true, message: product ? `Quitamos «${product.name}» de su carrito.` : "Quitamos el producto de su carrito." };
}

/** Empties a cart inside the transaction that placed its order. */
export async function emptyCart(tx: DbTransaction, cartId: string): Promise<void> {
  await tx.delete(cartItems).where(eq(cartItems.cartId, cartId));
  await tx.update(carts).set({ updatedAt: new Date() }).where(eq(carts.id, cartId));
}

/**
 * Moves a guest cart into the account's: quantities summed and bounded by stock; then the guest
 * cart is deleted. Returns notices for lines that were reduced or dropped. Safe to run twice at
 * once (the guest cart is locked; the second run finds nothing).
 */
export async function mergeGuestCart(token: string, userId: string): Promise<string[]> {
  const db = getDb();
  const guestTokenHash = hashCartToken(token);
  const [found] = await db.select({ id: carts.id }).from(carts).where(eq(carts.guestTokenHash, guestTokenHash));
  if (!found) return [];
  // Products are read before the transaction: PGlite has one connection, so a query outside the
  // transaction while it runs would wait for it forever. Stock here only bounds the cart; the
  // checkout's conditional update is what guarantees it.
  const before = await db.select({ productId: cartItems.productId }).from(cartItems).where(eq(cartItems.cartId, found.id));
  const byId = new Map((await getProductsForCart(before.map((item) => item.productId))).map((product) => [product.id, product]));

  return db.transaction(async (tx) => {
    const [guest] = await tx.select({ id: carts.id }).from(carts).where(eq(carts.guestTokenHash, guestTokenHash)).for("update");
    if (!guest) return [];
    const items = await tx
      .select({ productId: cartItems.productId, quantity: cartItems.quantity })
      .from(cartItems)
      .where(eq(cartItems.cartId, guest.id))
      .orderBy(asc(cartItems.addedAt), asc(cartItems.productId));
    const notices: string[] = [];
    if (items.length > 0) {
      const userCartId = await ensureCart({ kind: "user", userId }, tx);
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
          notices.push(`${stockPhrase(product.stock, product.unit, product.name)}; su carrito tiene ${quantityWithUnit(merged.quantity, product.unit)}.`);
        }
      }
      await tx.update(carts).set({ updatedAt: new Date() }).where(eq(carts.id, userCartId));
    }
    await tx.delete(carts).where(eq(carts.id, guest.id));
    return notices;
  });
}

// ---------------------------------------------------------------------------------------------
// Requests: cookies, the signed-in user and the merge.

export function readCookie(request: Request, name: string): string | null {
  for (const part of (request.headers.get("cookie") ?? "").split(/;\s*/)) {
    const index = part.indexOf("=");
    if (index > 0 && part.slice(0, index) === name) return part.slice(index + 1);
  }
  return null;
}

function cookieAttributes(maxAge: number, httpOnly: boolean): string {
  return `Max-Age=${maxAge}; Path=/; SameSite=Lax${httpOnly ? "; HttpOnly" : ""}${getEnv().secureCookies ? "; Secure" : ""}`;
}

function setGuestCookies(headers: Headers, token: string): void {
  headers.append("Set-Cookie", `${GUEST_CART_COOKIE}=${token}; ${cookieAttributes(GUEST_CART_MAX_AGE, true)}`);
  headers.append("Set-Cookie", `${CART_HINT_COOKIE}=1; ${cookieAttributes(GUEST_CART_MAX_AGE, false)}`);
}

function clearGuestCookies(headers: Headers): void {
  headers.append("Set-Cookie", `${GUEST_CART_COOKIE}=; ${cookieAttributes(0, true)}`);
  headers.append("Set-Cookie", `${CART_HINT_COOKIE}=; ${cookieAttributes(0, false)}`);
}

export interface CartRequest {
  owner: CartOwner | null;
  user: SessionUser | null;
  /** Set-Cookie lines to send back (a new guest cookie, or clearing it after a merge). */
  headers: Headers;
  /** What the merge changed, to show once. */
  notices: string[];
}

/**
 * Who owns the cart of this request; merges a guest cart into the account's when a signed-in
 * request still carries the guest cookie. With `create`, a guest without a cart gets a new token.
 */
export async function resolveCartOwner(meta: RequestMeta, options: { create?: boolean } = {}): Promise<CartRequest | { refused: string; headers: Headers }> {
  const headers = new Headers();
  const user = await getSessionUser(meta);
  const cookie = readCookie(meta.request, GUEST_CART_COOKIE);
  const token = cookie && TOKEN_PATTERN.test(cookie) ? cookie : null;
  if (user) {
    const notices = token ? await mergeGuestCart(token, user.id) : [];
    if (cookie !== null) clearGuestCookies(headers);
    return { owner: { kind: "user", userId: user.id }, user, headers, notices };
  }
  if (token) return { owner: { kind: "guest", token }, user: null, headers, notices: [] };
  if (!options.create) return { owner: null, user: null, headers, notices: [] };
  const limit = await consumeRateLimit(`cart-new:${meta.ip || "desconocida"}`, NEW_GUEST_CART_RULE);
  if (!limit.allowed) return { refused: rateLimitMessage(limit), headers };
  const fresh = randomBytes(32).toString("base64url");
  setGuestCookies(headers, fresh);
  return { owner: { kind: "guest", token: fresh }, user: null, headers, notices: [] };
}

function readFlash(meta: RequestMeta, headers: Headers): CartNotice | null {
  const raw = readCookie(meta.request, FLASH_COOKIE);
  if (raw === null) return null;
  headers.append("Set-Cookie", `${FLASH_COOKIE}=; ${cookieAttributes(0, true)}`);
  try {
    const value = JSON.parse(decodeURIComponent(raw)) as Partial<CartNotice>;
    return typeof value.message === "string" ? { ok: value.ok !== false, message: value.message.slice(0, 500) } : null;
  } catch {
    return null;
  }
}

function writeFlash(headers: Headers, notice: CartNotice): void {
  // Path=/ so that the page's data request (/carrito.data) carries it too.
  headers.append("Set-Cookie", `${FLASH_COOKIE}=${encodeURIComponent(JSON.stringify(notice))}; ${cookieAttributes(60, true)}`);
}

export interface CartPage {
  cart: CartView;
  flash: CartNotice | null;
  signedIn: boolean;
  headers: Headers;
}

/** /carrito: the cart priced now, plus the message of the last cart action. */
export async function getCartPage(meta: RequestMeta): Promise<CartPage> {
  const resolved = await resolveCartOwner(meta);
  if ("refused" in resolved) throw new Error("unreachable: reading never creates a cart");
  const flash = readFlash(meta, resolved.headers);
  const cart = resolved.owner ? await loadCart(resolved.owner) : { lines: [], totals: EMPTY_TOTALS, quantity: 0, notices: [] };
  cart.notices.unshift(...resolved.notices);
  return { cart, flash, signedIn: !!resolved.user, headers: resolved.headers };
}

/** GET /api/carrito: the header's count. */
export async function getCartSummary(meta: RequestMeta): Promise<{ quantity: number; headers: Headers }> {
  const resolved = await resolveCartOwner(meta);
  if ("refused" in resolved || !resolved.owner) return { quantity: 0, headers: resolved.headers };
  // What the merge changed is shown on the next visit to /carrito.
  if (resolved.notices.length) writeFlash(resolved.headers, { ok: true, message: resolved.notices.join(" ") });
  return { quantity: await countCartItems(resolved.owner), headers: resolved.headers };
}

/**
 * The cart forms (agregar from a product page; actualizar and quitar on /carrito). Always answers
 * with Set-Cookie headers carrying the outcome for the /carrito page (post → redirect → get).
 */
export async function handleCartAction(meta: RequestMeta, formData: FormData): Promise<{ ok: boolean; headers: Headers }> {
  const parsed = CartActionSchema.safeParse(Object.fromEntries(formData));
  if (!parsed.success) {
    const headers = new Headers();
    writeFlash(headers, { ok: false, message: parsed.error.issues[0]?.message ?? "No entendimos ese cambio al carrito." });
    return { ok: false, headers };
  }
  const action = parsed.data;
  const resolved = await resolveCartOwner(meta, { create: action.intent === "agregar" });
  if ("refused" in resolved) {
    writeFlash(resolved.headers, { ok: false, message: resolved.refused });
    return { ok: false, headers: resolved.headers };
  }
  const { owner, headers } = resolved;
  const result: CartCommandResult = !owner
    ? { ok: false, message: "Su carrito está vacío." }
    : action.intent === "agregar"
      ? await addToCart(owner, action.productId, action.quantity)
      : action.intent === "actualizar"
        ? await setCartItemQuantity(owner, action.productId, action.quantity)
        : await removeFromCart(owner, action.productId);
  writeFlash(headers, { ok: result.ok, message: [...resolved.notices, result.message].join(" ") });
  return { ok: result.ok, headers };
}

/** Lines in a cart (for tests and the checkout's "nothing to buy" check). */
export async function countCartLines(owner: CartOwner): Promise<number> {
  const cartId = await findCartId(owner);
  if (!cartId) return 0;
  const [row] = await getDb().select({ lines: count() }).from(cartItems).where(eq(cartItems.cartId, cartId));
  return row?.lines ?? 0;
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
