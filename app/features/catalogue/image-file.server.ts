import { eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { productImages, products } from "~/db/schema/catalogue";
import { logger } from "~/lib/logger.server";
import { isUuid } from "~/lib/uuid";
import { getFileStore } from "~/services/files/file-store.server";

// Serving a product photo's WebP variant: to anyone while its product is active, otherwise only to
// whom the route says may see inactive products (staff).

export interface ImageFile {
  body: Buffer;
  /** Public images may be cached by anyone; an inactive product's only privately. */
  visibility: "public" | "private";
}

export interface ImageFileRequest {
  imageId: string;
  /** The variant's file name, e.g. "640.webp". */
  fileName: string;
  /**
   * Whether the person asking may see an inactive product's photos. Asked only when the product is
   * inactive, so the route resolves the session for those alone, not for every public photo.
   */
  mayViewInactive: () => Promise<boolean>;
}

/** WebP variants are at most 1600 px wide: far below this. */
const MAX_VARIANT_BYTES = 8 * 1024 * 1024;

/** One WebP variant by image id and file name; null for everything else, including a missing file. */
export async function getProductImageFile(input: ImageFileRequest): Promise<ImageFile | null> {
  const match = /^(\d{1,5})\.webp$/.exec(input.fileName);
  if (!match || !isUuid(input.imageId)) return null;
  const width = Number(match[1]);
  const [row] = await getDb()
    .select({ variants: productImages.variants, active: products.active })
    .from(productImages)
    .innerJoin(products, eq(products.id, productImages.productId))
    .where(eq(productImages.id, input.imageId))
    .limit(1);
  const variant = row?.variants.find((candidate) => candidate.width === width);
  if (!row || !variant) return null;
  if (!row.active && !(await input.mayViewInactive())) return null;
  const body = await getFileStore().readBytes(variant.path, MAX_VARIANT_BYTES);
  if (!body) {
    logger.error({ imageId: input.imageId, width }, "product image missing from the file store");
    return null;
  }
  return { body, visibility: row.active ? "public" : "private" };
}
