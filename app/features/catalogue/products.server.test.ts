import fs from "node:fs";
import { parseWithZod } from "@conform-to/zod/v4";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// The catalogue on a real database (PGlite, or PostgreSQL with TEST_DATABASE_URL): full-text search
// in Spanish without accents, prefixes, filters, sorts, pagination, the staff commands and the
// seed. Products are created through the feature's own functions.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("catalogue-products"));

import { priceWithIva } from "~/lib/money";
import { closeTestDatabase, createTestDatabase } from "../../../tests/support/test-database";
import {
  createProduct,
  getProductBySlug,
  getProductEditor,
  getProductsForCart,
  listCategories,
  listProducts,
  listProductsForStaff,
  setProductActive,
  updateProduct,
} from "./products.server";
import { ProductSchema, stockStatus, type ProductValues } from "./forms";
import { buildSearchDocument, normalizeSearchText, parseCatalogueQuery, searchTokens, slugify } from "./search";
import { DEMO_PRODUCTS, netForGross, seedCatalogue } from "./seed.server";

let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await closeTestDatabase(database);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const names = async (q: string, extra: Parameters<typeof listProducts>[0] = {}) => (await listProducts({ q, ...extra })).products.map((product) => product.name);

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

describe("search text", () => {
  it("normalizes to lowercase without accents or diacritics", () => {
    expect(normalizeSearchText("  Lámina   ROLADA Policarbonáto Ñandú ")).toBe("lamina rolada policarbonato nandu");
    expect(buildSearchDocument({ name: "Buje", sku: "FOR-BUJ-1", category: "Bujes y cojinetes", shortDescription: "Bronce", description: "Grafitádo" })).toContain("grafitado");
  });

  it("keeps plain words for prefixes: no excluded words, no operators, no punctuation", () => {
    expect(searchTokens(normalizeSearchText('brid "acero -inox" -laton or FOR-GAB'))).toEqual(["brid", "acero", "for", "gab"]);
  });

  it("reads the catalogue state from the URL and falls back on anything odd", () => {
    expect(parseCatalogueQuery(new URLSearchParams("q=%20buje%20&categoria=Bujes%20y%20cojinetes&orden=precio-desc&pagina=3"))).toEqual({
      q: "buje",
      category: "bujes-y-cojinetes",
      sort: "precio-desc",
      page: 3,
    });
    expect(parseCatalogueQuery(new URLSearchParams("orden=caro&pagina=-2"))).toMatchObject({ sort: "relevancia", page: 1 });
    expect(slugify("Guardas de policarbonato · 6 mm")).toBe("guardas-de-policarbonato-6-mm");
  });

  it("words stock the way the issue asks", () => {
    expect(stockStatus(11, "pieza").label).toBe("En existencia");
    expect(stockStatus(10, "pieza").label).toBe("Últimas 10 piezas");
    expect(stockStatus(3, "juego").label).toBe("Últimos 3 juegos");
    expect(stockStatus(1, "pieza").label).toBe("Última pieza");
    expect(stockStatus(0, "pieza").label).toBe("Sobre pedido");
  });
});

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

    expect(await setProductActive(created.id, false)).toBe(true);
    expect(await names("cople")).toEqual([]);
    expect(await getProductBySlug(created.slug)).toBeNull();
    expect((await listCategories()).some((category) => category.name === "Coples")).toBe(false);
    expect(await getProductBySlug(created.slug, { includeInactive: true })).toMatchObject({ id: created.id });

    const staffAll = await listProductsForStaff({ q: "cople", category: "", status: "todos", page: 1 });
    expect(staffAll.rows.map((row) => [row.id, row.active])).toEqual([[created.id, false]]);
    expect((await listProductsForStaff({ q: "cople", category: "", status: "activos", page: 1 })).total).toBe(0);
    expect((await listProductsForStaff({ q: "", category: "Coples", status: "inactivos", page: 1 })).total).toBe(1);

    await setProductActive(created.id, true);
    expect(await names("cople")).toHaveLength(1);
  });

  it("gives a product page with rendered, sanitized markdown; slugs match without regard to case", async () => {
    const created = await createProduct(values({ name: "Chumacera de piso UCP205", description: "## Datos\n- Eje de 25 mm\n\n<script>alert(1)</script>" }));
    if (!created.ok) throw new Error("not created");
    const product = await getProductBySlug(created.slug.toUpperCase());
    expect(product?.slug).toBe("chumacera-de-piso-ucp205");
    expect(product?.descriptionHtml).toContain("<h2>Datos</h2>");
    expect(product?.descriptionHtml).not.toContain("<script");
    expect(product?.images).toEqual([]);
    expect(await getProductBySlug("no-existe")).toBeNull();
  });
});

