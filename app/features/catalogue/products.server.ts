import { and, asc, count, desc, eq, inArray, ne, or, sql, type SQL } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { products } from "~/db/schema/catalogue";
import { renderMarkdown } from "~/lib/markdown.server";
import { containsPattern } from "~/lib/sql-like";
import { imagesForProduct, firstImagesFor } from "./images.server";
import { productImageUrl, type ProductImageView } from "./images";
import type { ProductValues } from "./forms";
import { buildSearchDocument, CATALOGUE_PAGE_SIZE, normalizeSearchText, SEARCH_FIELD_SEPARATOR, searchTokens, slugify, type CatalogueQuery, type CatalogueSort, type StaffProductFilters } from "./search";

// Products: the public catalogue (active items only), the staff's list and commands, and the
// small read the cart needs. Prices are net centavos plus an IVA rate; pages add the IVA.

export interface CatalogueCard {
  id: string;
  slug: string;
  sku: string;
  name: string;
  category: string;
  shortDescription: string;
  priceCentavos: number;
  ivaBp: number;
  unit: string;
  stock: number;
  minOrder: number;
  image: ProductImageView | null;
}

export interface CategorySummary {
  name: string;
  slug: string;
  count: number;
}

export interface CatalogueListing {
  query: CatalogueQuery;
  products: CatalogueCard[];
  total: number;
  pages: number;
  categories: CategorySummary[];
  /** The category the URL asked for, when it exists. */
  category: CategorySummary | null;
}

export interface ProductDetail extends Omit<CatalogueCard, "image"> {
  description: string;
  descriptionHtml: string;
  images: ProductImageView[];
  updatedAt: Date;
}

