import { describe, expect, it, vi } from "vitest";

// Orders as the record API's `pedidos` collection, through the engine, on a real database with
// orders placed through the cart and checkout: staff see every order, a customer their account's
// (the rule of /cuenta/pedidos), a guest none; totals in pesos with IVA as the pages show them.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("orders-records"));

import { failureStatus, type Result } from "~/lib/result";
import type { RecordAuth } from "~/services/records/collection.server";
import { listRecords, viewRecord, type RecordJson } from "~/services/records/records.server";
import { alice, anOrder, aProduct, bruno, clearBeforeEach, insertOrderPeople, staff } from "../../../tests/support/orders-fixtures";
import { useTestFileDatabase } from "../../../tests/support/test-file-database";
import { listCustomerOrders } from "./customer-orders.server";
import { pedidosCollection } from "./record-collection.server";
import { changeOrderStatus } from "./status-commands.server";

useTestFileDatabase(dataDir, insertOrderPeople);
clearBeforeEach();

const COLLECTIONS = [pedidosCollection];
const STAFF: RecordAuth = { collection: "_superusers", id: staff.id };
const ALICE: RecordAuth = { collection: "users", id: alice };
const BRUNO: RecordAuth = { collection: "users", id: bruno };
const PB_DATE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const list = async (query: Record<string, string>, auth: RecordAuth) => {
  const result = await listRecords(COLLECTIONS, "pedidos", new URLSearchParams(query), auth);
  if (!result.ok) throw new Error(JSON.stringify(result));
  return result.value;
};
const numbers = async (query: Record<string, string>, auth: RecordAuth) => (await list({ sort: "numero", ...query }, auth)).items.map((item) => item.numero);
const view = (id: string, auth: RecordAuth): Promise<Result<RecordJson>> => viewRecord(COLLECTIONS, "pedidos", id, new URLSearchParams(), auth);
const statusOf = (result: Result<unknown>) => (result.ok ? 200 : failureStatus(result));

/** Alice's order of 3 pieces at $123.45 + IVA, Bruno's of 1 at $100 + IVA, and a guest's. */
async function scene() {
  const product = await aProduct({ stock: 20, priceCentavos: 12_345 });
  const cheap = await aProduct({ stock: 20 });
  const alices = await anOrder(product.id, { userId: alice, quantity: 3 });
  const brunos = await anOrder(cheap.id, { userId: bruno });
  const guests = await anOrder(cheap.id);
  return { alices, brunos, guests };
}

describe("pedidos", () => {
  it("reads an order as a record: number, status, total in pesos with IVA as /cuenta/pedidos shows it, owner", async () => {
    const { alices } = await scene();
    const result = await view(alices.orderId, ALICE);
    expect(result).toEqual({
      ok: true,
      value: {
        collectionId: "pbc_pedidos",
        collectionName: "pedidos",
        id: alices.orderId,
        created: expect.stringMatching(PB_DATE),
        updated: expect.stringMatching(PB_DATE),
        numero: alices.number,
        estado: "pendiente_pago",
        // $123.45 net is shown as $143.20 with IVA; 3 × $143.20 = $429.60
        total: 429.6,
        cliente: alice,
      },
    });
    const [page] = await listCustomerOrders(alice);
    expect(page!.totalCentavos / 100).toBe(429.6);
  });

  it("shows staff every order, guests' included", async () => {
    const { alices, brunos, guests } = await scene();
    expect(await numbers({}, STAFF)).toEqual([alices.number, brunos.number, guests.number].sort());
    expect(await view(guests.orderId, STAFF)).toMatchObject({ ok: true, value: { cliente: "", total: 116 } });
    expect(await numbers({ filter: "cliente = ''" }, STAFF)).toEqual([guests.number]);
  });

  it("shows a customer only their account's orders, whatever the filter; another's is 404", async () => {
    const { alices, brunos, guests } = await scene();
    expect(await numbers({}, ALICE)).toEqual([alices.number]);
    expect((await list({}, ALICE)).totalItems).toBe(1);
    expect(await numbers({ filter: "cliente != '' || cliente = ''" }, ALICE)).toEqual([alices.number]);
    expect(await numbers({ filter: `id = '${brunos.orderId}' || id = '${guests.orderId}'` }, ALICE)).toEqual([]);
    expect(await numbers({ filter: `cliente = '${bruno}'` }, ALICE)).toEqual([]);
    expect(statusOf(await view(brunos.orderId, ALICE))).toBe(404);
    expect(statusOf(await view(guests.orderId, ALICE))).toBe(404);
    expect(await numbers({}, BRUNO)).toEqual([brunos.number]);
    expect((await listCustomerOrders(alice)).map((row) => row.number)).toEqual(await numbers({}, ALICE));
  });

  it("shows a guest nothing: an empty list and 404 for a record, even for a guest order", async () => {
    const { guests } = await scene();
    expect(await list({ filter: "numero != ''" }, null)).toMatchObject({ totalItems: 0, totalPages: 0, items: [] });
    expect(statusOf(await view(guests.orderId, null))).toBe(404);
  });

  it("refuses filters and sorts on fields not listed (400), and filters and sorts on listed ones", async () => {
    const { alices, brunos, guests } = await scene();
    for (const filter of ["email != ''", "phone != ''", "paymentReference != ''", "payment_reference ~ 'a'", "checkoutToken != ''", "checkout_token != ''", "invoice != ''", "address != ''", "user_id != ''"]) {
      expect(statusOf(await listRecords(COLLECTIONS, "pedidos", new URLSearchParams({ filter }), STAFF))).toBe(400);
    }
    expect(statusOf(await listRecords(COLLECTIONS, "pedidos", new URLSearchParams({ sort: "checkoutToken" }), STAFF))).toBe(400);
    expect((await list({ sort: "-total,numero" }, STAFF)).items.map((item) => item.numero)).toEqual([alices.number, ...[brunos.number, guests.number].sort()]);
    expect(await numbers({ filter: "total > 400" }, STAFF)).toEqual([alices.number]);
    const moved = await changeOrderStatus({ orderId: brunos.orderId, to: "pagado", actor: staff });
    expect(moved.ok).toBe(true);
    expect(await numbers({ filter: "estado = 'pagado'" }, STAFF)).toEqual([brunos.number]);
    expect(await numbers({ filter: "estado = 'pagado'" }, ALICE)).toEqual([]);
  });
});
