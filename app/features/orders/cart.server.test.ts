import fs from "node:fs";
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

// The server-side cart on a real database: bounds (stock, minimum order), prices recomputed at
// read time, the guest → account merge, and the cookie flow through real requests and sessions.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("cart"));

import { getDb } from "~/db/client.server";
import { products } from "~/db/schema/catalogue";
import { carts } from "~/db/schema/orders";
import { registerCustomer } from "~/features/accounts/accounts.server";
import { cookieHeaderFrom, nextTestIp, requestMeta } from "../../../tests/support/auth-requests";
import { closeTestDatabase, createTestDatabase } from "../../../tests/support/test-database";
import {
  CART_HINT_COOKIE,
  GUEST_CART_COOKIE,
  addToCart,
  countCartItems,
  getCartPage,
  getCartSummary,
  handleCartAction,
  hashCartToken,
  loadCart,
  mergeGuestCart,
  removeFromCart,
  setCartItemQuantity,
  type CartOwner,
} from "./cart.server";

let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
let customer: { id: string; cookie: string };

beforeAll(async () => {
  database = await createTestDatabase();
  const registered = await registerCustomer(requestMeta("/registro", { ip: nextTestIp() }), {
    name: "Compradora Carrito",
    email: `carrito-${process.pid}@ejemplo.mx`,
    password: "Carrito-Prueba-1",
  });
  if (!registered.ok) throw new Error(registered.message);
  customer = { id: registered.value.id, cookie: cookieHeaderFrom(registered.headers) };
});