const cardColumns = {
  id: products.id,
  slug: products.slug,
  sku: products.sku,
  name: products.name,
  category: products.category,
  shortDescription: products.shortDescription,
  priceCentavos: products.priceCentavos,
  ivaBp: products.ivaBp,
  unit: products.unit,
  stock: products.stock,
  minOrder: products.minOrder,
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isProductId(value: string): boolean {
  return UUID.test(value);
}

// --- search ---------------------------------------------------------------------------------

// The same expression as the GIN index products_search_idx, so PostgreSQL can use it.
const searchVector = sql`to_tsvector('spanish', ${products.searchDocument})`;

/**
 * Full-text search in Spanish over the accent-free search document (stemmed: "buje" finds
 * "bujes"), plus prefixes ("brid" finds "bridas") and, last, plain substrings ("carbonato",
 * part of a SKU). `rank` orders by relevance: whole-word matches first.
 */
function searchFilter(q: string): { where: SQL; rank: SQL<number> } | null {
  const normalized = normalizeSearchText(q);
  const tokens = searchTokens(normalized);
  if (!normalized || tokens.length === 0) return null;
  const words = sql`websearch_to_tsquery('spanish', ${normalized})`;
  const prefixes = sql`to_tsquery('spanish', ${tokens.map((token) => `${token}:*`).join(" & ")})`;
  const substrings = tokens.filter((token) => token.length >= 2).map((token) => sql`${products.searchDocument} like ${containsPattern(token)}`);
  const matches = [sql`${searchVector} @@ ${words}`, sql`${searchVector} @@ ${prefixes}`];
  if (substrings.length) matches.push(and(...substrings)!);
  // Matches in the name (the document's first field) count three times as much as elsewhere.
  const nameVector = sql`to_tsvector('spanish', split_part(${products.searchDocument}, ${SEARCH_FIELD_SEPARATOR}, 1))`;
  return {
    where: or(...matches)!,
    rank: sql<number>`(ts_rank(${searchVector}, ${words}) * 2 + ts_rank(${searchVector}, ${prefixes}) + ts_rank(${nameVector}, ${words}) * 6 + ts_rank(${nameVector}, ${prefixes}) * 3)`,
  };
}

/** One unit's price with IVA, rounded half up like ~/lib/money's priceWithIva, for sorting. */
const grossPrice = sql`(${products.priceCentavos} + (${products.priceCentavos}::bigint * ${products.ivaBp} * 2 + 10000) / 20000)`;

function orderFor(sort: CatalogueSort, rank: SQL<number> | null): SQL[] {
  switch (sort) {
    case "precio-asc":
      return [asc(grossPrice), asc(products.name)];
    case "precio-desc":
      return [desc(grossPrice), asc(products.name)];
    case "nombre":
      return [asc(products.name), asc(products.sku)];
    case "relevancia":
      return rank ? [desc(rank), asc(products.name)] : [asc(products.category), asc(products.name)];
  }
}

async function withImages<T extends { id: string }>(rows: T[]): Promise<(T & { image: ProductImageView | null })[]> {
  const images = await firstImagesFor(rows.map((row) => row.id));
  return rows.map((row) => ({ ...row, image: images.get(row.id) ?? null }));
}

/** Active products' categories with how many active products each has, by name. */
export async function listCategories(): Promise<CategorySummary[]> {
  const rows = await getDb()
    .select({ name: products.category, count: count() })
    .from(products)
    .where(eq(products.active, true))
    .groupBy(products.category)
    .orderBy(asc(products.category));
  return rows.map((row) => ({ name: row.name, slug: slugify(row.name), count: Number(row.count) }));
}

/** The public catalogue: active products, searched, filtered by category slug (or name), sorted, 30 per page. */
export async function listProducts(input: Partial<CatalogueQuery> = {}): Promise<CatalogueListing> {
  const query: CatalogueQuery = {
    q: input.q?.trim() ?? "",
    category: input.category ? slugify(input.category) : "",
    sort: input.sort ?? "relevancia",
    page: Math.max(1, Math.floor(input.page ?? 1)),
  };
  const categories = await listCategories();
  const category = query.category ? (categories.find((candidate) => candidate.slug === query.category) ?? null) : null;
  if (query.category && !category) return { query, products: [], total: 0, pages: 0, categories, category: null };

  const search = searchFilter(query.q);
  const conditions = [eq(products.active, true)];
  if (category) conditions.push(eq(products.category, category.name));
  if (search) conditions.push(search.where);
  const where = and(...conditions);

  const rows = await getDb()
    .select({ ...cardColumns, total: sql<number>`count(*) over ()` })
    .from(products)
    .where(where)
    .orderBy(...orderFor(query.sort, search?.rank ?? null))
    .limit(CATALOGUE_PAGE_SIZE)
    .offset((query.page - 1) * CATALOGUE_PAGE_SIZE);

  // Past the last page there is no row to carry the window count.
  const total = rows.length ? Number(rows[0]!.total) : query.page > 1 ? Number((await getDb().select({ n: count() }).from(products).where(where))[0]?.n ?? 0) : 0;
  const cards = await withImages(rows.map(({ total: _total, ...card }) => card));
  return { query, products: cards, total, pages: Math.ceil(total / CATALOGUE_PAGE_SIZE), categories, category };
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
  return { ...row, descriptionHtml: row.description ? renderMarkdown(row.description) : "", images: await imagesForProduct(row.id) };
}

// --- the cart's view ------------------------------------------------------------------------

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
  const wanted = [...new Set(ids.filter(isProductId).map((id) => id.toLowerCase()))];
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

// --- staff ----------------------------------------------------------------------------------

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
}

export async function getProductForStaff(id: string): Promise<StaffProduct | null> {
  if (!isProductId(id)) return null;
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
  return { ...row, images: await imagesForProduct(row.id) };
}

export type ProductFieldErrors = Partial<Record<keyof ProductValues, string[]>>;

export type SaveProductResult = { ok: true; id: string; slug: string } | { ok: false; status: 400 | 404; fieldErrors: ProductFieldErrors; formErrors?: string[] };

const SKU_TAKEN = (sku: string) => `Ya existe otro producto con el SKU ${sku}. Cada SKU debe ser único.`;
const SLUG_TAKEN = (slug: string) => `La dirección /catalogo/${slug} ya es de otro producto. Elija otra o deje el campo vacío para generarla del nombre.`;

function rowValues(input: ProductValues, slug: string) {
  return {
    slug,
    sku: input.sku,
    name: input.name,
    category: input.category,
    shortDescription: input.shortDescription,
    description: input.description,
    priceCentavos: input.price,
    ivaBp: input.ivaBp,
    unit: input.unit,
    stock: input.stock,
    minOrder: input.minOrder,
    active: input.active,
    searchDocument: buildSearchDocument({ ...input, sku: input.sku }),
  };
}

