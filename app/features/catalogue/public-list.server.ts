import { and, asc, count, desc, eq, sql, type SQL } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { products } from "~/db/schema/catalogue";
import { cardColumns, grossPrice, searchFilter, withImages, type CatalogueCard } from "./product-query.server";
import { CATALOGUE_PAGE_SIZE, slugify, type CatalogueQuery, type CatalogueSort } from "./search";

// The public catalogue at /catalogo: active products only, searched, filtered by category, sorted
// and paged, with the categories that have something to show.

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
