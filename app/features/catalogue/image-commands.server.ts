import { and, asc, eq } from "drizzle-orm";
import { afterCommit, getDb } from "~/db/client.server";
import { productImages } from "~/db/schema/catalogue";
import { notFoundResult, ok, type Result } from "~/lib/result";
import { isUuid } from "~/lib/uuid";
import { removeStoredVariants } from "./image-uploads.server";

// The staff's commands on a product's saved photos: alt text, which one comes first, removal.
// An image that is not this product's is "gone": the screen was open while someone removed it.

export const IMAGE_GONE = "Esa imagen ya no existe; recargue la página.";

/** Removes an image of this product and its files. */
export async function removeProductImage(productId: string, imageId: string): Promise<Result> {
  if (!isUuid(imageId)) return notFoundResult(IMAGE_GONE);
  const [removed] = await getDb()
    .delete(productImages)
    .where(and(eq(productImages.id, imageId), eq(productImages.productId, productId)))
    .returning({ variants: productImages.variants });
  if (!removed) return notFoundResult(IMAGE_GONE);
  // Inside a record API transaction the files go only once the removal commits.
  await afterCommit(() => removeStoredVariants(removed.variants));
  return ok();
}

export async function updateProductImageAlt(productId: string, imageId: string, alt: string): Promise<Result> {
  if (!isUuid(imageId)) return notFoundResult(IMAGE_GONE);
  const updated = await getDb()
    .update(productImages)
    .set({ alt })
    .where(and(eq(productImages.id, imageId), eq(productImages.productId, productId)))
    .returning({ id: productImages.id });
  return updated.length > 0 ? ok() : notFoundResult(IMAGE_GONE);
}

/** Moves an image to the front: the first image is the one on cards, in the cart and the page's main view. */
export async function makeProductImageFirst(productId: string, imageId: string): Promise<Result> {
  if (!isUuid(imageId)) return notFoundResult(IMAGE_GONE);
  const moved = await getDb().transaction(async (tx) => {
    const rows = await tx
      .select({ id: productImages.id })
      .from(productImages)
      .where(eq(productImages.productId, productId))
      .orderBy(asc(productImages.position), asc(productImages.createdAt));
    if (!rows.some((row) => row.id === imageId)) return false;
    const ordered = [imageId, ...rows.map((row) => row.id).filter((id) => id !== imageId)];
    for (const [position, id] of ordered.entries()) {
      await tx.update(productImages).set({ position }).where(eq(productImages.id, id));
    }
    return true;
  });
  return moved ? ok() : notFoundResult(IMAGE_GONE);
}
