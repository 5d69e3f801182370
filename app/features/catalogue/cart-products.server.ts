import { inArray } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { products } from "~/db/schema/catalogue";
import { isUuid } from "~/lib/uuid";
import { firstImagesFor } from "./image-views.server";
import { productImageUrl } from "./images";

// The small read the cart and checkout (features/orders) make of the catalogue, through the
// catalogue's public module.

export interface CartProduct {
  id: string;
  slug: string;
  sku: string;
  name: string;
  unit: string;
  /** Net, before IVA. */
  priceCentavos: number;
  ivaBp: number;
  stock: number;
  minOrder: number;
  active: boolean;
  /** URL of the smallest WebP variant of the first image, or null. */
  image: string | null;
}

/**
 * Products by id for the cart and checkout (features/orders), inactive ones included so the cart
 * can say an item is no longer sold. Unknown or malformed ids are left out; order is not kept.
 * Keep this signature stable: orders depend on it.
 */
export async function getProductsForCart(ids: string[]): Promise<CartProduct[]> {
  const wanted = [...new Set(ids.filter(isUuid).map((id) => id.toLowerCase()))];
  if (wanted.length === 0) return [];
  const rows = await getDb()
    .select({
      id: products.id,
      slug: products.slug,
      sku: products.sku,
      name: products.name,
      unit: products.unit,
      priceCentavos: products.priceCentavos,
      ivaBp: products.ivaBp,
      stock: products.stock,
      minOrder: products.minOrder,
      active: products.active,
    })
    .from(products)
    .where(inArray(products.id, wanted));
  const images = await firstImagesFor(rows.map((row) => row.id));
  return rows.map((row) => {
    const image = images.get(row.id);
    return { ...row, image: image?.widths.length ? productImageUrl(image.id, image.widths[0]!) : null };
  });
}
