import fs from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import sharp from "sharp";
import { getDb } from "~/db/client.server";
import { products } from "~/db/schema/catalogue";
import type { ProductValues } from "~/features/catalogue/forms";
import { createProduct } from "~/features/catalogue/product-commands.server";
import { seedCatalogue } from "~/features/catalogue/seed.server";
import type { UploadedFile } from "~/services/files/multipart.server";
import { getFileStore } from "~/services/files/file-store.server";
import { uploadsTmpDir } from "~/services/files/storage.server";

// The kit of the catalogue's integration tests (app/features/catalogue/*.server.test.ts and the
// staff product route's): product form values, the demo bracket with photos, real PNG files made
// with sharp, uploads as the multipart parser hands them over, and the stored WebP variants.
// Each test file still sets its environment and database itself: `vi.hoisted` + isolateTestEnv,
// then useTestFileDatabase (tests/support/test-file-database.ts), seeding with seedDemoCatalogue
// or createMensula as it needs.

/** The demo products, as a seed for useTestFileDatabase. */
export async function seedDemoCatalogue(): Promise<void> {
  await seedCatalogue();
}

/** The staff form's values for a new product (a fresh SKU each call), with these overrides. */
export function productValues(overrides: Partial<ProductValues> = {}): ProductValues {
  return {
    name: "Perno de anclaje galvanizado 1/2 × 8 in",
    sku: `FOR-TST-${Math.random().toString(36).slice(2, 8).toUpperCase()}`,
    slug: undefined,
    category: "Pruebas",
    shortDescription: "Perno en J galvanizado para anclar columnas a concreto.",
    description: "",
    price: 5_000,
    ivaBp: 1600,
    unit: "pieza",
    stock: 20,
    minOrder: 1,
    active: true,
    ...overrides,
  };
}

/** Creates the active bracket (SKU FOR-MEN-035) the image tests put photos on; its id. */
export async function createMensula(): Promise<string> {
  const created = await createProduct(
    productValues({
      name: "Ménsula de acero para riel DIN",
      sku: "FOR-MEN-035",
      category: "Soportes y escuadras",
      shortDescription: "Ménsula de lámina galvanizada para montar riel DIN de 35 mm.",
      price: 9_000,
      stock: 40,
    }),
  );
  if (!created.ok) throw new Error("product not created");
  return created.value.id;
}

/**
 * `count` plain active products in one insert (lists longer than a page): "Tuerca de prueba 001"…,
 * SKUs FOR-TUE-001…, net prices 10.00, 10.01… pesos, stock 0–6.
 */
export async function insertManyProducts(count: number): Promise<void> {
  const rows = Array.from({ length: count }, (_, index) => {
    const n = String(index + 1).padStart(3, "0");
    return { slug: `tuerca-prueba-${n}`, sku: `FOR-TUE-${n}`, name: `Tuerca de prueba ${n}`, category: "Tornillería", shortDescription: "Tuerca hexagonal de prueba.", priceCentavos: 1_000 + index, stock: index % 7 };
  });
  await getDb().insert(products).values(rows);
}

/** A real PNG, width × height, in the brand's orange (#c2410c). */
export const png = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 194, g: 65, b: 12 } } }).png().toBuffer();

/** What parseMultipartUpload hands over for a file: a temporary file plus its first and last bytes. */
export function uploaded(name: string, bytes: Buffer): UploadedFile {
  const tmpPath = path.join(uploadsTmpDir(), randomUUID());
  fs.writeFileSync(tmpPath, bytes);
  return { field: "images", name, tmpPath, size: bytes.length, sha256: "", head: bytes.subarray(0, 65_536), tail: bytes.subarray(Math.max(0, bytes.length - 65_536)) };
}

/** Every stored WebP variant's key, from the file store the database uses (DATA_DIR/uploads or PostgreSQL). */
export async function storedFiles(): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of getFileStore().keys()) if (key.endsWith(".webp")) keys.push(key);
  return keys;
}

/** A stored file's bytes (throws when there is none). */
export async function storedBytes(key: string): Promise<Buffer> {
  const bytes = await getFileStore().readBytes(key, 64 * 1024 * 1024);
  if (!bytes) throw new Error(`no stored file ${key}`);
  return bytes;
}

/** An active product's photo: nobody is asked whether they may see inactive ones. */
export const publicOnly = () => Promise.reject(new Error("asked about inactive products for an active one"));
