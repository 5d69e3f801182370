import { inArray } from "drizzle-orm";
import { getDb, type DbTransaction } from "~/db/client.server";
import { products } from "~/db/schema/catalogue";

// TEMPORARY: the catalogue feature owns products and will export getProductsForCart(ids) from
// ~/features/catalogue/products.server with this same shape. Until it lands, the cart reads the
// few columns it needs here; switch the import in cart.server.ts and delete this file then.

export interface CartProductImage {
  src: string;
  alt: string;
  width: number;
  height: number;
}

export interface CartProduct {
  id: string;
  slug: string;
  sku: string;
  name: string;
  unit: string;
  /** Net (before IVA), centavos. */
  priceCentavos: number;
  ivaBp: number;
  stock: number;
  minOrder: number;
  active: boolean;
  image: CartProductImage | null;
}

export async function getProductsForCart(ids: string[], db: DbTransaction | ReturnType<typeof getDb> = getDb()): Promise<CartProduct[]> {
  if (ids.length === 0) return [];
  const rows = await db
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
    .where(inArray(products.id, ids));
  // Image URLs are the catalogue's to define (it serves the resized variants); none until then.
  return rows.map((row) => ({ ...row, image: null }));
}
