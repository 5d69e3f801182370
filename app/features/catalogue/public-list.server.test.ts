import { describe, expect, it, vi } from "vitest";

// The public catalogue on a real database (PGlite, or PostgreSQL with TEST_DATABASE_URL) holding the
// demo products: full-text search in Spanish without accents, prefixes, filters, sorts,
// pagination, and what inactive products hide (the product page and the staff list included).
// Products are created through the feature's own commands.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("catalogue-public-list"));

import { priceWithIva } from "~/lib/money";
import { ok } from "~/lib/result";
import { productValues as values, seedDemoCatalogue } from "../../../tests/support/catalogue-fixtures";
import { useTestFileDatabase } from "../../../tests/support/test-file-database";
import { DEMO_PRODUCTS } from "./demo-products.server";
import { createProduct, setProductActive } from "./product-commands.server";
import { getProductBySlug } from "./product-page.server";
import { listCategories, listProducts } from "./public-list.server";
import { listProductsForStaff } from "./staff-products.server";

useTestFileDatabase(dataDir, seedDemoCatalogue);

const names = async (q: string, extra: Parameters<typeof listProducts>[0] = {}) => (await listProducts({ q, ...extra })).products.map((product) => product.name);

describe("public search", () => {
  it("finds plurals and ignores accents (Spanish full-text search)", async () => {
    expect(await names("buje")).toEqual(expect.arrayContaining([expect.stringMatching(/^Bujes de bronce/)]));
    expect(await names("policarbonato")).toEqual([expect.stringMatching(/^Guarda de policarbonato/)]);
    expect(await names("policarbonáto")).toEqual([expect.stringMatching(/^Guarda de policarbonato/)]);
    expect(await names("laminá")).toEqual(expect.arrayContaining([expect.stringMatching(/^Gabinete de lámina/)]));
    expect(await names("LAMINA")).toEqual(expect.arrayContaining([expect.stringMatching(/^Gabinete de lámina/)]));
  });

  it("finds partial words and SKUs", async () => {
    const bridas = await names("brid");
    expect(bridas.filter((name) => name.startsWith("Brida"))).toHaveLength(2);
    expect(await names("policarb")).toEqual([expect.stringMatching(/^Guarda de policarbonato/)]);
    expect(await names("FOR-GAB-432")).toEqual([expect.stringMatching(/^Gabinete de lámina/)]);
    expect(await names("gab-43")).toEqual([expect.stringMatching(/^Gabinete de lámina/)]);
    expect(await names("carbonato")).toEqual([expect.stringMatching(/^Guarda de policarbonato/)]);
  });

  it("ranks whole-word matches first and says nothing was found when nothing was", async () => {
    // "aluminio" is in the plate's name and in other products' descriptions.
    const aluminio = await names("aluminio");
    expect(aluminio[0]).toMatch(/^Placa de montaje de aluminio/);
    expect(aluminio).toEqual(expect.arrayContaining([expect.stringMatching(/^Rueda de poliuretano/)]));
    expect((await names("bujes de bronce sae 660"))[0]).toMatch(/^Bujes de bronce/);
    expect(await names("titanio grado 5 xyz")).toEqual([]);
    expect(await names("%_")).toHaveLength(DEMO_PRODUCTS.length);
  });

  it("filters by category slug (or name) and lists categories with counts", async () => {
    const categories = await listCategories();
    expect(categories.find((category) => category.slug === "bridas-maquinadas")).toEqual({ name: "Bridas maquinadas", slug: "bridas-maquinadas", count: 2 });
    expect(categories.reduce((sum, category) => sum + category.count, 0)).toBe(DEMO_PRODUCTS.length);

    const bridas = await listProducts({ category: "bridas-maquinadas" });
    expect(bridas.products.map((product) => product.category)).toEqual(["Bridas maquinadas", "Bridas maquinadas"]);
    expect(bridas.category?.name).toBe("Bridas maquinadas");
    expect((await listProducts({ category: "Bridas maquinadas" })).total).toBe(2);
    expect((await listProducts({ category: "bridas-maquinadas", q: "inoxidable" })).products.map((product) => product.sku)).toEqual(["FOR-BRD-304"]);

    const unknown = await listProducts({ category: "no-existe" });
    expect(unknown).toMatchObject({ products: [], total: 0, category: null });
  });

  it("sorts by price with IVA either way and by name", async () => {
    const gross = (list: { priceCentavos: number; ivaBp: number }[]) => list.map((product) => priceWithIva(product.priceCentavos, product.ivaBp));
    const ascending = gross((await listProducts({ sort: "precio-asc" })).products);
    expect(ascending).toEqual([...ascending].sort((a, b) => a - b));
    const descending = gross((await listProducts({ sort: "precio-desc" })).products);
    expect(descending).toEqual([...descending].sort((a, b) => b - a));
    const byName = (await listProducts({ sort: "nombre" })).products.map((product) => product.name);
    expect(byName[0]).toMatch(/^Brida ciega/);
    expect(byName.at(-1)).toMatch(/^Soporte en L/);
  });
});

