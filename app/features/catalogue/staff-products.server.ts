import { and, asc, count, desc, eq, type SQL } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { products } from "~/db/schema/catalogue";
import { isUuid } from "~/lib/uuid";
import { publicModel, type PublicModel } from "./cad/model-files.server";
import { modelOfProduct, type ProductModelView } from "./cad/model-rows.server";
import { imagesForProduct } from "./image-views.server";
import type { ProductImageView } from "./images";
import { cardColumns, searchFilter, withImages, type CatalogueCard } from "./product-query.server";
import { CATALOGUE_PAGE_SIZE, type StaffProductFilters } from "./search";

// What the staff see of products: /admin/productos (every product, active or not) and the product
// screen's data. Staff only: the routes check it.

export interface StaffProductRow extends CatalogueCard {
  active: boolean;
  updatedAt: Date;
}

/** Every product, active or not, for /admin/productos: search, category (by name), status, 30 per page. */
export async function listProductsForStaff(filters: StaffProductFilters): Promise<{ rows: StaffProductRow[]; total: number; pages: number; categories: string[] }> {
  const conditions: SQL[] = [];
  if (filters.status === "activos") conditions.push(eq(products.active, true));
  if (filters.status === "inactivos") conditions.push(eq(products.active, false));
  if (filters.category) conditions.push(eq(products.category, filters.category));
  const search = searchFilter(filters.q);
  if (search) conditions.push(search.where);
  const where = conditions.length ? and(...conditions) : undefined;
  const rows = await getDb()
    .select({ ...cardColumns, active: products.active, updatedAt: products.updatedAt })
    .from(products)
    .where(where)
    .orderBy(...(search ? [desc(search.rank), asc(products.name)] : [asc(products.name), asc(products.sku)]))
    .limit(CATALOGUE_PAGE_SIZE)
    .offset((filters.page - 1) * CATALOGUE_PAGE_SIZE);
  const [counted] = await getDb().select({ n: count() }).from(products).where(where);
  const categories = await listCategoryNames();
  const total = Number(counted?.n ?? 0);
  return { rows: await withImages(rows), total, pages: Math.ceil(total / CATALOGUE_PAGE_SIZE), categories };
}

/** Every category in use (active or not), for the staff's filter and the form's suggestions. */
export async function listCategoryNames(): Promise<string[]> {
  const rows = await getDb().selectDistinct({ name: products.category }).from(products).orderBy(asc(products.category));
  return rows.map((row) => row.name);
}

export interface StaffProduct {
  id: string;
  slug: string;
  sku: string;
  name: string;
  category: string;
  shortDescription: string;
  description: string;
  priceCentavos: number;
  ivaBp: number;
  unit: string;
  stock: number;
  minOrder: number;
  active: boolean;
  createdAt: Date;
  updatedAt: Date;
  images: ProductImageView[];
  /** Its CAD model: how it stands and, once built, its drawing and downloads. */
  model: StaffModel | null;
}

export interface StaffModel {
  status: ProductModelView["status"];
  reason: string | null;
  source: ProductModelView["source"];
  sourceName: string | null;
  material: string;
  files: PublicModel | null;
}

export async function getProductForStaff(id: string): Promise<StaffProduct | null> {
  if (!isUuid(id)) return null;
  const [row] = await getDb()
    .select({
      ...cardColumns,
      description: products.description,
      active: products.active,
      createdAt: products.createdAt,
      updatedAt: products.updatedAt,
    })
    .from(products)
    .where(eq(products.id, id))
    .limit(1);
  if (!row) return null;
  const [images, model] = await Promise.all([imagesForProduct(row.id), modelOfProduct(row.id)]);
  return {
    ...row,
    images,
    model: model ? { status: model.status, reason: model.reason, source: model.source, sourceName: model.sourceName, material: model.material, files: publicModel(row.slug, model.output) } : null,
  };
}

/** What the staff product screen needs: the product (null for a new one) and the categories in use. Null when the id names no product. */
export async function getProductEditor(id: string | null): Promise<{ product: StaffProduct | null; categories: string[] } | null> {
  const product = id === null ? null : await getProductForStaff(id);
  if (id !== null && !product) return null;
  return { product, categories: await listCategoryNames() };
}
