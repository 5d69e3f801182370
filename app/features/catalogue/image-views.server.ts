import { asc, eq, inArray } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { productImages, type ImageVariant } from "~/db/schema/catalogue";
import type { ProductImageView } from "./images";

// How pages see a product's photos: sizes and variant widths, never where the files are stored.

function toView(row: { id: string; alt: string; width: number; height: number; variants: ImageVariant[] }): ProductImageView {
  return { id: row.id, alt: row.alt, width: row.width, height: row.height, widths: row.variants.map((variant) => variant.width).sort((a, b) => a - b) };
}

const viewColumns = { id: productImages.id, alt: productImages.alt, width: productImages.width, height: productImages.height, variants: productImages.variants };

export async function imagesForProduct(productId: string): Promise<ProductImageView[]> {
  const rows = await getDb()
    .select(viewColumns)
    .from(productImages)
    .where(eq(productImages.productId, productId))
    .orderBy(asc(productImages.position), asc(productImages.createdAt));
  return rows.map(toView);
}

/** The first image of each product (by position), for cards, tables and the cart. */
export async function firstImagesFor(productIds: string[]): Promise<Map<string, ProductImageView>> {
  const result = new Map<string, ProductImageView>();
  if (productIds.length === 0) return result;
  const rows = await getDb()
    .selectDistinctOn([productImages.productId], { productId: productImages.productId, ...viewColumns })
    .from(productImages)
    .where(inArray(productImages.productId, productIds))
    .orderBy(productImages.productId, asc(productImages.position), asc(productImages.createdAt));
  for (const row of rows) result.set(row.productId, toView(row));
  return result;
}
