import fs from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// Saving the staff product form with typed input (parsed values, uploads as the multipart parser
// hands them over): all or nothing, failures as the shared Result. The HTTP side is tested with
// the route (app/routes/admin/producto.test.ts).

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("catalogue-save"));

import { failureStatus, invalid, notFoundResult } from "~/lib/result";
import type { UploadedFile } from "~/services/files/multipart.server";
import { uploadsDir, uploadsTmpDir } from "~/services/files/storage.server";
import { closeTestDatabase, createTestDatabase } from "../../../tests/support/test-database";
import { PRODUCT_NOT_SAVED, type ProductValues } from "./forms";
import { imagesForProduct } from "./image-views.server";
import { PRODUCT_GONE } from "./product-commands.server";
import { getProductBySlug } from "./product-page.server";
import { saveProduct } from "./save-product.server";

let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await closeTestDatabase(database);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function values(overrides: Partial<ProductValues> = {}): ProductValues {
  return {
    name: "Abrazadera de acero inoxidable para tubo de 2 in",
    sku: "FOR-ABR-200",
    slug: undefined,
    category: "Tornillería",
    shortDescription: "Abrazadera tipo U en inoxidable 304 con tuercas y rondanas.",
    description: "",
    price: 8_550,
    ivaBp: 1600,
    unit: "pieza",
    stock: 120,
    minOrder: 10,
    active: true,
    ...overrides,
  };
}

function uploaded(name: string, bytes: Buffer): UploadedFile {
  const tmpPath = path.join(uploadsTmpDir(), randomUUID());
  fs.writeFileSync(tmpPath, bytes);
  return { field: "images", name, tmpPath, size: bytes.length, sha256: "", head: bytes.subarray(0, 65_536), tail: bytes.subarray(Math.max(0, bytes.length - 65_536)) };
}

const png = () => sharp({ create: { width: 900, height: 600, channels: 3, background: "#c2410c" } }).png().toBuffer();

function storedFiles(): string[] {
  const root = uploadsDir();
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true }) as string[]).filter((file) => file.endsWith(".webp"));
}

describe("saveProduct", () => {
  let createdId = "";

  it("creates a product with its photos; the alt text falls back to the name", async () => {
    const saved = await saveProduct({ productId: null, values: values(), images: [uploaded("abrazadera.png", await png())], imageAlt: "  " });
    expect(saved).toMatchObject({ ok: true, value: { created: true } });
    if (!saved.ok) return;
    createdId = saved.value.id;
    expect(await imagesForProduct(createdId)).toEqual([expect.objectContaining({ alt: values().name, width: 900, height: 600, widths: [320, 640, 900] })]);
  });

  it("refuses a fake photo before writing anything", async () => {
    const before = storedFiles().length;
    const fake = uploaded("foto.png", Buffer.from("no soy una imagen"));
    const saved = await saveProduct({ productId: null, values: values({ sku: "FOR-ABR-300", name: "Abrazadera 3 in" }), images: [fake], imageAlt: "" });
    expect(saved).toEqual(invalid({ formErrors: ["No se guardó el producto: revise las imágenes."], fieldErrors: { images: ["«foto.png» no es una imagen PNG o JPG válida."] } }));
    expect(await getProductBySlug("abrazadera-3-in")).toBeNull();
    expect(storedFiles()).toHaveLength(before);
  });

  it("answers a SKU clash as field errors and keeps none of the new photos", async () => {
    const before = storedFiles().length;
    const saved = await saveProduct({ productId: null, values: values({ name: "Otra abrazadera" }), images: [uploaded("otra.png", await png())], imageAlt: "" });
    expect(saved).toEqual(invalid({ formErrors: [PRODUCT_NOT_SAVED], fieldErrors: { sku: ["Ya existe otro producto con el SKU FOR-ABR-200. Cada SKU debe ser único."] } }));
    expect(saved.ok || failureStatus(saved)).toBe(400);
    expect(storedFiles()).toHaveLength(before);
  });

  it("updates a product and adds photos after the ones it has", async () => {
    const saved = await saveProduct({ productId: createdId, values: values({ slug: "abrazadera-u-2-in" }), images: [uploaded("lado.png", await png())], imageAlt: "Abrazadera de lado" });
    expect(saved).toMatchObject({ ok: true, value: { id: createdId, created: false } });
    expect((await imagesForProduct(createdId)).map((image) => image.alt)).toEqual([values().name, "Abrazadera de lado, vista 2"]);
  });

  it("answers not found for a missing or malformed product id", async () => {
    expect(await saveProduct({ productId: "00000000-0000-4000-8000-000000000000", values: values({ sku: "FOR-ABR-999" }), images: [], imageAlt: "" })).toEqual(notFoundResult(PRODUCT_GONE));
    expect(await saveProduct({ productId: "no-es-un-id", values: values(), images: [], imageAlt: "" })).toEqual(notFoundResult(PRODUCT_GONE));
  });
});