afterAll(async () => {
  await closeTestDatabase(database);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

beforeEach(async () => {
  await getDb().delete(carts);
  await getDb().delete(products);
});

let sequence = 0;
async function aProduct(overrides: Partial<typeof products.$inferInsert> = {}) {
  sequence += 1;
  const [row] = await getDb()
    .insert(products)
    .values({
      slug: `pieza-${sequence}`,
      sku: `SKU-${sequence}`,
      name: `Pieza ${sequence}`,
      category: "soportes",
      shortDescription: "Pieza de prueba",
      priceCentavos: 10_000,
      stock: 10,
      ...overrides,
    })
    .returning();
  return row!;
}

const guest = (): CartOwner => ({ kind: "guest", token: randomBytes(32).toString("base64url") });
const user = (): CartOwner => ({ kind: "user", userId: customer.id });

describe("cart bounds", () => {
  it("adds, sums and stops at the stock with a Spanish message", async () => {
    const product = await aProduct({ name: "Escuadra de acero 2\"", stock: 5 });
    const owner = guest();
    expect(await addToCart(owner, product.id, 3)).toEqual({ ok: true, message: "Agregamos 3 piezas de «Escuadra de acero 2\"» a su carrito." });
    const capped = await addToCart(owner, product.id, 4);
    expect(capped.message).toBe("Solo quedan 5 piezas de «Escuadra de acero 2\"» en existencia; su carrito tiene 5 piezas.");
    expect((await loadCart(owner)).lines[0]?.quantity).toBe(5);
  });

  it("raises a line to the minimum order", async () => {
    const product = await aProduct({ name: "Tornillo M6", unit: "juego", minOrder: 10, stock: 100 });
    const owner = guest();
    expect((await addToCart(owner, product.id, 2)).message).toMatch(/pedido mínimo de «Tornillo M6» es de 10 juegos/);
    expect((await setCartItemQuantity(owner, product.id, 4)).message).toMatch(/pedido mínimo/);
    expect((await loadCart(owner)).lines[0]?.quantity).toBe(10);
  });

  it("refuses withdrawn and sold-out products", async () => {
    const withdrawn = await aProduct({ active: false });
    const soldOut = await aProduct({ name: "Brida ciega", stock: 0 });
    const belowMinimum = await aProduct({ name: "Placa base", stock: 3, minOrder: 5 });
    const owner = guest();
    expect(await addToCart(owner, withdrawn.id, 1)).toEqual({ ok: false, message: "Ese producto ya no está a la venta." });
    expect((await addToCart(owner, soldOut.id, 1)).message).toMatch(/«Brida ciega» está agotado/);
    expect((await addToCart(owner, belowMinimum.id, 5)).ok).toBe(false);
    expect((await loadCart(owner)).lines).toEqual([]);
  });

  it("updates to the stock at most and removes at 0 or with quitar", async () => {
    const product = await aProduct({ stock: 7 });
    const other = await aProduct();
    const owner = guest();
    await addToCart(owner, product.id, 1);
    await addToCart(owner, other.id, 1);
    expect((await setCartItemQuantity(owner, product.id, 50)).message).toMatch(/Solo quedan 7 piezas .* dejamos 7 piezas/);
    expect((await setCartItemQuantity(owner, product.id, 0)).message).toMatch(/Quitamos/);
    expect((await removeFromCart(owner, other.id)).message).toMatch(/Quitamos «Pieza \d+»/);
    expect((await loadCart(owner)).lines).toEqual([]);
  });

  it("re-prices and re-bounds at every read, saying what changed", async () => {
    const product = await aProduct({ name: "Buje de bronce", priceCentavos: 10_000, stock: 20 });
    const gone = await aProduct({ name: "Guarda de policarbonato" });
    const owner = guest();
    await addToCart(owner, product.id, 12);
    await addToCart(owner, gone.id, 1);
    await getDb().update(products).set({ stock: 4, priceCentavos: 12_345 }).where(eq(products.id, product.id));
    await getDb().update(products).set({ active: false }).where(eq(products.id, gone.id));

    const cart = await loadCart(owner);
    expect(cart.notices).toEqual([
      "Solo quedan 4 piezas de «Buje de bronce»; ajustamos la cantidad de su carrito.",
      "«Guarda de policarbonato» ya no está a la venta; lo quitamos de su carrito.",
    ]);
    expect(cart.lines).toHaveLength(1);
    // 4 × $123.45 = $493.80; IVA 16 % = $79.008 → $79.01
    expect(cart.lines[0]).toMatchObject({ quantity: 4, unitPriceCentavos: 12_345, unitPriceWithIvaCentavos: 14_320, netCentavos: 49_380, ivaCentavos: 7_901 });
    expect(cart.totals).toEqual({ subtotalCentavos: 49_380, ivaCentavos: 7_901, totalCentavos: 57_281 });
    // The adjustment was saved: the next read has nothing new to say.
    expect((await loadCart(owner)).notices).toEqual([]);
    expect(await countCartItems(owner)).toBe(4);
  });
});

describe("mergeGuestCart", () => {
  it("sums into the account's cart, bounded by stock, and deletes the guest cart", async () => {
    const shared = await aProduct({ name: "Soporte en L", stock: 5 });
    const onlyGuest = await aProduct({ name: "Gabinete", stock: 3 });
    const withdrawn = await aProduct({ name: "Carcasa" });
    const owner = guest();
    await addToCart(user(), shared.id, 4);
    await addToCart(owner, shared.id, 3);
    await addToCart(owner, onlyGuest.id, 2);
    await addToCart(owner, withdrawn.id, 1);
    await getDb().update(products).set({ active: false }).where(eq(products.id, withdrawn.id));

    const notices = await mergeGuestCart((owner as { token: string }).token, customer.id);
    expect(notices).toEqual([
      "Solo quedan 5 piezas de «Soporte en L»; su carrito tiene 5 piezas.",
      "«Carcasa» ya no está a la venta; lo quitamos de su carrito.",
    ]);
    const merged = await loadCart(user());
    expect(merged.lines.map((line) => [line.name, line.quantity])).toEqual([
      ["Soporte en L", 5],
      ["Gabinete", 2],
    ]);
    const guestRows = await getDb().select().from(carts).where(eq(carts.guestTokenHash, hashCartToken((owner as { token: string }).token)));
    expect(guestRows).toEqual([]);
    // Running it again (a second request with the same cookie) changes nothing.
    expect(await mergeGuestCart((owner as { token: string }).token, customer.id)).toEqual([]);
    expect((await loadCart(user())).quantity).toBe(7);
  });
});

describe("requests and cookies", () => {
  const form = (values: Record<string, string>) => {
    const data = new FormData();
    for (const [key, value] of Object.entries(values)) data.set(key, value);
    return data;
  };

  it("gives a guest an httpOnly cookie that stores only a hash, and merges it at the next signed-in read", async () => {
    const product = await aProduct({ name: "Placa de montaje", stock: 8 });
    const added = await handleCartAction(requestMeta("/carrito", { method: "POST", ip: nextTestIp() }), form({ intent: "agregar", productId: product.id, quantity: "2" }));
    expect(added.ok).toBe(true);
    const setCookies = added.headers.getSetCookie();
    const tokenCookie = setCookies.find((line) => line.startsWith(`${GUEST_CART_COOKIE}=`))!;
    expect(tokenCookie).toMatch(/HttpOnly/);
    expect(tokenCookie).toMatch(/SameSite=Lax/);
    expect(setCookies.find((line) => line.startsWith(`${CART_HINT_COOKIE}=1`))).not.toMatch(/HttpOnly/);
    const token = tokenCookie.split(";")[0]!.split("=")[1]!;
    const stored = await getDb().select({ hash: carts.guestTokenHash }).from(carts);
    expect(stored).toEqual([{ hash: hashCartToken(token) }]);
    expect(JSON.stringify(stored)).not.toContain(token);

    const guestCookie = cookieHeaderFrom(added.headers);
    const page = await getCartPage(requestMeta("/carrito", { cookie: guestCookie }));
    expect(page.flash).toEqual({ ok: true, message: "Agregamos 2 piezas de «Placa de montaje» a su carrito." });
    expect(page.cart.lines.map((line) => line.quantity)).toEqual([2]);
    expect(page.signedIn).toBe(false);

    // Another guest (no cookie) sees nothing.
    expect((await getCartPage(requestMeta("/carrito"))).cart.lines).toEqual([]);

    // The customer signs in on the same browser: the count merges and clears the guest cookies.
    const summary = await getCartSummary(requestMeta("/api/carrito", { cookie: `${guestCookie}; ${customer.cookie}` }));
    expect(summary.quantity).toBe(2);
    const cleared = summary.headers.getSetCookie();
    expect(cleared.some((line) => line.startsWith(`${GUEST_CART_COOKIE}=;`) && /Max-Age=0/.test(line))).toBe(true);
    expect(cleared.some((line) => line.startsWith(`${CART_HINT_COOKIE}=;`) && /Max-Age=0/.test(line))).toBe(true);
    const accountPage = await getCartPage(requestMeta("/carrito", { cookie: customer.cookie }));
    expect(accountPage.signedIn).toBe(true);
    expect(accountPage.cart.lines.map((line) => [line.name, line.quantity])).toEqual([["Placa de montaje", 2]]);
  });

  it("answers a bad form with a flash message and no cart", async () => {
    const result = await handleCartAction(requestMeta("/carrito", { method: "POST" }), form({ intent: "agregar", productId: "no-es-un-id" }));
    expect(result.ok).toBe(false);
    expect(result.headers.getSetCookie().some((line) => line.startsWith(`${GUEST_CART_COOKIE}=`))).toBe(false);
    const page = await getCartPage(requestMeta("/carrito", { cookie: cookieHeaderFrom(result.headers) }));
    expect(page.flash).toEqual({ ok: false, message: "Ese producto no existe." });
  });

  it("never reads a cart from a forged cookie value", async () => {
    const product = await aProduct();
    const owner = guest();
    await addToCart(owner, product.id, 1);
    const page = await getCartPage(requestMeta("/carrito", { cookie: `${GUEST_CART_COOKIE}=${hashCartToken((owner as { token: string }).token)}` }));
    expect(page.cart.lines).toEqual([]);
  });
});