describe("staff commands", () => {
  it("makes a slug from the name, and another when it is taken", async () => {
    const first = await createProduct(values({ name: "Tapa ciega de aluminio Ø 80 mm" }));
    const second = await createProduct(values({ name: "Tapa ciega de aluminio Ø 80 mm" }));
    expect(first).toMatchObject({ ok: true, slug: "tapa-ciega-de-aluminio-80-mm" });
    expect(second).toMatchObject({ ok: true, slug: "tapa-ciega-de-aluminio-80-mm-2" });
  });

  it("refuses a SKU or slug that belongs to another product, in Spanish", async () => {
    const duplicateSku = await createProduct(values({ sku: "FOR-BRD-150" }));
    expect(duplicateSku).toMatchObject({ ok: false, status: 400, fieldErrors: { sku: ["Ya existe otro producto con el SKU FOR-BRD-150. Cada SKU debe ser único."] } });

    const existing = (await listProducts({ q: "FOR-GAB-432" })).products[0]!;
    const duplicateSlug = await createProduct(values({ slug: existing.slug }));
    expect(duplicateSlug.ok).toBe(false);
    if (!duplicateSlug.ok) expect(duplicateSlug.fieldErrors.slug?.[0]).toMatch(/^La dirección \/catalogo\/gabinete-lamina-400x300x200-ip54 ya es de otro producto/);

    const mine = await createProduct(values({ name: "Espárrago roscado M12", sku: "FOR-ESP-M12" }));
    if (!mine.ok) throw new Error("not created");
    // Its own SKU and slug are no clash; another product's SKU is.
    expect(await updateProduct(mine.id, values({ name: "Espárrago roscado M12 × 1 m", sku: "FOR-ESP-M12", slug: mine.slug, stock: 3 }))).toMatchObject({ ok: true, slug: mine.slug });
    expect(await updateProduct(mine.id, values({ sku: "FOR-GAB-432" }))).toMatchObject({ ok: false, fieldErrors: { sku: [expect.stringContaining("FOR-GAB-432")] } });
    expect(await updateProduct("00000000-0000-4000-8000-000000000000", values())).toMatchObject({ ok: false, status: 404 });

    const updated = await getProductEditor(mine.id);
    expect(updated?.product).toMatchObject({ name: "Espárrago roscado M12 × 1 m", stock: 3 });
    expect(updated?.categories).toContain("Bridas maquinadas");
    expect(await getProductEditor("no-es-un-id")).toBeNull();
    // The new name is searchable: the search document is rewritten on every save.
    expect(await names("esparrago 1 m")).toEqual(["Espárrago roscado M12 × 1 m"]);
  });

  it("turns a clash between two saves at once into the same field error", async () => {
    const results = await Promise.all([
      createProduct(values({ name: "Tuerca de seguridad M16 A", sku: "FOR-TUE-M16" })),
      createProduct(values({ name: "Tuerca de seguridad M16 B", sku: "FOR-TUE-M16" })),
    ]);
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(results.find((result) => !result.ok)).toMatchObject({ ok: false, status: 400, fieldErrors: { sku: [expect.stringContaining("FOR-TUE-M16")] } });
  });

  it("validates the form in Spanish and reads pesos into centavos", () => {
    const form = new FormData();
    for (const [key, value] of Object.entries({
      name: "Placa base",
      sku: "for-pla-100",
      category: "Placas de montaje",
      shortDescription: "Placa base de acero para columnas.",
      price: "$1,250.5",
      ivaBp: "1600",
      unit: "pieza",
      stock: "4",
      minOrder: "1",
      active: "on",
    })) {
      form.set(key, value);
    }
    const ok = parseWithZod(form, { schema: ProductSchema });
    expect(ok.status).toBe("success");
    if (ok.status === "success") expect(ok.value).toMatchObject({ sku: "FOR-PLA-100", price: 125_050, ivaBp: 1600, stock: 4, active: true, description: "" });

    form.set("price", "0");
    form.set("stock", "-1");
    form.set("sku", "FOR PLA");
    form.delete("name");
    form.delete("active");
    const bad = parseWithZod(form, { schema: ProductSchema });
    expect(bad.reply().error).toMatchObject({
      name: ["Escriba el nombre del producto."],
      price: [expect.stringMatching(/^Escriba un precio mayor que cero/)],
      stock: ["La existencia no puede ser menor que 0."],
      sku: ["Use letras, números y guiones, por ejemplo FOR-BRD-150."],
    });
  });
});

describe("getProductsForCart", () => {
  it("returns what the cart needs, inactive products included, unknown ids left out", async () => {
    const gabinete = (await listProducts({ q: "FOR-GAB-432" })).products[0]!;
    const hidden = await createProduct(values({ name: "Polea de aluminio 4 in", sku: "FOR-POL-004", active: false, price: 31_000, stock: 5, minOrder: 2 }));
    if (!hidden.ok) throw new Error("not created");
    const rows = await getProductsForCart([gabinete.id, hidden.id, gabinete.id, "no-es-un-id", "00000000-0000-4000-8000-000000000000"]);
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
    expect(byId.get(hidden.id)).toMatchObject({ sku: "FOR-POL-004", active: false, priceCentavos: 31_000, stock: 5, minOrder: 2, image: null });
    expect(await getProductsForCart([])).toEqual([]);
  });
});