describe("pagination and visibility", () => {
  it("shows 30 per page and knows the total", async () => {
    for (let n = 1; n <= 35; n += 1) {
      const created = await createProduct(values({ name: `Tornillo de prueba ${String(n).padStart(2, "0")}`, category: "Paginación" }));
      expect(created.ok).toBe(true);
    }
    const first = await listProducts({ category: "paginacion", sort: "nombre" });
    expect(first.products).toHaveLength(30);
    expect(first).toMatchObject({ total: 35, pages: 2 });
    expect(first.products[0]!.name).toBe("Tornillo de prueba 01");
    const second = await listProducts({ category: "paginacion", sort: "nombre", page: 2 });
    expect(second.products.map((product) => product.name)).toEqual(["31", "32", "33", "34", "35"].map((n) => `Tornillo de prueba ${n}`));
    const past = await listProducts({ category: "paginacion", page: 3 });
    expect(past).toMatchObject({ products: [], total: 35, pages: 2 });
  });

  it("hides inactive products from the public, not from staff", async () => {
    const created = await createProduct(values({ name: "Cople rígido de acero inoxidable 3/4 in", category: "Coples" }));
    if (!created.ok) throw new Error("not created");
    expect(await names("cople")).toHaveLength(1);

    expect(await setProductActive(created.value.id, false)).toEqual(ok());
    expect(await names("cople")).toEqual([]);
    expect(await getProductBySlug(created.value.slug)).toBeNull();
    expect((await listCategories()).some((category) => category.name === "Coples")).toBe(false);
    expect(await getProductBySlug(created.value.slug, { includeInactive: true })).toMatchObject({ id: created.value.id });

    const staffAll = await listProductsForStaff({ q: "cople", category: "", status: "todos", page: 1 });
    expect(staffAll.rows.map((row) => [row.id, row.active])).toEqual([[created.value.id, false]]);
    expect((await listProductsForStaff({ q: "cople", category: "", status: "activos", page: 1 })).total).toBe(0);
    expect((await listProductsForStaff({ q: "", category: "Coples", status: "inactivos", page: 1 })).total).toBe(1);

    await setProductActive(created.value.id, true);
    expect(await names("cople")).toHaveLength(1);
  });

  it("gives a product page with rendered, sanitized markdown; slugs match without regard to case", async () => {
    const created = await createProduct(values({ name: "Chumacera de piso UCP205", description: "## Datos\n- Eje de 25 mm\n\n<script>alert(1)</script>" }));
    if (!created.ok) throw new Error("not created");
    const product = await getProductBySlug(created.value.slug.toUpperCase());
    expect(product?.slug).toBe("chumacera-de-piso-ucp205");
    expect(product?.descriptionHtml).toContain("<h2>Datos</h2>");
    expect(product?.descriptionHtml).not.toContain("<script");
    expect(product?.images).toEqual([]);
    expect(await getProductBySlug("no-existe")).toBeNull();
  });
});
