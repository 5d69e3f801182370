import { asc, eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";

// Placing orders on a real database: the single transaction (number, stock, lines, event, emails,
// CFDI data, empty cart), refusals that change nothing, the one-time token, and 50 buyers racing
// for 10 pieces.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("checkout", { unset: ["SPEI_CLABE", "SPEI_BANK", "SPEI_BENEFICIARY"] }));

import { getDb } from "~/db/client.server";
import { products } from "~/db/schema/catalogue";
import { billingProfiles, cartItems, orderEvents, orderItems, orders } from "~/db/schema/orders";
import { outbox } from "~/db/schema/outbox";
import { counters } from "~/db/schema/numbering";
import {
  aProduct,
  checkoutCustomerId as customerId,
  clearBeforeEach,
  CONTACT,
  guest,
  insertCheckoutCustomer,
  ORDER_TABLES,
  stockOf,
} from "../../../tests/support/orders-fixtures";
import { useTestFileDatabase } from "../../../tests/support/test-file-database";
import { countCartLines, type CartOwner } from "./cart.server";
import { addToCart } from "./cart-commands.server";
import { getBillingProfile, issueCheckoutToken } from "./checkout.server";
import { placeOrder } from "./place-order.server";
import { paymentReferenceFor } from "./payment-config";
import { CheckoutSchema } from "./forms";

useTestFileDatabase(dataDir, insertCheckoutCustomer);
clearBeforeEach([...ORDER_TABLES, billingProfiles]);

const NOW = new Date("2026-03-10T18:00:00Z");
const token = () => issueCheckoutToken();

const INVOICE = { requiereFactura: true, rfc: "EKU9003173C9", razonSocial: "ESCUELA KEMPER URGATE", regimenFiscal: "601", usoCfdi: "G01", codigoPostalFiscal: "26015" };
const SHIPPING = { delivery: "envio", calle: "Av. Constituyentes", numero: "120", colonia: "El Carrizal", codigoPostal: "76030", municipio: "Querétaro", estado: "Querétaro" };

function checkout(values: Record<string, unknown> = {}) {
  return CheckoutSchema.parse({ ...CONTACT, delivery: "recoger", paymentMethod: "spei", ...values });
}

describe("placeOrder", () => {
  it("creates PED-YYYY-0001 in one transaction: stock, lines, totals, event, emails, CFDI data, empty cart", async () => {
    const bracket = await aProduct({ name: "Soporte en L", sku: "SOP-L-001", priceCentavos: 12_345, stock: 10 });
    const bushing = await aProduct({ name: "Buje de bronce", sku: "BUJ-050", unit: "pieza", priceCentavos: 3_333, stock: 40 });
    const owner: CartOwner = { kind: "user", userId: customerId };
    await addToCart(owner, bracket.id, 2);
    await addToCart(owner, bushing.id, 3);

    const result = await placeOrder({ owner, userId: customerId, checkout: checkout({ ...SHIPPING, ...INVOICE }), checkoutToken: token(), now: NOW });
    expect(result).toMatchObject({ ok: true, number: "PED-2026-0001", duplicate: false });
    if (!result.ok) return;

    expect(await stockOf(bracket.id)).toBe(8);
    expect(await stockOf(bushing.id)).toBe(37);
    const [order] = await getDb().select().from(orders).where(eq(orders.id, result.orderId));
    // Shown with IVA: $123.45 net → $143.20, $33.33 net → $38.66. 2 × $143.20 = $286.40 ($246.90 net + $39.50 IVA);
    // 3 × $38.66 = $115.98 ($99.98 net + $16.00 IVA). Total $402.38 = what the customer saw × quantities.
    expect(order).toMatchObject({
      number: "PED-2026-0001",
      userId: customerId,
      status: "pendiente_pago",
      delivery: "envio",
      paymentMethod: "spei",
      paymentReference: paymentReferenceFor("PED-2026-0001"),
      subtotalCentavos: 34_688,
      ivaCentavos: 5_550,
      totalCentavos: 40_238,
      address: { calle: "Av. Constituyentes", numero: "120", colonia: "El Carrizal", codigoPostal: "76030", municipio: "Querétaro", estado: "Querétaro" },
      invoice: { rfc: "EKU9003173C9", razonSocial: "ESCUELA KEMPER URGATE", regimenFiscal: "601", usoCfdi: "G01", codigoPostal: "26015" },
    });
    const items = await getDb().select().from(orderItems).where(eq(orderItems.orderId, result.orderId)).orderBy(asc(orderItems.sku));
    expect(items.map((item) => [item.sku, item.quantity, item.unitPriceCentavos, item.ivaBp, item.netCentavos, item.ivaCentavos])).toEqual([
      ["BUJ-050", 3, 3_333, 1600, 9_998, 1_600],
      ["SOP-L-001", 2, 12_345, 1600, 24_690, 3_950],
    ]);
    const events = await getDb().select().from(orderEvents).where(eq(orderEvents.orderId, result.orderId));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ fromStatus: null, toStatus: "pendiente_pago", actorId: customerId, actorName: "Ana Ruiz" });

    const mail = await getDb().select().from(outbox).orderBy(asc(outbox.createdAt));
    const toCustomer = mail.find((message) => message.to === "ana@empresa.mx")!;
    expect(toCustomer.subject).toBe("Pedido PED-2026-0001 recibido");
    expect(toCustomer.text).toContain("012 180 00123456789 9");
    expect(toCustomer.text).toContain("BBVA México");
    expect(toCustomer.text).toContain("Forja Diseño y Manufactura, S.A. de C.V.");
    expect(toCustomer.text).toContain(`referencia ${paymentReferenceFor("PED-2026-0001")}`);
    expect(toCustomer.text).toMatch(/Subtotal: \$346\.88 · IVA: \$55\.50 · Total: \$402\.38/);
    expect(toCustomer.html).toContain("012 180 00123456789 9");
    expect(mail.some((message) => message.to === "ventas@forja.example" && message.subject.startsWith("[PED-2026-0001]"))).toBe(true);

    expect(await getBillingProfile(customerId)).toEqual({ rfc: "EKU9003173C9", razonSocial: "ESCUELA KEMPER URGATE", regimenFiscal: "601", usoCfdi: "G01", codigoPostal: "26015" });
    expect(await countCartLines(owner)).toBe(0);

    // The next order takes the next number.
    const second = guest();
    await addToCart(second, bracket.id, 1);
    expect(await placeOrder({ owner: second, userId: null, checkout: checkout(), checkoutToken: token(), now: NOW })).toMatchObject({ ok: true, number: "PED-2026-0002" });
  });

  it("tells the customer of a home delivery that shipping is not in the total and is paid apart; a pickup order's email does not", async () => {
    const product = await aProduct({ name: "Placa base", sku: "PLA-200", priceCentavos: 10_000, stock: 10 });
    const shipped = guest();
    await addToCart(shipped, product.id, 2);
    expect(await placeOrder({ owner: shipped, userId: null, checkout: checkout({ ...SHIPPING, email: "envio@empresa.mx" }), checkoutToken: token(), now: NOW })).toMatchObject({ ok: true, number: "PED-2026-0001" });
    const pickedUp = guest();
    await addToCart(pickedUp, product.id, 1);
    expect(await placeOrder({ owner: pickedUp, userId: null, checkout: checkout({ email: "recoge@empresa.mx" }), checkoutToken: token(), now: NOW })).toMatchObject({ ok: true, number: "PED-2026-0002" });

    const mail = await getDb().select().from(outbox).orderBy(asc(outbox.createdAt));
    const shippedMail = mail.find((message) => message.to === "envio@empresa.mx")!;
    // 2 × $116.00 = $232.00 to transfer now; the shipping comes by email and is paid apart.
    expect(shippedMail.text).toContain("Pague por transferencia SPEI $232.00 a:");
    expect(shippedMail.text).toContain("El total de $232.00 no incluye el envío. Le enviaremos por correo el costo del envío y la paquetería.");
    expect(shippedMail.text).toContain("Transfiera ahora solo el total del pedido; el envío se paga aparte, una vez que le confirmemos su costo.");
    expect(shippedMail.html).toContain("no incluye el envío");
    const staffMail = mail.find((message) => message.subject.startsWith("[PED-2026-0001]"))!;
    expect(staffMail.text).toContain("Envío por cotizar: escriba al cliente el costo del envío y la paquetería; lo paga aparte del total.");

    const pickupMail = mail.find((message) => message.to === "recoge@empresa.mx")!;
    expect(pickupMail.text).toContain("Pague por transferencia SPEI $116.00 a:");
    expect(pickupMail.text).not.toContain("no incluye el envío");
    expect(pickupMail.text).not.toContain("se paga aparte");
    expect(mail.find((message) => message.subject.startsWith("[PED-2026-0002]"))!.text).not.toContain("Envío por cotizar");
  });

  it("refuses insufficient stock naming the item, and changes nothing", async () => {
    const plentiful = await aProduct({ name: "Placa de aluminio", stock: 50 });
    const scarce = await aProduct({ name: "Brida maquinada 4\"", stock: 8 });
    const owner = guest();
    await addToCart(owner, plentiful.id, 5);
    await addToCart(owner, scarce.id, 6);
    // Someone else bought most of them after this cart was filled.
    await getDb().update(products).set({ stock: 3 }).where(eq(products.id, scarce.id));

    const result = await placeOrder({ owner, userId: null, checkout: checkout(), checkoutToken: token(), now: NOW });
    expect(result).toEqual({ ok: false, reason: "stock", message: "Solo quedan 3 piezas de «Brida maquinada 4\"». Ajuste la cantidad en su carrito para continuar; no se apartó nada." });
    expect(await stockOf(plentiful.id)).toBe(50);
    expect(await stockOf(scarce.id)).toBe(3);
    expect(await getDb().select().from(orders)).toEqual([]);
    expect(await getDb().select().from(outbox)).toEqual([]);
    expect(await getDb().select().from(counters)).toEqual([]);
    expect(await countCartLines(owner)).toBe(2);

    // One piece left and withdrawn products get their own wording.
    await getDb().update(products).set({ stock: 1 }).where(eq(products.id, scarce.id));
    expect((await placeOrder({ owner, userId: null, checkout: checkout(), checkoutToken: token() })).ok === false).toBe(true);
    await getDb().update(products).set({ active: false }).where(eq(products.id, scarce.id));
    const withdrawn = await placeOrder({ owner, userId: null, checkout: checkout(), checkoutToken: token() });
    expect(withdrawn).toMatchObject({ ok: false, message: expect.stringMatching(/«Brida maquinada 4"» ya no está a la venta/) });
  });

  it("refuses an empty cart and a total that changed since the page was shown", async () => {
    expect(await placeOrder({ owner: guest(), userId: null, checkout: checkout(), checkoutToken: token() })).toMatchObject({ ok: false, reason: "empty" });
    const product = await aProduct({ priceCentavos: 10_000, stock: 5 });
    const owner = guest();
    await addToCart(owner, product.id, 1);
    const changed = await placeOrder({ owner, userId: null, checkout: checkout({ expectedTotal: 10_000 }), checkoutToken: token() });
    expect(changed).toMatchObject({ ok: false, reason: "price", message: expect.stringMatching(/cambió a \$116\.00 con IVA/) });
    expect(await stockOf(product.id)).toBe(5);
    expect(await placeOrder({ owner, userId: null, checkout: checkout({ expectedTotal: 11_600 }), checkoutToken: token() })).toMatchObject({ ok: true });
  });

  it("creates nothing new on a second submit of the same checkout", async () => {
    const product = await aProduct({ stock: 10 });
    const owner = guest();
    await addToCart(owner, product.id, 4);
    const once = token();
    const first = await placeOrder({ owner, userId: null, checkout: checkout(), checkoutToken: once, now: NOW });
    // The person goes back and adds more, then the old page is submitted again.
    await addToCart(owner, product.id, 1);
    const again = await placeOrder({ owner, userId: null, checkout: checkout(), checkoutToken: once, now: NOW });
    expect(first).toMatchObject({ ok: true, duplicate: false, number: "PED-2026-0001" });
    expect(again).toMatchObject({ ok: true, duplicate: true, number: "PED-2026-0001" });
    // Both at once: one order.
    const twice = token();
    const [a, b] = await Promise.all([
      placeOrder({ owner, userId: null, checkout: checkout(), checkoutToken: twice, now: NOW }),
      placeOrder({ owner, userId: null, checkout: checkout(), checkoutToken: twice, now: NOW }),
    ]);
    expect(a).toMatchObject({ ok: true, number: "PED-2026-0002" });
    expect(b).toMatchObject({ ok: true, number: "PED-2026-0002" });
    expect([a, b].filter((result) => result.ok && result.duplicate)).toHaveLength(1);
    expect(await getDb().select({ id: orders.id }).from(orders)).toHaveLength(2);
    expect(await stockOf(product.id)).toBe(5);
  });

  it("places one order when two tabs submit the same cart with different tokens", async () => {
    const product = await aProduct({ stock: 10 });
    const owner = guest();
    await addToCart(owner, product.id, 2);
    const results = await Promise.all([
      placeOrder({ owner, userId: null, checkout: checkout(), checkoutToken: token(), now: NOW }),
      placeOrder({ owner, userId: null, checkout: checkout(), checkoutToken: token(), now: NOW }),
    ]);
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(results.find((result) => !result.ok)).toMatchObject({ reason: "empty" });
    expect(await stockOf(product.id)).toBe(8);
  });

  it("sells exactly the stock when 50 buyers check out at once: 10 orders, stock 0, 40 refusals", async () => {
    const product = await aProduct({ name: "Escuadra reforzada", stock: 10 });
    const owners = Array.from({ length: 50 }, guest);
    for (const owner of owners) expect((await addToCart(owner, product.id, 1)).ok).toBe(true);

    const results = await Promise.all(owners.map((owner) => placeOrder({ owner, userId: null, checkout: checkout(), checkoutToken: token(), now: NOW })));

    const placed = results.filter((result) => result.ok);
    const refused = results.filter((result) => !result.ok);
    expect(placed).toHaveLength(10);
    expect(refused).toHaveLength(40);
    for (const result of refused) {
      expect(result).toMatchObject({ reason: "stock", message: "Ya no quedan piezas de «Escuadra reforzada»: se agotó mientras completaba su pedido. Quítelo de su carrito para continuar; no se apartó nada." });
    }
    expect(await stockOf(product.id)).toBe(0);
    const numbers = (await getDb().select({ number: orders.number }).from(orders)).map((row) => row.number).sort();
    expect(numbers).toEqual(Array.from({ length: 10 }, (_, index) => `PED-2026-${String(index + 1).padStart(4, "0")}`));
    const sold = await getDb().select({ quantity: orderItems.quantity }).from(orderItems);
    expect(sold.reduce((sum, row) => sum + row.quantity, 0)).toBe(10);
    // The 40 refused carts still hold their line; the 10 buyers' carts are empty.
    expect(await getDb().select().from(cartItems)).toHaveLength(40);
  });
});
