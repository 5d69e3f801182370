import fs from "node:fs";
import { randomBytes } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

// The order workflow and who may see what, on a real database.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("orders"));

import { getDb } from "~/db/client.server";
import { user } from "~/db/schema/auth";
import { products } from "~/db/schema/catalogue";
import { carts, orderEvents, orders } from "~/db/schema/orders";
import { outbox } from "~/db/schema/outbox";
import { counters } from "~/db/schema/numbering";
import { confirmEmail, registerCustomer } from "~/features/accounts/accounts.server";
import { nextTestIp, requestMeta } from "../../../tests/support/auth-requests";
import { closeTestDatabase, createTestDatabase } from "../../../tests/support/test-database";
import { addToCart, type CartOwner } from "./cart.server";
import { issueCheckoutToken, placeOrder } from "./checkout.server";
import { linkOrdersToUser } from "./link.server";
import {
  allowedTransitions,
  changeOrderStatus,
  getCustomerOrder,
  getOrderDetail,
  grantOrderAccess,
  grantedOrderNumbers,
  listCustomerOrders,
  listOrders,
  parseOrderFilters,
  type StaffActor,
} from "./orders.server";
import { CheckoutSchema } from "./forms";

let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
const alice = `alice-${process.pid}`;
const bruno = `bruno-${process.pid}`;
const staff: StaffActor = { id: `staff-${process.pid}`, name: "Laura Méndez" };

beforeAll(async () => {
  database = await createTestDatabase();
  await getDb()
    .insert(user)
    .values([
      { id: alice, name: "Alicia Torres", email: `alicia-${process.pid}@ejemplo.mx`, role: "customer" },
      { id: bruno, name: "Bruno Salas", email: `bruno-${process.pid}@ejemplo.mx`, role: "customer" },
      { id: staff.id, name: staff.name, email: `laura-${process.pid}@forja.mx`, role: "admin" },
    ]);
});

