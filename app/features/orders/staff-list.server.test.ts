import fs from "node:fs";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

// The staff's table of orders on a real database: filters by status, Mexico City days and search.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("staff-orders"));

import { getDb } from "~/db/client.server";
import { user } from "~/db/schema/auth";
import { products } from "~/db/schema/catalogue";
import { carts, orders } from "~/db/schema/orders";
import { outbox } from "~/db/schema/outbox";
import { counters } from "~/db/schema/numbering";
import { parseOrderFilters } from "./filters";
import { allowedTransitions } from "./states";
import { getOrderDetail } from "./staff-detail.server";
import { listOrders } from "./staff-list.server";
import { closeTestDatabase, createTestDatabase } from "../../../tests/support/test-database";
import type { CartOwner } from "./cart.server";
import { addToCart } from "./cart-commands.server";
import { issueCheckoutToken } from "./checkout.server";
import { placeOrder } from "./place-order.server";
import { changeOrderStatus, type StaffActor } from "./status-commands.server";
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
    expect(detail && allowedTransitions(detail.order)).toEqual(["en_preparacion", "cancelado"]);
    expect(await getOrderDetail("nada")).toBeNull();
  });
});
