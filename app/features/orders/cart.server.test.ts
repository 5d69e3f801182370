import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";

// The server-side cart on a real database: bounds (stock, minimum order), prices recomputed at
// read time and the guest → account merge. The cookie flow is in http.server.test.ts.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("cart"));

import { getDb } from "~/db/client.server";
import { products } from "~/db/schema/catalogue";
import { carts } from "~/db/schema/orders";
import { registeredCustomer } from "../../../tests/support/auth-requests";
import { aProduct, clearBeforeEach, guest } from "../../../tests/support/orders-fixtures";
import { useTestFileDatabase } from "../../../tests/support/test-file-database";
import { failureMessages, type Result } from "~/lib/result";
import { countCartItems, hashCartToken, loadCart, type CartOwner } from "./cart.server";
import { addToCart, removeFromCart, setCartItemQuantity } from "./cart-commands.server";
import { mergeGuestCart } from "./cart-merge.server";

let customer: { id: string; cookie: string };
useTestFileDatabase(dataDir, async () => {
  customer = await registeredCustomer("Compradora Carrito", `carrito-${process.pid}@ejemplo.mx`, "Carrito-Prueba-1");
});
clearBeforeEach([carts, products]);

/** A command's Result as { ok, message }: the sentence the person sees either way. */
const outcome = (result: Result<{ message: string }>) => (result.ok ? { ok: true, message: result.value.message } : { ok: false, message: failureMessages(result).formErrors.join(" ") });

const user = (): CartOwner => ({ kind: "user", userId: customer.id });

describe("cart bounds", () => {
  it("adds, sums and stops at the stock with a Spanish message", async () => {
    const product = await aProduct({ name: "Escuadra de acero 2\"", stock: 5 });
    const owner = guest();
    expect(outcome(await addToCart(owner, product.id, 3))).toEqual({ ok: true, message: "Agregamos 3 piezas de «Escuadra de acero 2\"» a su carrito." });
    const capped = outcome(await addToCart(owner, product.id, 4));
    expect(capped.message).toBe("Solo quedan 5 piezas de «Escuadra de acero 2\"» en existencia; su carrito tiene 5 piezas.");
    expect((await loadCart(owner)).lines[0]?.quantity).toBe(5);
  });

  it("raises a line to the minimum order", async () => {
    const product = await aProduct({ name: "Tornillo M6", unit: "juego", minOrder: 10, stock: 100 });
    const owner = guest();
    expect(outcome(await addToCart(owner, product.id, 2)).message).toMatch(/pedido mínimo de «Tornillo M6» es de 10 juegos/);
    expect(outcome(await setCartItemQuantity(owner, product.id, 4)).message).toMatch(/pedido mínimo/);
    expect((await loadCart(owner)).lines[0]?.quantity).toBe(10);
  });

  it("refuses withdrawn and sold-out products", async () => {
    const withdrawn = await aProduct({ active: false });
    const soldOut = await aProduct({ name: "Brida ciega", stock: 0 });
    const belowMinimum = await aProduct({ name: "Placa base", stock: 3, minOrder: 5 });
    const owner = guest();
    expect(outcome(await addToCart(owner, withdrawn.id, 1))).toEqual({ ok: false, message: "Ese producto ya no está a la venta." });
    expect(outcome(await addToCart(owner, soldOut.id, 1)).message).toMatch(/«Brida ciega» está agotado/);
    expect(outcome(await addToCart(owner, belowMinimum.id, 5)).ok).toBe(false);
    expect((await loadCart(owner)).lines).toEqual([]);
  });

  it("updates to the stock at most and removes at 0 or with quitar", async () => {
    const product = await aProduct({ stock: 7 });
    const other = await aProduct();
    const owner = guest();
    await addToCart(owner, product.id, 1);
    await addToCart(owner, other.id, 1);
    expect(outcome(await setCartItemQuantity(owner, product.id, 50)).message).toMatch(/Solo quedan 7 piezas .* dejamos 7 piezas/);
    expect(outcome(await setCartItemQuantity(owner, product.id, 0)).message).toMatch(/Quitamos/);
    expect(outcome(await removeFromCart(owner, other.id)).message).toMatch(/Quitamos «Pieza \d+»/);
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
    // $123.45 net is shown as $143.20 with IVA; 4 × $143.20 = $572.80, of which $493.79 net ($572.80 ÷ 1.16 = 493.793…) and $79.01 IVA
    expect(cart.lines[0]).toMatchObject({ quantity: 4, unitPriceCentavos: 12_345, unitPriceWithIvaCentavos: 14_320, totalCentavos: 57_280, netCentavos: 49_379, ivaCentavos: 7_901 });
    expect(cart.totals).toEqual({ subtotalCentavos: 49_379, ivaCentavos: 7_901, totalCentavos: 57_280 });
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

    const result = await mergeGuestCart({ guestToken: (owner as { token: string }).token, userId: customer.id });
    const notices = result.ok ? result.value : null;
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
    expect(await mergeGuestCart({ guestToken: (owner as { token: string }).token, userId: customer.id })).toEqual({ ok: true, value: [] });
    expect((await loadCart(user())).quantity).toBe(7);
  });
});
