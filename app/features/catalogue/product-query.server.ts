import { and, or, sql, type SQL } from "drizzle-orm";
import { products } from "~/db/schema/catalogue";
import { containsPattern } from "~/lib/sql-like";
import { firstImagesFor } from "./image-views.server";
import type { ProductCardData } from "./components/product-card";
import type { ProductImageView } from "./images";
import { normalizeSearchText, SEARCH_FIELD_SEPARATOR, searchTokens } from "./search";

// SQL pieces the product lists share (the public catalogue and the staff list): the columns of a
// product card, the full-text search and the first image of each row. Prices are net centavos
// plus an IVA rate; pages add the IVA.

/** What a product card shows, plus the row's id. */
export interface CatalogueCard extends ProductCardData {
  id: string;
}

export const cardColumns = {
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

/**
 * One unit's price with IVA in centavos, rounded half up exactly like ~/lib/money's priceWithIva:
 * for sorting the catalogue and for filtering the record API's `precio`.
 */
export const grossPrice = sql<number>`(${products.priceCentavos} + (${products.priceCentavos}::bigint * ${products.ivaBp} * 2 + 10000) / 20000)`;

// The same expression as the GIN index products_search_idx, so PostgreSQL can use it.
const searchVector = sql`to_tsvector('spanish', ${products.searchDocument})`;

/**
 * Full-text search in Spanish over the accent-free search document (stemmed: "buje" finds
 * "bujes"), plus prefixes ("brid" finds "bridas") and, last, plain substrings ("carbonato",
 * part of a SKU). `rank` orders by relevance: whole-word matches first.
 */
export function searchFilter(q: string): { where: SQL; rank: SQL<number> } | null {
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

/** Each row with its first image (or null), for cards and tables. */
export async function withImages<T extends { id: string }>(rows: T[]): Promise<(T & { image: ProductImageView | null })[]> {
  const images = await firstImagesFor(rows.map((row) => row.id));
  return rows.map((row) => ({ ...row, image: images.get(row.id) ?? null }));
}
