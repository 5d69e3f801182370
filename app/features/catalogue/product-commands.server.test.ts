import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it, vi } from "vitest";

// The staff's product commands on a real database (PGlite, or PostgreSQL with TEST_DATABASE_URL)
// holding the demo products: slugs, SKU and slug clashes (also two saves at once) as Spanish field
// errors, the editor's data, and the form's validation.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("catalogue-commands"));

import { failureMessages, failureStatus } from "~/lib/result";
import { productValues as values, seedDemoCatalogue } from "../../../tests/support/catalogue-fixtures";
import { useTestFileDatabase } from "../../../tests/support/test-file-database";
import { ProductSchema } from "./forms";
import { createProduct, updateProduct } from "./product-commands.server";
import { listProducts } from "./public-list.server";
import { getProductEditor } from "./staff-products.server";

useTestFileDatabase(dataDir, seedDemoCatalogue);

const names = async (q: string) => (await listProducts({ q })).products.map((product) => product.name);

describe("staff commands", () => {
  it("makes a slug from the name, and another when it is taken", async () => {
    const first = await createProduct(values({ name: "Tapa ciega de aluminio Ø 80 mm" }));
    const second = await createProduct(values({ name: "Tapa ciega de aluminio Ø 80 mm" }));
    expect(first).toMatchObject({ ok: true, value: { slug: "tapa-ciega-de-aluminio-80-mm" } });
    expect(second).toMatchObject({ ok: true, value: { slug: "tapa-ciega-de-aluminio-80-mm-2" } });
  });

  it("refuses a SKU or slug that belongs to another product, in Spanish", async () => {
    const duplicateSku = await createProduct(values({ sku: "FOR-BRD-150" }));
    expect(duplicateSku.ok || failureStatus(duplicateSku)).toBe(400);
    expect(duplicateSku).toMatchObject({ ok: false, kind: "invalid", fieldErrors: { sku: ["Ya existe otro producto con el SKU FOR-BRD-150. Cada SKU debe ser único."] } });

    const existing = (await listProducts({ q: "FOR-GAB-432" })).products[0]!;
    const duplicateSlug = await createProduct(values({ slug: existing.slug }));
    expect(duplicateSlug.ok).toBe(false);
    if (!duplicateSlug.ok) expect(failureMessages(duplicateSlug).fieldErrors.slug?.[0]).toMatch(/^La dirección \/catalogo\/gabinete-lamina-400x300x200-ip54 ya es de otro producto/);

    const mine = await createProduct(values({ name: "Espárrago roscado M12", sku: "FOR-ESP-M12" }));
    if (!mine.ok) throw new Error("not created");
    // Its own SKU and slug are no clash; another product's SKU is.
    expect(await updateProduct(mine.value.id, values({ name: "Espárrago roscado M12 × 1 m", sku: "FOR-ESP-M12", slug: mine.value.slug, stock: 3 }))).toMatchObject({ ok: true, value: { slug: mine.value.slug } });
    expect(await updateProduct(mine.value.id, values({ sku: "FOR-GAB-432" }))).toMatchObject({ ok: false, fieldErrors: { sku: [expect.stringContaining("FOR-GAB-432")] } });
    const gone = await updateProduct("00000000-0000-4000-8000-000000000000", values());
    expect(gone).toMatchObject({ ok: false, kind: "not-found" });
    expect(gone.ok || failureStatus(gone)).toBe(404);

    const updated = await getProductEditor(mine.value.id);
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
    const refused = results.find((result) => !result.ok)!;
    expect(refused.ok || failureStatus(refused)).toBe(400);
    expect(refused).toMatchObject({ ok: false, kind: "invalid", fieldErrors: { sku: [expect.stringContaining("FOR-TUE-M16")] } });
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
