import fs from "node:fs";
import { count, eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";

// The batch engine on a real database (PGlite, or PostgreSQL with TEST_DATABASE_URL), with the real
// collections and their domain commands: a batch commits every write together, and when one request
// fails nothing of the others stays — rows, events, queued emails, stock, and the image files
// written for a product created earlier in the batch (docs/decisions/0015).

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("records-batch"));

import { getDb } from "~/db/client.server";
import { productImages, products } from "~/db/schema/catalogue";
import { orderEvents, orders } from "~/db/schema/orders";
import { outbox } from "~/db/schema/outbox";
import { productosCollection } from "~/features/catalogue/index.server";
import { pedidosCollection } from "~/features/orders/index.server";
import { uploadsTmpDir } from "~/services/files/storage.server";
import { insertTestStaff, TEST_STAFF } from "../../../tests/support/auth-requests";
import { png, storedFiles, uploaded } from "../../../tests/support/catalogue-fixtures";
import { aProduct, anOrder } from "../../../tests/support/orders-fixtures";
import { useTestFileDatabase } from "../../../tests/support/test-file-database";
import { runBatch } from "./batch.server";
import type { RecordWriter } from "./collection.server";

const COLLECTIONS = [productosCollection, pedidosCollection];
const STAFF: RecordWriter = { auth: { collection: "_superusers", id: TEST_STAFF.id }, name: TEST_STAFF.name };
let productId = "";
let orderId = "";

useTestFileDatabase(dataDir, async () => {
  await insertTestStaff();
  productId = (await aProduct({ stock: 10 })).id;
  orderId = (await anOrder(productId, { quantity: 4 })).orderId;
});

const body = (sku: string) => ({ nombre: "Tuerca hexagonal M8", sku, categoria: "Tornillería", resumen: "Tuerca de acero grado 5 con acabado zincado.", precio: 11.6 });
const item = (method: string, url: string, data: Record<string, unknown> = {}, files = {}) => ({ method, url, input: { data, files } });
const state = async () => ({
  products: (await getDb().select({ n: count() }).from(products))[0]!.n,
  images: (await getDb().select({ n: count() }).from(productImages))[0]!.n,
  stock: (await getDb().select({ stock: products.stock }).from(products).where(eq(products.id, productId)))[0]!.stock,
  order: (await getDb().select({ status: orders.status }).from(orders).where(eq(orders.id, orderId)))[0]!.status,
  events: (await getDb().select({ n: count() }).from(orderEvents).where(eq(orderEvents.orderId, orderId)))[0]!.n,
  mail: (await getDb().select({ n: count() }).from(outbox))[0]!.n,
});

describe("runBatch", () => {
  it("undoes every write when a later request fails: rows, events, emails, stock and image files", async () => {
    const before = await state();
    const filesBefore = (await storedFiles()).length;
    fs.mkdirSync(uploadsTmpDir(), { recursive: true });
    const photo = uploaded("tuerca.png", await png(320, 240));
    const answer = await runBatch(
      COLLECTIONS,
      [
        item("POST", "/api/collections/productos/records", body("FOR-TUE-M8"), { imagenes: [photo] }),
        // Cancelling returns the stock, writes an event and queues the customer's email.
        item("PATCH", `/api/collections/pedidos/records/${orderId}`, { estado: "cancelado" }),
        item("PATCH", "/api/collections/productos/records/00000000-0000-4000-8000-000000000000", { existencia: 1 }),
      ],
      STAFF,
    );
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      status: 400,
      message: "Batch transaction failed.",
      data: { requests: { "2": { code: "batch_request_failed", message: "Batch request failed.", response: { status: 404, message: "The requested resource wasn't found.", data: {} } } } },
    });
    expect(await state()).toEqual(before);
    expect((await storedFiles()).length).toBe(filesBefore);
  });

  it("commits every write together when all succeed", async () => {
    const before = await state();
    const answer = await runBatch(
      COLLECTIONS,
      [item("POST", "/api/collections/productos/records", body("FOR-TUE-M10")), item("PATCH", `/api/collections/pedidos/records/${orderId}`, { estado: "cancelado" })],
      STAFF,
    );
    expect(answer.status).toBe(200);
    expect((answer.body as { status: number }[]).map((result) => result.status)).toEqual([200, 200]);
    expect(await state()).toEqual({ ...before, products: before.products + 1, stock: before.stock + 4, order: "cancelado", events: before.events + 1, mail: before.mail + 1 });
  });

  it("answers as the caller: a guest's batch fails on its first write with PocketBase's 403", async () => {
    const before = await state();
    const answer = await runBatch(COLLECTIONS, [item("POST", "/api/collections/productos/records", body("FOR-TUE-M12"))], null);
    expect(answer.body).toMatchObject({ data: { requests: { "0": { response: { status: 403, message: "Only superusers can perform this action." } } } } });
    expect(await state()).toEqual(before);
  });

  it("upserts with PUT as PocketBase does: an update when the body's id exists, a create otherwise", async () => {
    const existing = await runBatch(COLLECTIONS, [item("POST", "/api/collections/productos/records", body("FOR-TUE-M16"))], STAFF);
    const productId = ((existing.body as { body: { id: string } }[])[0]!).body.id;
    const answer = await runBatch(
      COLLECTIONS,
      [item("PUT", "/api/collections/productos/records?fields=id,existencia", { id: productId, existencia: 7 }), item("PUT", "/api/collections/productos/records", body("FOR-TUE-M14"))],
      STAFF,
    );
    expect(answer.body).toBeInstanceOf(Array);
    const results = answer.body as { status: number; body: Record<string, unknown> }[];
    expect(results[0]).toEqual({ status: 200, body: { id: productId, existencia: 7 } });
    expect(results[1]).toMatchObject({ status: 200, body: { sku: "FOR-TUE-M14", precio: 11.6 } });
    expect(results[1]!.body.id).not.toBe(productId);
  });
});
