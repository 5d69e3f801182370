import { describe, expect, it, vi } from "vitest";

// The cart's read of the catalogue on a real database (PGlite, or PostgreSQL with TEST_DATABASE_URL)
// holding the demo products.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("catalogue-cart"));

import { productValues as values, seedDemoCatalogue } from "../../../tests/support/catalogue-fixtures";
import { useTestFileDatabase } from "../../../tests/support/test-file-database";
import { getProductsForCart } from "./cart-products.server";
import { createProduct } from "./product-commands.server";
import { listProducts } from "./public-list.server";

useTestFileDatabase(dataDir, seedDemoCatalogue);

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
