import { and, asc, eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { products } from "~/db/schema/catalogue";
import { renderMarkdown } from "~/lib/markdown.server";
import { inlineDrawing, publicModel, type PublicModel } from "./cad/model-files.server";
import { modelOfProduct } from "./cad/model-rows.server";
import { imagesForProduct } from "./image-views.server";
import type { ProductImageView } from "./images";
import { cardColumns, type CatalogueCard } from "./product-query.server";

// A product's public page (/catalogo/<slug>) and the list of those addresses for sitemap.xml.

export interface ProductDetail extends Omit<CatalogueCard, "image"> {
  description: string;
  descriptionHtml: string;
  images: ProductImageView[];
  /** Its CAD model's drawing and downloads, once built (docs/decisions/0025). */
  model: PublicModel | null;
  /** The model's drawing as SVG markup for the page itself, when it could be read (inlineDrawing). */
  drawingSvg: string | null;
  updatedAt: Date;
}

/** A product page: active products only (staff preview inactive ones with includeInactive). Matches the slug without regard to case. */
export async function getProductBySlug(slug: string, options: { includeInactive?: boolean } = {}): Promise<ProductDetail | null> {
  const wanted = slug.trim().toLowerCase();
  if (!wanted || wanted.length > 120) return null;
  const conditions = [eq(products.slug, wanted)];
  if (!options.includeInactive) conditions.push(eq(products.active, true));
  const [row] = await getDb()
    .select({ ...cardColumns, description: products.description, updatedAt: products.updatedAt })
    .from(products)
    .where(and(...conditions))
    .limit(1);
  if (!row) return null;
  const [images, model] = await Promise.all([imagesForProduct(row.id), modelOfProduct(row.id)]);
  const output = model?.output ?? null;
  return {
    ...row,
    descriptionHtml: row.description ? renderMarkdown(row.description) : "",
    images,
    model: publicModel(row.slug, output),
    drawingSvg: await inlineDrawing(output),
  };
}

/** Every active product's address, for sitemap.xml. */
export async function listActiveProductSlugs(): Promise<{ slug: string; updatedAt: Date }[]> {
  return getDb().select({ slug: products.slug, updatedAt: products.updatedAt }).from(products).where(eq(products.active, true)).orderBy(asc(products.slug));
}
