import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// The cart's read of the catalogue on a real database (PGlite, or PostgreSQL with TEST_DATABASE_URL)
// holding the demo products.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("catalogue-cart"));

import { closeTestDatabase, createTestDatabase } from "../../../tests/support/test-database";
import { getProductsForCart } from "./cart-products.server";
import type { ProductValues } from "./forms";
import { createProduct } from "./product-commands.server";
import { listProducts } from "./public-list.server";
import { seedCatalogue } from "./seed.server";

let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedCatalogue();
});

afterAll(async () => {
  await closeTestDatabase(database);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function values(overrides: Partial<ProductValues> = {}): ProductValues {
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

describe("getProductsForCart", () => {
  it("returns what the cart needs, inactive products included, unknown ids left out", async () => {
    const gabinete = (await listProducts({ q: "FOR-GAB-432" })).products[0]!;
    const hidden = await createProduct(values({ name: "Polea de aluminio 4 in", sku: "FOR-POL-004", active: false, price: 31_000, stock: 5, minOrder: 2 }));
    if (!hidden.ok) throw new Error("not created");
    const rows = await getProductsForCart([gabinete.id, hidden.value.id, gabinete.id, "no-es-un-id", "00000000-0000-4000-8000-000000000000"]);
    expect(rows).toHaveLength(2);
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(byId.get(gabinete.id)).toEqual({
      id: gabinete.id,
      slug: gabinete.slug,
      sku: "FOR-GAB-432",
      name: gabinete.name,
      unit: "pieza",
      priceCentavos: gabinete.priceCentavos,
      ivaBp: 1600,
      stock: 18,
      minOrder: 1,
      active: true,
      image: null,
    });
    expect(byId.get(hidden.value.id)).toMatchObject({ sku: "FOR-POL-004", active: false, priceCentavos: 31_000, stock: 5, minOrder: 2, image: null });
    expect(await getProductsForCart([])).toEqual([]);
  });
});
