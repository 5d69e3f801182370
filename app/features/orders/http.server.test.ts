import { describe, expect, it, vi } from "vitest";

// The orders feature's HTTP adapter through the cart routes, with real Requests, sessions and
// cookies: the guest cart cookie (only its hash stored), the merge at the next signed-in read, the
// flash of the last cart action, and the signed cookie that opens a guest's own orders.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("orders-http"));

import { getDb } from "~/db/client.server";
import { products } from "~/db/schema/catalogue";
import { carts } from "~/db/schema/orders";
import { loader as cartCountLoader } from "~/routes/api/carrito";
import { action as cartAction, loader as cartLoader } from "~/routes/checkout/carrito";
import { cookieHeaderFrom, nextTestIp, registeredCustomer, requestMeta } from "../../../tests/support/auth-requests";
import { aProduct, routeArgs as args, clearBeforeEach, guest } from "../../../tests/support/orders-fixtures";
import { useTestFileDatabase } from "../../../tests/support/test-file-database";
import { hashCartToken } from "./cart.server";
import { addToCart } from "./cart-commands.server";
import { CART_HINT_COOKIE, GUEST_CART_COOKIE, grantOrderAccess, grantedOrderNumbers, type CartNotice } from "./http.server";

let customer: { id: string; cookie: string };
useTestFileDatabase(dataDir, async () => {
  customer = await registeredCustomer("Compradora Carrito", `carrito-http-${process.pid}@ejemplo.mx`, "Carrito-Prueba-1");
});
clearBeforeEach([carts, products]);

/** POST /carrito: always a redirect back to /carrito carrying the cookies it set. */
async function postCart(form: Record<string, string>, options: { cookie?: string; ip?: string } = {}): Promise<Response> {
  try {
    await cartAction(args("/carrito", { ...options, form }));
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
  throw new Error("expected the cart action to redirect");
}

/** The outcome written for the next /carrito page. */
function flashOf(headers: Headers): CartNotice | null {
  const line = headers.getSetCookie().find((cookie) => cookie.startsWith("forja_carrito_aviso=") && !cookie.startsWith("forja_carrito_aviso=;"));
  return line ? (JSON.parse(decodeURIComponent(line.split(";")[0]!.split("=")[1]!)) as CartNotice) : null;
}

async function cartPage(cookie?: string) {
  const answer = (await cartLoader(args("/carrito", { cookie }))) as unknown as {
    data: { cart: { lines: { name: string; quantity: number }[] }; flash: CartNotice | null; signedIn: boolean };
  };
  return answer.data;
}

describe("requests and cookies", () => {
  it("gives a guest an httpOnly cookie that stores only a hash, and merges it at the next signed-in read", async () => {
    const product = await aProduct({ name: "Placa de montaje", stock: 8 });
    const added = await postCart({ intent: "agregar", productId: product.id, quantity: "2" }, { ip: nextTestIp() });
    expect(added.headers.get("location")).toBe("/carrito");
    expect(flashOf(added.headers)?.ok).toBe(true);
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
    const page = await cartPage(guestCookie);
    expect(page.flash).toEqual({ ok: true, message: "Agregamos 2 piezas de «Placa de montaje» a su carrito." });
    expect(page.cart.lines.map((line) => line.quantity)).toEqual([2]);
    expect(page.signedIn).toBe(false);

    // Another guest (no cookie) sees nothing.
    expect((await cartPage()).cart.lines).toEqual([]);

    // The customer signs in on the same browser: the count merges and clears the guest cookies.
    const summary = await cartCountLoader(args("/api/carrito", { cookie: `${guestCookie}; ${customer.cookie}` }));
    expect(((await summary.json()) as { data: { quantity: number } }).data.quantity).toBe(2);
    const cleared = summary.headers.getSetCookie();
    expect(cleared.some((line) => line.startsWith(`${GUEST_CART_COOKIE}=;`) && /Max-Age=0/.test(line))).toBe(true);
    expect(cleared.some((line) => line.startsWith(`${CART_HINT_COOKIE}=;`) && /Max-Age=0/.test(line))).toBe(true);
    const accountPage = await cartPage(customer.cookie);
    expect(accountPage.signedIn).toBe(true);
    expect(accountPage.cart.lines.map((line) => [line.name, line.quantity])).toEqual([["Placa de montaje", 2]]);
  });

  it("answers a bad form with a flash message and no cart", async () => {
    const result = await postCart({ intent: "agregar", productId: "no-es-un-id" });
    expect(flashOf(result.headers)?.ok).toBe(false);
    expect(result.headers.getSetCookie().some((line) => line.startsWith(`${GUEST_CART_COOKIE}=`))).toBe(false);
    const page = await cartPage(cookieHeaderFrom(result.headers));
    expect(page.flash).toEqual({ ok: false, message: "Ese producto no existe." });
  });

  it("never reads a cart from a forged cookie value", async () => {
    const product = await aProduct();
    const owner = guest();
    await addToCart(owner, product.id, 1);
    const page = await cartPage(`${GUEST_CART_COOKIE}=${hashCartToken((owner as { token: string }).token)}`);
    expect(page.cart.lines).toEqual([]);
  });
});

describe("order access", () => {
  it("trusts only order numbers it signed itself", () => {
    const granted = grantOrderAccess(requestMeta("/checkout").request, "PED-2026-0007");
    const cookie = granted.getSetCookie()[0]!.split(";")[0]!;
    expect(granted.getSetCookie()[0]).toMatch(/HttpOnly; SameSite=Lax/);
    expect(grantedOrderNumbers(new Request("http://localhost/", { headers: { cookie } }))).toEqual(["PED-2026-0007"]);
    const forged = cookie.replace("PED-2026-0007", "PED-2026-0008");
    expect(grantedOrderNumbers(new Request("http://localhost/", { headers: { cookie: forged } }))).toEqual([]);
    // Grants accumulate, newest first.
    const more = grantOrderAccess(requestMeta("/checkout", { cookie }).request, "PED-2026-0009").getSetCookie()[0]!.split(";")[0]!;
    expect(grantedOrderNumbers(new Request("http://localhost/", { headers: { cookie: more } }))).toEqual(["PED-2026-0009", "PED-2026-0007"]);
  });
});
