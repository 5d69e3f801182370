import { describe, expect, it, vi } from "vitest";

// The /checkout page and form through its route, with real Requests and cookies: the guard, the
// parse, placing the order and who may open its confirmation. The transaction itself is tested in
// place-order.server.test.ts.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("checkout", { unset: ["SPEI_CLABE", "SPEI_BANK", "SPEI_BENEFICIARY"] }));

import { getDb } from "~/db/client.server";
import { billingProfiles, orders } from "~/db/schema/orders";
import { cookieHeaderFrom, nextTestIp, requestMeta } from "../../../tests/support/auth-requests";
import { aProduct, routeArgs as args, clearBeforeEach, CONTACT, guest, insertCheckoutCustomer, ORDER_TABLES } from "../../../tests/support/orders-fixtures";
import { useTestFileDatabase } from "../../../tests/support/test-file-database";
import { action as checkoutAction, loader as checkoutLoader } from "~/routes/checkout/checkout";
import { addToCart } from "./cart-commands.server";
import { CHECKOUT_FORM, issueCheckoutToken } from "./checkout.server";
import { getOrderConfirmation } from "./customer-orders.server";
import { orderViewer } from "./http.server";

useTestFileDatabase(dataDir, insertCheckoutCustomer);
clearBeforeEach([...ORDER_TABLES, billingProfiles]);

/** The action's answer: a placed order is a thrown redirect to its confirmation; a refusal is data with a status. */
async function submit(form: Record<string, string>, options: { cookie: string; ip?: string }) {
  try {
    const answer = (await checkoutAction(args("/checkout", { ...options, form }))) as unknown as {
      data: { result: { error?: Record<string, string[]>; initialValue?: Record<string, unknown> }; formToken: string };
      init?: { status?: number };
    };
    return { ok: false as const, status: answer.init?.status ?? 200, result: answer.data.result, formToken: answer.data.formToken };
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    const number = thrown.headers.get("location")?.match(/^\/checkout\/confirmacion\/(PED-\d{4}-\d{4,})$/)?.[1];
    return { ok: true as const, status: thrown.status, number, headers: thrown.headers };
  }
}

describe("the /checkout requests", () => {
  it("places a guest order from the form, and only that browser can open its confirmation", async () => {
    const product = await aProduct({ name: "Gabinete de lámina", stock: 3 });
    const owner = guest();
    await addToCart(owner, product.id, 1);
    const cookie = `forja_carrito=${(owner as { token: string }).token}`;

    const page = ((await checkoutLoader(args("/checkout", { cookie }))) as unknown as { data: { cart: { lines: unknown[]; totals: { totalCentavos: number } }; formToken: string } }).data;
    expect(page.cart.lines).toHaveLength(1);
    expect(page.formToken.startsWith(`${CHECKOUT_FORM}.`)).toBe(true);

    const values = { ...CONTACT, delivery: "recoger", paymentMethod: "recoger", formToken: page.formToken, expectedTotal: String(page.cart.totals.totalCentavos) };
    const result = await submit(values, { cookie, ip: nextTestIp() });
    expect(result).toMatchObject({ ok: true, number: "PED-2026-0001" });
    if (!result.ok) return;

    const browser = `${cookie}; ${cookieHeaderFrom(result.headers)}`;
    const viewerOf = (cookieHeader?: string) => orderViewer(requestMeta("/checkout/confirmacion/PED-2026-0001", { cookie: cookieHeader }));
    const confirmation = await getOrderConfirmation("PED-2026-0001", await viewerOf(browser));
    expect(confirmation?.order).toMatchObject({ number: "PED-2026-0001", paymentMethod: "recoger" });
    expect(confirmation?.payment).toBeNull();
    expect(await getOrderConfirmation("PED-2026-0001", await viewerOf(cookie))).toBeNull();
    expect(await getOrderConfirmation("PED-2026-0001", await viewerOf())).toBeNull();

    // The same page submitted again shows the same order.
    const again = await submit(values, { cookie, ip: nextTestIp() });
    expect(again).toMatchObject({ ok: true, number: "PED-2026-0001" });
    expect(await getDb().select({ id: orders.id }).from(orders)).toHaveLength(1);
  });

  it("keeps the person's values with Spanish errors, and refuses a tampered token", async () => {
    const product = await aProduct();
    const owner = guest();
    await addToCart(owner, product.id, 1);
    const cookie = `forja_carrito=${(owner as { token: string }).token}`;
    const formToken = issueCheckoutToken();

    const invalid = await submit({ ...CONTACT, email: "ana", delivery: "envio", paymentMethod: "spei", formToken }, { cookie });
    expect(invalid).toMatchObject({ ok: false, status: 400 });
    if (invalid.ok) return;
    expect(invalid.result.error?.email?.[0]).toMatch(/correo válido/);
    expect(invalid.result.error?.calle?.[0]).toBe("Escriba la calle.");
    expect(invalid.result.initialValue?.name).toBe("Ana Ruiz");

    const tampered = await submit({ ...CONTACT, delivery: "recoger", paymentMethod: "spei", formToken: `${formToken}x` }, { cookie });
    expect(tampered).toMatchObject({ ok: false, status: 400 });
    if (!tampered.ok) expect(tampered.result.error?.[""]?.[0]).toMatch(/caducó/);
    expect(await getDb().select().from(orders)).toEqual([]);
  });
});
