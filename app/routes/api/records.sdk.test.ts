import type PocketBase from "pocketbase";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// The contract of the record API (docs/decisions/0014): the official `pocketbase` SDK, unchanged,
// against the real production server over HTTP. The server's database is prepared first with the
// demo catalogue, 520 more active products (so a full list needs two pages of 500) and one inactive
// product no guest may see.

await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("records-sdk"));

import { DEMO_PRODUCTS } from "~/features/catalogue/demo-products.server";
import { createProduct } from "~/features/catalogue/product-commands.server";
import { insertManyProducts, productValues, seedDemoCatalogue } from "../../../tests/support/catalogue-fixtures";
import { startTestServer, type TestServer } from "../../../tests/support/test-server";
import { sdkClient, sdkFailure } from "../../../tests/support/sdk-client";

const EXTRA = 520;
const ACTIVE = DEMO_PRODUCTS.length + EXTRA;
const INACTIVE_SKU = "FOR-OFF-001";

let server: TestServer | undefined;
let inactiveId = "";

beforeAll(async () => {
  server = await startTestServer({
    prepare: async () => {
      await seedDemoCatalogue();
      await insertManyProducts(EXTRA);
      const inactive = await createProduct(productValues({ name: "Producto retirado del catálogo", sku: INACTIVE_SKU, active: false }));
      if (!inactive.ok) throw new Error("inactive product not created");
      inactiveId = inactive.value.id;
    },
  });
}, 420_000);

afterAll(async () => {
  await server?.stop();
}, 60_000);

/** The SDK as a client written for PocketBase would use it, with every request bounded in time. */
const client = (): PocketBase => sdkClient(server!.url);

const failure = sdkFailure;

const DATE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe("the productos collection through the official SDK", { timeout: 60_000 }, () => {
  it("getList(1, 30) answers PocketBase's shape", async () => {
    const page = await client().collection("productos").getList(1, 30);
    expect(page).toMatchObject({ page: 1, perPage: 30, totalItems: ACTIVE, totalPages: Math.ceil(ACTIVE / 30) });
    expect(page.items).toHaveLength(30);
    const [first] = page.items;
    expect(first).toMatchObject({ collectionId: "pbc_productos", collectionName: "productos", id: expect.any(String), created: expect.stringMatching(DATE), updated: expect.stringMatching(DATE) });
    for (const field of ["slug", "nombre", "sku", "categoria", "precio", "existencia", "imagenes"]) expect(first).toHaveProperty(field);
    expect(Array.isArray(first!.imagenes)).toBe(true);
    expect(typeof first!.precio).toBe("number");
  });

  it("clamps perPage to 500 and reports the page size it used", async () => {
    const page = await client().collection("productos").getList(1, 1000, { skipTotal: true });
    expect(page.perPage).toBe(500);
    expect(page.items).toHaveLength(500);
  });

  it("filters and sorts, with pb.filter() binding the values", async () => {
    const pb = client();
    const q = "Tuerca de prueba 01";
    const found = await pb.collection("productos").getList(1, 50, { filter: pb.filter("nombre ~ {:q} && existencia >= {:min}", { q, min: 0 }), sort: "-sku" });
    expect(found.items.map((item) => item.sku)).toEqual(Array.from({ length: 10 }, (_, index) => `FOR-TUE-${String(19 - index).padStart(3, "0")}`));
    expect(found.totalItems).toBe(10);

    const quoted = await pb.collection("productos").getList(1, 5, { filter: pb.filter("nombre = {:name} || sku = {:sku}", { name: `O'Brien "x"`, sku: "FOR-ESC-100" }) });
    expect(quoted.items.map((item) => item.sku)).toEqual(["FOR-ESC-100"]);

    const cheapest = await pb.collection("productos").getList(1, 3, { sort: "precio,sku" });
    const prices = cheapest.items.map((item) => item.precio as number);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
  });

  it("skipTotal answers -1 for the totals", async () => {
    const page = await client().collection("productos").getList(2, 10, { skipTotal: true, sort: "sku" });
    expect(page).toMatchObject({ page: 2, perPage: 10, totalItems: -1, totalPages: -1 });
    expect(page.items).toHaveLength(10);
  });

  it("getFullList() returns every active product once (the SDK asks for 1000; pages of 500 come back)", async () => {
    const pb = client();
    for (const all of [await pb.collection("productos").getFullList(), await pb.collection("productos").getFullList({ batch: 500, sort: "-created" })]) {
      expect(all).toHaveLength(ACTIVE);
      expect(new Set(all.map((item) => item.id)).size).toBe(ACTIVE);
      expect(all.some((item) => item.sku === INACTIVE_SKU)).toBe(false);
    }
  });

  it("trims records to `fields`", async () => {
    const page = await client().collection("productos").getList(1, 2, { fields: "id,nombre" });
    expect(page.items.map((item) => Object.keys(item).sort())).toEqual([
      ["id", "nombre"],
      ["id", "nombre"],
    ]);
  });

  it("getOne(id) answers the record; getOne of an unknown id is a 404", async () => {
    const pb = client();
    // The server's model job attaches each demo product's rendered picture in the background after
    // it starts: compare the two reads once that write has happened, not across it (CI caught a
    // picture arriving between them).
    const first = await vi.waitFor(
      async () => {
        const read = await pb.collection("productos").getFirstListItem('sku = "FOR-ESC-100"');
        expect(read.imagenes).toHaveLength(1);
        return read;
      },
      { timeout: 45_000, interval: 250 },
    );
    const one = await pb.collection("productos").getOne(first.id);
    expect(one).toEqual(first);

    const missing = await failure(pb.collection("productos").getOne("nope"));
    expect(missing.status).toBe(404);
    expect(missing.response).toEqual({ status: 404, message: "The requested resource wasn't found.", data: {} });
  });

  it("getFirstListItem with no match is a 404", async () => {
    const error = await failure(client().collection("productos").getFirstListItem('sku = "NO-EXISTE"'));
    expect(error.status).toBe(404);
  });

  it("a malformed filter, an unknown field or a bad sort is a 400 with PocketBase's body", async () => {
    const pb = client();
    const body = { status: 400, message: "Something went wrong while processing your request.", data: {} };
    for (const options of [{ filter: "nombre = " }, { filter: "(sku = 'x'" }, { filter: "active = false" }, { filter: "nombre = 'a' && 1" }, { sort: "-priceCentavos" }]) {
      const error = await failure(pb.collection("productos").getList(1, 5, options));
      expect(error.status, JSON.stringify(options)).toBe(400);
      expect(error.response).toEqual(body);
    }
  });

  it("keeps an inactive product invisible: not listed, not found by filter, not viewable", async () => {
    const pb = client();
    expect((await pb.collection("productos").getList(1, 5, { filter: `sku = "${INACTIVE_SKU}"` })).totalItems).toBe(0);
    expect((await failure(pb.collection("productos").getOne(inactiveId))).status).toBe(404);
    expect((await failure(pb.collection("productos").getFirstListItem(`id = "${inactiveId}"`))).status).toBe(404);
  });

  it("an unknown collection is a 404", async () => {
    const error = await failure(client().collection("cosas").getList(1, 5));
    expect(error.status).toBe(404);
    expect(error.response).toEqual({ status: 404, message: "Missing collection context.", data: {} });
  });
});
