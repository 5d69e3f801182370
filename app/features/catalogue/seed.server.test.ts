import { describe, expect, it, vi } from "vitest";

// The demo catalogue on a real database (PGlite, or PostgreSQL with TEST_DATABASE_URL): seeded once,
// with natural prices and realistic SKUs.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("catalogue-seed"));

import { priceWithIva } from "~/lib/money";
import { useTestFileDatabase } from "../../../tests/support/test-file-database";
import { DEMO_PRODUCTS } from "./demo-products.server";
import { listProducts } from "./public-list.server";
import { netForGross, seedCatalogue } from "./seed.server";

useTestFileDatabase(dataDir);

describe("seed", () => {
  it("fills an empty catalogue once; a second start adds nothing", async () => {
    expect(await seedCatalogue()).toBe(DEMO_PRODUCTS.length);
    expect(await seedCatalogue()).toBe(0);
    const listing = await listProducts();
    expect(listing.total).toBe(DEMO_PRODUCTS.length);
    expect(DEMO_PRODUCTS.length).toBeGreaterThanOrEqual(12);
  });

  it("has natural prices with IVA, realistic SKUs, one item on order and one almost sold out", async () => {
    const { products } = await listProducts();
    for (const product of products) {
      expect(product.sku).toMatch(/^FOR-[A-Z]{3}-[A-Z0-9]{3}$/);
      expect(priceWithIva(product.priceCentavos, product.ivaBp) % 100).toBe(0);
    }
    expect(products.some((product) => product.stock === 0)).toBe(true);
    expect(products.some((product) => product.stock >= 1 && product.stock <= 10)).toBe(true);
    expect(netForGross(116_000)).toBe(100_000);
    for (const item of DEMO_PRODUCTS) expect(item.slug).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
    expect(new Set(DEMO_PRODUCTS.map((item) => item.slug)).size).toBe(DEMO_PRODUCTS.length);
  });
});
