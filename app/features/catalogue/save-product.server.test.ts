import { describe, expect, it, vi } from "vitest";

// Saving the staff product form with typed input (parsed values, uploads as the multipart parser
// hands them over): all or nothing, failures as the shared Result. The HTTP side is tested with
// the route (app/routes/admin/producto.test.ts).

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("catalogue-save"));

import { failureStatus, invalid, notFoundResult } from "~/lib/result";
import { png as pngOf, productValues, storedFiles, uploaded } from "../../../tests/support/catalogue-fixtures";
import { useTestFileDatabase } from "../../../tests/support/test-file-database";
import { PRODUCT_NOT_SAVED, type ProductValues } from "./forms";
import { imagesForProduct } from "./image-views.server";
import { PRODUCT_GONE } from "./product-commands.server";
import { getProductBySlug } from "./product-page.server";
import { saveProduct } from "./save-product.server";

useTestFileDatabase(dataDir);

/** The product the form saves here: one SKU, so a second create clashes. */
const values = (overrides: Partial<ProductValues> = {}): ProductValues =>
  productValues({
    name: "Abrazadera de acero inoxidable para tubo de 2 in",
    sku: "FOR-ABR-200",
    category: "Tornillería",
    shortDescription: "Abrazadera tipo U en inoxidable 304 con tuercas y rondanas.",
    price: 8_550,
    stock: 120,
    minOrder: 10,
    ...overrides,
  });

const png = () => pngOf(900, 600);

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
    const before = (await storedFiles()).length;
    const fake = uploaded("foto.png", Buffer.from("no soy una imagen"));
    const saved = await saveProduct({ productId: null, values: values({ sku: "FOR-ABR-300", name: "Abrazadera 3 in" }), images: [fake], imageAlt: "" });
    expect(saved).toEqual(invalid({ formErrors: ["No se guardó el producto: revise las imágenes."], fieldErrors: { images: ["«foto.png» no es una imagen PNG o JPG válida."] } }));
    expect(await getProductBySlug("abrazadera-3-in")).toBeNull();
    expect(await storedFiles()).toHaveLength(before);
  });

  it("answers a SKU clash as field errors and keeps none of the new photos", async () => {
    const before = (await storedFiles()).length;
    const saved = await saveProduct({ productId: null, values: values({ name: "Otra abrazadera" }), images: [uploaded("otra.png", await png())], imageAlt: "" });
    expect(saved).toEqual(invalid({ formErrors: [PRODUCT_NOT_SAVED], fieldErrors: { sku: ["Ya existe otro producto con el SKU FOR-ABR-200. Cada SKU debe ser único."] } }));
    expect(saved.ok || failureStatus(saved)).toBe(400);
    expect(await storedFiles()).toHaveLength(before);
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
