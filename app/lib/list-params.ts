// The one reader of list parameters in a URL (page, page size, sort, direction, a search text, a
// day range). Every staff list, the catalogue and the record API read them here, so "?pagina=abc"
// or "?porPagina=99999" means the same thing everywhere: a shared link always opens, a bad or
// stale value falls back to its default or is clamped, never an error. No zod here: the public
// catalogue reads its URL with these in the browser; the zod fields for filter schemas are in
// list-fields.ts.

export const MAX_PAGE = 100_000;

/** A whole number ≥ 1 from a URL value; `fallback` when missing or not one; at most `max`. */
export function positiveInt(value: string | null | undefined, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  if (value == null || !/^\s*\d+\s*$/.test(value)) return fallback;
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed) || parsed < 1) return fallback;
  return Math.min(parsed, max);
}

export interface ListParamNames {
  page: string;
  perPage: string;
  sort: string;
  dir: string;
}

/** The site's URLs speak Spanish; the record API uses PocketBase's names (page, perPage, sort). */
export const SPANISH_LIST_PARAMS: ListParamNames = { page: "pagina", perPage: "porPagina", sort: "orden", dir: "dir" };

export interface ListParamsOptions<Sort extends string> {
  names?: ListParamNames;
  perPage?: { default: number; max: number };
  sorts?: readonly Sort[];
  defaultSort?: Sort;
  maxPage?: number;
}

export interface ListParams<Sort extends string> {
  page: number;
  perPage: number;
  sort: Sort | undefined;
  dir: "asc" | "desc" | undefined;
  /** Rows to skip for this page. */
  offset: number;
}

export function parseListParams<Sort extends string = never>(params: URLSearchParams, options: ListParamsOptions<Sort> = {}): ListParams<Sort> {
  const names = options.names ?? SPANISH_LIST_PARAMS;
  const perPageRule = options.perPage ?? { default: 30, max: 500 };
  const page = positiveInt(params.get(names.page), 1, options.maxPage ?? MAX_PAGE);
  const perPage = positiveInt(params.get(names.perPage), perPageRule.default, perPageRule.max);
  const sortParam = params.get(names.sort);
  const sort = options.sorts?.find((candidate) => candidate === sortParam) ?? options.defaultSort;
  const dirParam = params.get(names.dir);
  const dir = dirParam === "asc" || dirParam === "desc" ? dirParam : undefined;
  return { page, perPage, sort, dir, offset: (page - 1) * perPage };
}

/** Number of pages for a total; at least one, so "página 1 de 1" reads right on an empty list. */
export function pageCount(total: number, perPage: number): number {
  return Math.max(1, Math.ceil(total / perPage));
}

/** A free-text search box: trimmed, inner spaces collapsed, at most `max` characters; "" → undefined. */
export function searchText(value: string | null | undefined, max = 200): string | undefined {
  return value?.replace(/\s+/g, " ").trim().slice(0, max) || undefined;
}
