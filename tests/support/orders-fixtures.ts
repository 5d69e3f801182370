import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { RouterContextProvider } from "react-router";
import { beforeEach } from "vitest";
import { getDb } from "~/db/client.server";
import { user } from "~/db/schema/auth";
import { products } from "~/db/schema/catalogue";
import { counters } from "~/db/schema/numbering";
import { carts, orders } from "~/db/schema/orders";
import { outbox } from "~/db/schema/outbox";
import type { CartOwner } from "~/features/orders/cart.server";
import { addToCart } from "~/features/orders/cart-commands.server";
import { issueCheckoutToken } from "~/features/orders/checkout.server";
import { CheckoutSchema } from "~/features/orders/forms";
import { placeOrder } from "~/features/orders/place-order.server";
import type { StaffActor } from "~/features/orders/status-commands.server";
import { clientIpContext } from "~/lib/request-context";

// The kit of the orders feature's integration tests (app/features/orders/*.server.test.ts): the
// people orders belong to, products and orders made through the feature's own commands, the tables
// emptied before each test, and loader/action arguments for the cart and checkout routes.
// Each test file still sets its environment and database itself: `vi.hoisted` + isolateTestEnv,
// then useTestFileDatabase (tests/support/test-file-database.ts) with one of the seeds below.

/** Two customers and a staff member, inserted by insertOrderPeople. */
export const alice = `alice-${process.pid}`;
export const bruno = `bruno-${process.pid}`;
export const staff: StaffActor = { id: `staff-${process.pid}`, name: "Laura Méndez" };

export async function insertOrderPeople(): Promise<void> {
  await getDb()
    .insert(user)
    .values([
      { id: alice, name: "Alicia Torres", email: `alicia-${process.pid}@ejemplo.mx`, role: "customer" },
      { id: bruno, name: "Bruno Salas", email: `bruno-${process.pid}@ejemplo.mx`, role: "customer" },
      { id: staff.id, name: staff.name, email: `laura-${process.pid}@forja.mx`, role: "admin" },
    ]);
}

/** The signed-in customer of the checkout tests (a confirmed email), inserted by insertCheckoutCustomer. */
export const checkoutCustomerId = `cliente-checkout-${process.pid}`;

export async function insertCheckoutCustomer(): Promise<void> {
  await getDb().insert(user).values({ id: checkoutCustomerId, name: "Ana Ruiz", email: `ana-${process.pid}@ejemplo.mx`, role: "customer", emailVerified: true });
}

/** The checkout form's contact fields. */
export const CONTACT = { name: "Ana Ruiz", email: "ana@empresa.mx", phone: "4421234567" };

/** What a test may leave behind in the orders feature, in an order the foreign keys allow deleting. */
export const ORDER_TABLES: PgTable[] = [orders, carts, products, outbox, counters];

/** Empties these tables (in this order) before each test of the calling file. */
export function clearBeforeEach(tables: PgTable[] = ORDER_TABLES): void {
  beforeEach(async () => {
    const db = getDb();
    for (const table of tables) await db.delete(table);
  });
}

let sequence = 0;

/** An active product with 10 in stock at $100.00 plus IVA, unless overridden. */
export async function aProduct(overrides: Partial<typeof products.$inferInsert> = {}) {
  sequence += 1;
  const [row] = await getDb()
    .insert(products)
    .values({ slug: `p-${sequence}`, sku: `SKU-${sequence}`, name: `Pieza ${sequence}`, category: "soportes", shortDescription: "Prueba", priceCentavos: 10_000, stock: 10, ...overrides })
    .returning();
  return row!;
}

export async function stockOf(id: string): Promise<number> {
  const [row] = await getDb().select({ stock: products.stock }).from(products).where(eq(products.id, id));
  return row!.stock;
}

/** A new browser without an account: a guest cart of its own. */
export const guest = (): CartOwner => ({ kind: "guest", token: randomBytes(32).toString("base64url") });

export interface OrderOptions {
  userId?: string | null;
  quantity?: number;
  values?: Record<string, unknown>;
  now?: Date;
}

/** An order of one product placed through the cart and checkout (a guest's unless `userId`); throws if refused. */
export async function anOrder(productId: string, options: OrderOptions = {}) {
  const owner: CartOwner = options.userId ? { kind: "user", userId: options.userId } : guest();
  await addToCart(owner, productId, options.quantity ?? 1);
  const checkout = CheckoutSchema.parse({ name: "Alicia Torres", email: "alicia@empresa.mx", phone: "5512345678", delivery: "recoger", paymentMethod: "spei", ...options.values });
  const result = await placeOrder({ owner, userId: options.userId ?? null, checkout, checkoutToken: issueCheckoutToken(), now: options.now });
  if (!result.ok) throw new Error(result.message);
  return result;
}

/** Loader/action arguments the way React Router passes them: a real Request, the client IP in the context. */
export function routeArgs(path: string, options: { cookie?: string; ip?: string; form?: Record<string, string> } = {}) {
  const context = new RouterContextProvider();
  context.set(clientIpContext, options.ip ?? "127.0.0.1");
  const headers: Record<string, string> = { "user-agent": "vitest" };
  if (options.cookie) headers.cookie = options.cookie;
  const url = `http://localhost${path}`;
  const request = options.form ? new Request(url, { method: "POST", headers, body: new URLSearchParams(options.form) }) : new Request(url, { headers });
  return { request, context, params: {}, unstable_pattern: "" } as never;
}
