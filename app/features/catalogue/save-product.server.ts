import { afterRollback } from "~/db/client.server";
import { invalid, notFoundResult, ok, type Result } from "~/lib/result";
import { isUuid } from "~/lib/uuid";
import type { UploadedFile } from "~/services/files/multipart.server";
import type { ProductValues } from "./forms";
import { attachProductImages, countProductImages, discardPreparedImages, prepareProductImages } from "./image-uploads.server";
import { createProduct, PRODUCT_GONE, updateProduct } from "./product-commands.server";
import { getProductForStaff } from "./staff-products.server";

// Saving the staff product form: the product's values and its new photos, all or nothing. The
// photos are checked and converted before the product is written, so a bad file saves nothing.

export interface SaveProductInput {
  /** null on /admin/productos/nuevo. */
  productId: string | null;
  /** The form's values, already parsed with ProductSchema. */
  values: ProductValues;
  /** New photos, still in temporary files: the caller removes those afterwards. */
  images: UploadedFile[];
  /** Alt text for the new photos; the product's name when empty. */
  imageAlt: string;
}

/** Staff only: the route has checked it. */
export async function saveProduct(input: SaveProductInput): Promise<Result<{ id: string; created: boolean }>> {
  const { productId, values } = input;
  if (productId !== null && (!isUuid(productId) || !(await getProductForStaff(productId)))) return notFoundResult(PRODUCT_GONE);

  const prepared = await prepareProductImages(input.images, productId ? await countProductImages(productId) : 0);
  if (!prepared.ok) {
    const fieldErrors = prepared.kind === "invalid" ? prepared.fieldErrors : {};
    return invalid({ formErrors: ["No se guardó el producto: revise las imágenes."], fieldErrors });
  }

  const saved = productId ? await updateProduct(productId, values) : await createProduct(values);
  if (!saved.ok) {
    await discardPreparedImages(prepared.value);
    return saved;
  }
  const alt = input.imageAlt.trim().slice(0, 200) || values.name;
  // Inside a record API transaction (a batch) that rolls back later, the converted files go too.
  afterRollback(() => discardPreparedImages(prepared.value));
  await attachProductImages(saved.value.id, prepared.value, alt);
  return ok({ id: saved.value.id, created: productId === null });
}
