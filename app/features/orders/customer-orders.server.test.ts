import fs from "node:fs";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

// Who may see which order, on a real database: a customer only their own; a guest order only
// the placing browser, until the account with its email is confirmed.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("customer-orders"));

import { getDb } from "~/db/client.server";
import { user } from "~/db/schema/auth";
import { products } from "~/db/schema/catalogue";
import { carts, orders } from "~/db/schema/orders";
import { outbox } from "~/db/schema/outbox";
import { counters } from "~/db/schema/numbering";
import { failureMessages } from "~/lib/result";
import { nextTestIp, requestMeta } from "../../../tests/support/auth-requests";
import { confirmEmail } from "~/features/accounts/email-confirmation.server";
import { registerCustomer } from "~/features/accounts/registration.server";
import { getCustomerOrder, listCustomerOrders } from "./customer-orders.server";
import { linkOrdersToUser } from "./link.server";
import { closeTestDatabase, createTestDatabase } from "../../../tests/support/test-database";
import type { CartOwner } from "./cart.server";
import { addToCart } from "./cart-commands.server";
import { issueCheckoutToken } from "./checkout.server";
import { placeOrder } from "./place-order.server";
import { type StaffActor } from "./status-commands.server";
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
    if (!registered.ok) throw new Error(failureMessages(registered).formErrors.join(" "));
    const userId = registered.value.user.id;
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
