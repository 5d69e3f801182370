import { MAX_PAGE, positiveInt, searchText } from "~/lib/list-params";

// Catalogue search text and URL state, shared by the browser and the server.
//
// Accents are removed in JavaScript on both sides (the stored search document and the query), so
// "lámina", "laminá" and "lamina" meet whatever extensions the PostgreSQL server has.

export const CATALOGUE_PAGE_SIZE = 30;

export const CATALOGUE_SORTS = [
  { value: "relevancia", label: "Relevancia" },
  { value: "precio-asc", label: "Precio: menor a mayor" },
  { value: "precio-desc", label: "Precio: mayor a menor" },
  { value: "nombre", label: "Nombre (A–Z)" },
] as const;

export type CatalogueSort = (typeof CATALOGUE_SORTS)[number]["value"];

export interface CatalogueQuery {
  q: string;
  /** Category slug, e.g. "bridas-maquinadas"; "" for all. */
  category: string;
  sort: CatalogueSort;
  page: number;
}

const MAX_QUERY_LENGTH = 120;

/** Lowercase, without accents or diacritics (NFD, combining marks removed: "ñ" becomes "n"), single spaces. */
export function normalizeSearchText(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();
}

/** Separates the fields in the search document; the name comes first, so relevance can favour it. */
export const SEARCH_FIELD_SEPARATOR = " | ";

/** The stored `search_document`: every searchable field of a product, normalized, the name first. */
export function buildSearchDocument(product: { name: string; sku: string; category: string; shortDescription: string; description: string }): string {
  return [product.name, product.sku, product.category, product.shortDescription, product.description]
    .map((field) => normalizeSearchText(field.replaceAll("|", " ")))
    .join(SEARCH_FIELD_SEPARATOR);
}

/**
 * The plain words of a query for the prefix and substring fallbacks: excluded words ("-acero"),
 * the "or" operator and punctuation are left out; only letters and digits remain.
 */
export function searchTokens(normalizedQuery: string): string[] {
  const tokens: string[] = [];
  for (const word of normalizedQuery.split(" ")) {
    if (!word || word.startsWith("-") || word === "or") continue;
    for (const token of word.match(/[a-z0-9]+/g) ?? []) {
      if (!tokens.includes(token)) tokens.push(token);
    }
  }
  return tokens.slice(0, 8);
}

/** "Bujes y cojinetes" → "bujes-y-cojinetes"; also the slug made from a product's name. */
export function slugify(text: string): string {
  return normalizeSearchText(text)
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/g, "");
}

/** The catalogue's state from the URL: ?q=&categoria=&orden=&pagina=. Anything odd falls back to the default. */
export function parseCatalogueQuery(params: URLSearchParams): CatalogueQuery {
  const sortParam = params.get("orden");
  const sort = CATALOGUE_SORTS.find((option) => option.value === sortParam)?.value ?? "relevancia";
  return {
    q: searchText(params.get("q"), MAX_QUERY_LENGTH) ?? "",
    category: slugify(params.get("categoria") ?? ""),
    sort,
    page: positiveInt(params.get("pagina"), 1, MAX_PAGE),
  };
}

/** The URL of a catalogue view; default values are left out so every view has one address. */
export function catalogueHref(query: Partial<CatalogueQuery>, base = "/catalogo"): string {
  const params = new URLSearchParams();
  if (query.q) params.set("q", query.q);
  if (query.category) params.set("categoria", query.category);
  if (query.sort && query.sort !== "relevancia") params.set("orden", query.sort);
  if (query.page && query.page > 1) params.set("pagina", String(query.page));
  const search = params.toString();
  return search ? `${base}?${search}` : base;
}

// --- the staff list's filters ---

export const STAFF_STATUSES = [
  { value: "todos", label: "Todos" },
  { value: "activos", label: "Activos" },
  { value: "inactivos", label: "Inactivos" },
] as const;

export type StaffStatus = (typeof STAFF_STATUSES)[number]["value"];

export interface StaffProductFilters {
  q: string;
  category: string;
  status: StaffStatus;
  page: number;
}

export function parseStaffProductFilters(params: URLSearchParams): StaffProductFilters {
  const status = STAFF_STATUSES.find((option) => option.value === params.get("estado"))?.value ?? "todos";
  return {
    q: searchText(params.get("q"), MAX_QUERY_LENGTH) ?? "",
    // A category is matched by its exact name, so only the ends are trimmed.
    category: (params.get("categoria") ?? "").trim().slice(0, 60),
    status,
    page: positiveInt(params.get("pagina"), 1, MAX_PAGE),
  };
}