/** A free slug made from the name: "brida-slip-on", then "brida-slip-on-2", … */
async function freeSlugFor(name: string, exceptId: string | null): Promise<string> {
  const base = slugify(name) || "producto";
  const taken = new Set(
    (
      await getDb()
        .select({ slug: products.slug })
        .from(products)
        .where(and(sql`${products.slug} like ${`${base.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`, exceptId ? ne(products.id, exceptId) : undefined))
    ).map((row) => row.slug),
  );
  if (!taken.has(base)) return base;
  for (let n = 2; ; n += 1) {
    const candidate = `${base.slice(0, 75)}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}

async function uniquenessErrors(input: { sku: string; slug: string | null }, exceptId: string | null): Promise<ProductFieldErrors> {
  const clash = await getDb()
    .select({ sku: products.sku, slug: products.slug })
    .from(products)
    .where(and(or(eq(products.sku, input.sku), input.slug ? eq(products.slug, input.slug) : undefined), exceptId ? ne(products.id, exceptId) : undefined));
  const errors: ProductFieldErrors = {};
  if (clash.some((row) => row.sku === input.sku)) errors.sku = [SKU_TAKEN(input.sku)];
  if (input.slug && clash.some((row) => row.slug === input.slug)) errors.slug = [SLUG_TAKEN(input.slug)];
  return errors;
}

/** Which unique constraint a failed insert or update broke (two saves at once), if any. */
function uniqueViolation(error: unknown): "sku" | "slug" | null {
  for (let current: unknown = error; current && typeof current === "object"; current = (current as { cause?: unknown }).cause) {
    const { code, constraint, message } = current as { code?: string; constraint?: string; message?: string };
    if (code === "23505") {
      const name = `${constraint ?? ""} ${message ?? ""}`;
      return name.includes("products_sku") ? "sku" : name.includes("products_slug") ? "slug" : null;
    }
  }
  return null;
}

async function save(input: ProductValues, id: string | null): Promise<SaveProductResult> {
  const slug = input.slug || (await freeSlugFor(input.name, id));
  const errors = await uniquenessErrors({ sku: input.sku, slug: input.slug ?? null }, id);
  if (Object.keys(errors).length) return { ok: false, status: 400, fieldErrors: errors };
  try {
    if (id) {
      const [row] = await getDb()
        .update(products)
        .set({ ...rowValues(input, slug), updatedAt: new Date() })
        .where(eq(products.id, id))
        .returning({ id: products.id, slug: products.slug });
      if (!row) return { ok: false, status: 404, fieldErrors: {}, formErrors: ["Este producto ya no existe."] };
      return { ok: true, ...row };
    }
    const [row] = await getDb().insert(products).values(rowValues(input, slug)).returning({ id: products.id, slug: products.slug });
    return { ok: true, ...row! };
  } catch (error) {
    const field = uniqueViolation(error);
    if (field === "sku") return { ok: false, status: 400, fieldErrors: { sku: [SKU_TAKEN(input.sku)] } };
    if (field === "slug") return { ok: false, status: 400, fieldErrors: { slug: [SLUG_TAKEN(slug)] } };
    throw error;
  }
}

/** A new product from the staff form's validated values; SKU and slug clashes come back as Spanish field errors. */
export function createProduct(input: ProductValues): Promise<SaveProductResult> {
  return save(input, null);
}

export function updateProduct(id: string, input: ProductValues): Promise<SaveProductResult> {
  if (!isProductId(id)) return Promise.resolve({ ok: false, status: 404, fieldErrors: {}, formErrors: ["Este producto ya no existe."] });
  return save(input, id);
}

/** Deactivated products leave the catalogue and the image URLs, and stay for orders that name them. */
export async function setProductActive(id: string, active: boolean): Promise<boolean> {
  if (!isProductId(id)) return false;
  const updated = await getDb().update(products).set({ active, updatedAt: new Date() }).where(eq(products.id, id)).returning({ id: products.id });
  return updated.length > 0;
}

/** What the staff product screen needs: the product (null for a new one) and the categories in use. Null when the id names no product. */
export async function getProductEditor(id: string | null): Promise<{ product: StaffProduct | null; categories: string[] } | null> {
  const product = id === null ? null : await getProductForStaff(id);
  if (id !== null && !product) return null;
  return { product, categories: await listCategoryNames() };
}

/** Every active product's address, for sitemap.xml. */
export async function listActiveProductSlugs(): Promise<{ slug: string; updatedAt: Date }[]> {
  return getDb().select({ slug: products.slug, updatedAt: products.updatedAt }).from(products).where(eq(products.active, true)).orderBy(asc(products.slug));
}