afterAll(async () => {
  await closeTestDatabase(database);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

beforeEach(async () => {
  const db = getDb();
  await db.delete(orders);
  await db.delete(carts);
  await db.delete(products);
  await db.delete(outbox);
  await db.delete(counters);
});

let sequence = 0;
async function aProduct(overrides: Partial<typeof products.$inferInsert> = {}) {
  sequence += 1;
  const [row] = await getDb()
    .insert(products)
    .values({ slug: `p-${sequence}`, sku: `SKU-${sequence}`, name: `Pieza ${sequence}`, category: "soportes", shortDescription: "Prueba", priceCentavos: 10_000, stock: 10, ...overrides })
    .returning();
  return row!;
}

interface OrderOptions {
  userId?: string | null;
  quantity?: number;
  values?: Record<string, unknown>;
  now?: Date;
}

async function anOrder(productId: string, options: OrderOptions = {}) {
  const owner: CartOwner = options.userId ? { kind: "user", userId: options.userId } : { kind: "guest", token: randomBytes(32).toString("base64url") };
  await addToCart(owner, productId, options.quantity ?? 1);
  const checkout = CheckoutSchema.parse({ name: "Alicia Torres", email: "alicia@empresa.mx", phone: "5512345678", delivery: "recoger", paymentMethod: "spei", ...options.values });
  const result = await placeOrder({ owner, userId: options.userId ?? null, checkout, checkoutToken: issueCheckoutToken(), now: options.now });
  if (!result.ok) throw new Error(result.message);
  return result;
}

const stockOf = async (id: string) => (await getDb().select({ stock: products.stock }).from(products).where(eq(products.id, id)))[0]!.stock;
const SHIPPING = { delivery: "envio", calle: "Calle 5", numero: "10", colonia: "Centro", codigoPostal: "64000", municipio: "Monterrey", estado: "Nuevo León" };

describe("changeOrderStatus", () => {
  it("walks an envío order to entregado, recording who and when and emailing each step", async () => {
    const product = await aProduct();
    const order = await anOrder(product.id, { values: SHIPPING });
    for (const to of ["pagado", "en_preparacion", "enviado", "entregado"] as const) {
      const result = await changeOrderStatus({ orderId: order.orderId, to, actor: staff, note: to === "enviado" ? "Guía 123456 de Estafeta" : null });
      expect(result).toMatchObject({ ok: true, status: to });
    }
    const events = await getDb().select().from(orderEvents).where(eq(orderEvents.orderId, order.orderId)).orderBy(asc(orderEvents.createdAt));
    expect(events.map((event) => [event.fromStatus, event.toStatus, event.actorName])).toEqual([
      [null, "pendiente_pago", "Alicia Torres"],
      ["pendiente_pago", "pagado", "Laura Méndez"],
      ["pagado", "en_preparacion", "Laura Méndez"],
      ["en_preparacion", "enviado", "Laura Méndez"],
      ["enviado", "entregado", "Laura Méndez"],
    ]);
    expect(events[3]!.actorId).toBe(staff.id);
    expect(events[3]!.note).toBe("Guía 123456 de Estafeta");
    const mail = await getDb().select({ subject: outbox.subject, text: outbox.text }).from(outbox).where(eq(outbox.to, "alicia@empresa.mx"));
    expect(mail.map((message) => message.subject)).toEqual(
      expect.arrayContaining([
        `Pedido ${order.number}: Pagado`,
        `Pedido ${order.number}: En preparación`,
        `Pedido ${order.number}: Enviado`,
        `Pedido ${order.number}: Entregado`,
      ]),
    );
    expect(mail.find((message) => message.subject.endsWith("Enviado"))?.text).toContain("Guía 123456 de Estafeta");
  });

  it("cancels and returns the stock, once", async () => {
    const product = await aProduct({ stock: 10 });
    const order = await anOrder(product.id, { quantity: 4 });
    expect(await stockOf(product.id)).toBe(6);
    await changeOrderStatus({ orderId: order.orderId, to: "pagado", actor: staff });
    const cancelled = await changeOrderStatus({ orderId: order.orderId, to: "cancelado", actor: staff, note: "El cliente lo pidió" });
    expect(cancelled).toMatchObject({ ok: true, message: expect.stringMatching(/inventario regresó/) });
    expect(await stockOf(product.id)).toBe(10);
    // A second cancel (another tab) is refused and returns nothing more.
    expect(await changeOrderStatus({ orderId: order.orderId, to: "cancelado", actor: staff })).toEqual({ ok: false, status: 409, message: "El pedido ya está «Cancelado»." });
    expect(await stockOf(product.id)).toBe(10);
    const mail = await getDb().select({ subject: outbox.subject }).from(outbox).where(eq(outbox.subject, `Pedido ${order.number}: Cancelado`));
    expect(mail).toHaveLength(1);
  });

  it("refuses illegal moves in Spanish and records nothing", async () => {
    const product = await aProduct({ stock: 10 });
    const pickup = await anOrder(product.id);
    const refusals = [
      [pickup.orderId, "enviado", "Un pedido «Pendiente de pago» no puede pasar a «Enviado». Puede pasar a: «Pagado», «Cancelado»."],
      [pickup.orderId, "entregado", "Un pedido «Pendiente de pago» no puede pasar a «Entregado». Puede pasar a: «Pagado», «Cancelado»."],
      [pickup.orderId, "pendiente_pago", "El pedido ya está «Pendiente de pago»."],
    ] as const;
    for (const [orderId, to, message] of refusals) {
      expect(await changeOrderStatus({ orderId, to, actor: staff })).toEqual({ ok: false, status: 409, message });
    }
    await changeOrderStatus({ orderId: pickup.orderId, to: "pagado", actor: staff });
    await changeOrderStatus({ orderId: pickup.orderId, to: "en_preparacion", actor: staff });
    expect(await changeOrderStatus({ orderId: pickup.orderId, to: "enviado", actor: staff })).toMatchObject({ ok: false, message: expect.stringMatching(/se recoge en planta/) });
    await changeOrderStatus({ orderId: pickup.orderId, to: "listo_para_recoger", actor: staff });
    expect(await changeOrderStatus({ orderId: pickup.orderId, to: "cancelado", actor: staff })).toMatchObject({ ok: false, message: "Un pedido «Listo para recoger» ya no se puede cancelar." });
    await changeOrderStatus({ orderId: pickup.orderId, to: "entregado", actor: staff });
    expect(await changeOrderStatus({ orderId: pickup.orderId, to: "pagado", actor: staff })).toMatchObject({ ok: false, message: "El pedido está «Entregado» y ya no admite cambios de estado." });
    expect(await stockOf(product.id)).toBe(9);
    expect(await getDb().select().from(orderEvents).where(eq(orderEvents.orderId, pickup.orderId))).toHaveLength(5);

    expect(await changeOrderStatus({ orderId: "no-es-un-id", to: "pagado", actor: staff })).toMatchObject({ ok: false, status: 404 });
  });

  it("lets a pay-at-pickup order be prepared before it is paid", () => {
    expect(allowedTransitions({ status: "pendiente_pago", delivery: "recoger", paymentMethod: "recoger" })).toEqual(["pagado", "en_preparacion", "cancelado"]);
    expect(allowedTransitions({ status: "en_preparacion", delivery: "envio", paymentMethod: "spei" })).toEqual(["enviado", "cancelado"]);
    expect(allowedTransitions({ status: "cancelado", delivery: "envio", paymentMethod: "spei" })).toEqual([]);
  });
});

describe("authorization", () => {
  it("shows a customer only their own orders; another customer's order is null", async () => {
    const product = await aProduct({ stock: 20 });
    const alices = await anOrder(product.id, { userId: alice });
    const brunos = await anOrder(product.id, { userId: bruno });
    const guests = await anOrder(product.id);

    expect((await getCustomerOrder(alices.number, { userId: alice, grantedNumbers: [] }))?.order.id).toBe(alices.orderId);
    expect(await getCustomerOrder(brunos.number, { userId: alice, grantedNumbers: [] })).toBeNull();
    expect(await getCustomerOrder(alices.number, { userId: null, grantedNumbers: [] })).toBeNull();
    // A guest order is the placing browser's only; an account's order needs that account, even with the cookie.
    expect(await getCustomerOrder(guests.number, { userId: alice, grantedNumbers: [] })).toBeNull();
    expect((await getCustomerOrder(guests.number, { userId: null, grantedNumbers: [guests.number] }))?.order.id).toBe(guests.orderId);
    expect(await getCustomerOrder(alices.number, { userId: bruno, grantedNumbers: [alices.number] })).toBeNull();
    expect(await getCustomerOrder("PED-2026-9999", { userId: alice, grantedNumbers: [] })).toBeNull();
    expect(await getCustomerOrder("'; drop table orders; --", { userId: alice, grantedNumbers: [] })).toBeNull();

    expect((await listCustomerOrders(alice)).map((row) => row.number)).toEqual([alices.number]);
    expect((await listCustomerOrders(bruno)).map((row) => row.number)).toEqual([brunos.number]);
  });

  it("trusts only order numbers it signed itself", () => {
    const granted = grantOrderAccess(requestMeta("/checkout"), "PED-2026-0007");
    const cookie = granted.getSetCookie()[0]!.split(";")[0]!;
    expect(granted.getSetCookie()[0]).toMatch(/HttpOnly; SameSite=Lax/);
    expect(grantedOrderNumbers(new Request("http://localhost/", { headers: { cookie } }))).toEqual(["PED-2026-0007"]);
    const forged = cookie.replace("PED-2026-0007", "PED-2026-0008");
    expect(grantedOrderNumbers(new Request("http://localhost/", { headers: { cookie: forged } }))).toEqual([]);
    // Grants accumulate, newest first.
    const more = grantOrderAccess(requestMeta("/checkout", { cookie }), "PED-2026-0009").getSetCookie()[0]!.split(";")[0]!;
    expect(grantedOrderNumbers(new Request("http://localhost/", { headers: { cookie: more } }))).toEqual(["PED-2026-0009", "PED-2026-0007"]);
  });
});

describe("guest orders and accounts", () => {
  it("a guest order joins the account that confirms its email, and only once the email is confirmed", async () => {
    const product = await aProduct({ stock: 20 });
    const email = `invitada-${process.pid}@ejemplo.mx`;
    const guest = await anOrder(product.id, { values: { email } });
    const someoneElse = await anOrder(product.id, { values: { email: "otra.persona@ejemplo.mx" } });

    const registered = await registerCustomer(requestMeta("/registro", { ip: nextTestIp(), method: "POST" }), {
      name: "Invitada Nueva",
      email: email.toUpperCase(),
      password: "Fresadora-CNC-42",
    });
    if (!registered.ok) throw new Error(registered.message);
    const userId = registered.value.id;
    // Anyone can type an email at registration: nothing joins before it is confirmed.
    expect(await listCustomerOrders(userId)).toEqual([]);
    expect(await getCustomerOrder(guest.number, { userId, grantedNumbers: [] })).toBeNull();

    const [confirmation] = (await getDb().select().from(outbox)).filter((mail) => mail.subject === "Confirme su correo en Forja");
    const token = decodeURIComponent(confirmation!.text.match(/\/cuenta\/confirmar\?token=([^\s"'<>&]+)/)![1]!);
    const confirmed = await confirmEmail(requestMeta(`/cuenta/confirmar?token=${encodeURIComponent(token)}`, { ip: nextTestIp() }), token);
    expect(confirmed.ok).toBe(true);

    expect((await listCustomerOrders(userId)).map((row) => row.number)).toEqual([guest.number]);
    expect((await getCustomerOrder(guest.number, { userId, grantedNumbers: [] }))?.order.id).toBe(guest.orderId);
    // Now the account's: the placing browser's cookie alone no longer opens it.
    expect(await getCustomerOrder(guest.number, { userId: null, grantedNumbers: [guest.number] })).toBeNull();
    expect(await getCustomerOrder(someoneElse.number, { userId, grantedNumbers: [] })).toBeNull();
  });

  it("linkOrdersToUser matches the email in any case and leaves orders another account owns", async () => {
    const product = await aProduct({ stock: 20 });
    const upper = await anOrder(product.id, { values: { email: "Compras@Planta.MX" } });
    const brunos = await anOrder(product.id, { userId: bruno, values: { email: "compras@planta.mx" } });
    expect(await linkOrdersToUser(alice, "compras@planta.mx")).toBe(1);
    expect((await listCustomerOrders(alice)).map((row) => row.number)).toEqual([upper.number]);
    expect((await listCustomerOrders(bruno)).map((row) => row.number)).toEqual([brunos.number]);
    expect(await linkOrdersToUser(alice, "COMPRAS@PLANTA.MX")).toBe(0);
  });
});

describe("listOrders", () => {
  it("filters by status, date range (Mexico City days) and search on number, name, email and RFC", async () => {
    const product = await aProduct({ stock: 50 });
    const march = await anOrder(product.id, { now: new Date("2026-03-02T05:30:00Z"), values: { name: "Carlos Peña", email: "compras@acme.mx" } }); // 1 Mar, 23:30 in CDMX
    const april = await anOrder(product.id, {
      now: new Date("2026-04-15T17:00:00Z"),
      values: { requiereFactura: true, rfc: "EKU9003173C9", razonSocial: "ESCUELA KEMPER URGATE", regimenFiscal: "601", usoCfdi: "G03", codigoPostalFiscal: "26015" },
    });
    await changeOrderStatus({ orderId: april.orderId, to: "pagado", actor: staff });

    const numbers = async (query: string) => (await listOrders(parseOrderFilters(new URLSearchParams(query)))).rows.map((row) => row.number);
    expect(await numbers("")).toEqual([april.number, march.number]);
    expect(await numbers("estado=pagado")).toEqual([april.number]);
    expect(await numbers("estado=pendiente_pago")).toEqual([march.number]);
    expect(await numbers("desde=2026-03-01&hasta=2026-03-01")).toEqual([march.number]);
    expect(await numbers("desde=2026-03-02")).toEqual([april.number]);
    expect(await numbers("q=eku9003")).toEqual([april.number]);
    expect(await numbers("q=Peña")).toEqual([march.number]);
    expect(await numbers("q=acme.mx")).toEqual([march.number]);
    expect(await numbers(`q=${march.number}`)).toEqual([march.number]);
    expect(await numbers("q=100%25")).toEqual([]);
    // Junk in the URL is ignored rather than failing the page.
    expect(await numbers("estado=perdido&desde=ayer&pagina=-3")).toEqual([april.number, march.number]);
    const listed = await listOrders(parseOrderFilters(new URLSearchParams("")));
    expect(listed).toMatchObject({ total: 2, pages: 1 });
    expect(listed.rows[0]).toMatchObject({ rfc: "EKU9003173C9", status: "pagado" });

    const detail = await getOrderDetail(april.orderId);
    expect(detail?.allowed.map((entry) => entry.value)).toEqual(["en_preparacion", "cancelado"]);
    expect(await getOrderDetail("nada")).toBeNull();
  });
});
