import { describe, expect, it, vi } from "vitest";

// The catalogue as the record API's `productos` collection, on a real database with products made
// by the feature's own commands: who sees what (active ones for guests, all for staff), the price
// as the catalogue shows it, image file names, and the allow-listed fields in filters and sorts.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("catalogue-records"));

import { priceWithIva } from "~/lib/money";
import type { Result } from "~/lib/result";
import type { RecordAuth } from "~/services/records/collection.server";
import { listRecords, viewRecord, type RecordJson } from "~/services/records/records.server";
import { png, productValues, uploaded } from "../../../tests/support/catalogue-fixtures";
import { useTestFileDatabase } from "../../../tests/support/test-file-database";
import { addProductImages } from "./image-uploads.server";
import { imagesForProduct } from "./image-views.server";
import { createProduct } from "./product-commands.server";
import { getProductBySlug } from "./product-page.server";
import { productosCollection } from "./record-collection.server";

const STAFF: RecordAuth = { collection: "_superusers", id: "staff-1" };
const COLLECTIONS = [productosCollection];

let activeId = "";
let inactiveId = "";
let photoId = "";

useTestFileDatabase(dataDir, async () => {
  const created = async (values: Parameters<typeof productValues>[0]) => {
    const result = await createProduct(productValues(values));
    if (!result.ok) throw new Error("product not created");
    return result.value.id;
  };
  // 1 234.57 net at 16 % → 1 432.10 with IVA (rounded half up from 1 432.0996…)
  activeId = await created({ name: "Tornillo allen M6", slug: "tornillo-allen-m6", sku: "FOR-TOR-M6", price: 123_457, stock: 7 });
  inactiveId = await created({ name: "Tornillo descontinuado", slug: "tornillo-descontinuado", sku: "FOR-TOR-OLD", price: 1_000, active: false });
  photoId = await created({ name: "Placa con foto", slug: "placa-con-foto", sku: "FOR-PLA-001", price: 50_000, ivaBp: 0, stock: 0 });
  const added = await addProductImages(photoId, [uploaded("placa.png", await png(800, 600)), uploaded("placa-2.png", await png(700, 500))], "Placa");
  if (!added.ok) throw new Error("images not added");
});

const list = async (query: Record<string, string>, auth: RecordAuth = null) => {
  const result = await listRecords(COLLECTIONS, "productos", new URLSearchParams(query), auth);
  if (!result.ok) throw new Error(JSON.stringify(result));
  return result.value;
};
const skus = async (query: Record<string, string>, auth: RecordAuth = null) => (await list({ sort: "sku", ...query }, auth)).items.map((item) => item.sku);
const view = (id: string, auth: RecordAuth = null): Promise<Result<RecordJson>> => viewRecord(COLLECTIONS, "productos", id, new URLSearchParams(), auth);

describe("visibility", () => {
  it("shows guests the active products only, in the list, the count and a record", async () => {
    expect(await skus({})).toEqual(["FOR-PLA-001", "FOR-TOR-M6"]);
    expect((await list({ filter: "sku ~ 'FOR-TOR'" })).totalItems).toBe(1);
    expect(await view(inactiveId)).toMatchObject({ ok: false, kind: "not-found" });
    expect(await view(activeId)).toMatchObject({ ok: true, value: { id: activeId } });
  });

  it("shows staff every product", async () => {
    expect(await skus({}, STAFF)).toEqual(["FOR-PLA-001", "FOR-TOR-M6", "FOR-TOR-OLD"]);
    expect(await view(inactiveId, STAFF)).toMatchObject({ ok: true, value: { sku: "FOR-TOR-OLD" } });
  });
});

describe("a product as a record", () => {
  it("carries the catalogue's fields, with the price in pesos IVA included as the product page shows it", async () => {
    const result = await view(activeId);
    if (!result.ok) throw new Error("not found");
    const page = await getProductBySlug("tornillo-allen-m6");
    expect(result.value).toEqual({
      collectionId: "pbc_productos",
      collectionName: "productos",
      id: activeId,
      created: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      updated: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      slug: "tornillo-allen-m6",
      nombre: "Tornillo allen M6",
      sku: "FOR-TOR-M6",
      categoria: "Pruebas",
      resumen: page!.shortDescription,
      descripcion: "",
      precio: 1432.1,
      existencia: 7,
      unidad: "pieza",
      minimo: 1,
      imagenes: [],
      iva: 16,
      activo: true,
    });
    expect(result.value.precio).toBe(priceWithIva(page!.priceCentavos, page!.ivaBp) / 100);
    expect(new Date(String(result.value.updated).replace(" ", "T")).getTime()).toBe(page!.updatedAt.getTime());
  });

  it("names the images as files, in the product's order", async () => {
    const images = await imagesForProduct(photoId);
    const result = await view(photoId);
    expect(result).toMatchObject({ ok: true, value: { imagenes: images.map((image) => `${image.id}.webp`), precio: 500 } });
  });
});

describe("filter and sort over the allow-list", () => {
  it("compares precio in pesos with IVA, decimals included", async () => {
    expect(await skus({ filter: "precio = 1432.10" })).toEqual(["FOR-TOR-M6"]);
    expect(await skus({ filter: "precio > 1432.09 && precio < 1432.11" })).toEqual(["FOR-TOR-M6"]);
    expect(await skus({ filter: "precio >= 500" })).toEqual(["FOR-PLA-001", "FOR-TOR-M6"]);
    expect(await skus({ sort: "-precio" })).toEqual(["FOR-TOR-M6", "FOR-PLA-001"]);
  });

  it("filters on images, stock, text and dates", async () => {
    expect(await skus({ filter: "imagenes:length > 0" })).toEqual(["FOR-PLA-001"]);
    expect(await skus({ filter: "imagenes = ''" })).toEqual(["FOR-TOR-M6"]);
    expect(await skus({ filter: "existencia = 0" })).toEqual(["FOR-PLA-001"]);
    expect(await skus({ filter: "nombre ~ 'allen' && categoria = 'Pruebas'" })).toEqual(["FOR-TOR-M6"]);
    expect(await skus({ filter: `id = "${activeId}"` })).toEqual(["FOR-TOR-M6"]);
    expect(await skus({ filter: "created > '2000-01-01' && updated <= @now" })).toEqual(["FOR-PLA-001", "FOR-TOR-M6"]);
  });

  it("never lets a guest's filter reach an inactive product", async () => {
    expect(await skus({ filter: "sku = 'FOR-TOR-OLD' || sku != ''" })).toEqual(["FOR-PLA-001", "FOR-TOR-M6"]);
  });
});
