import { z } from "~/lib/zod";
import { MAX_PAGE, positiveInt, searchText } from "./list-params";
import { isIsoDay } from "./time";

// zod pieces for filter schemas that read URLSearchParams through Object.fromEntries, built on the
// readers of list-params.ts (kept apart so that a page using only those does not load zod).

/** ?pagina= as a zod field: 1 when missing or bad. */
export const pageField = (max = MAX_PAGE) => z.string().optional().transform((value) => positiveInt(value, 1, max));

/** ?porPagina= as a zod field: the default when missing or bad, clamped to [1, max]. */
export const perPageField = (rule: { default: number; max: number }) =>
  z.string().optional().transform((value) => (value != null && /^\s*-?\d+\s*$/.test(value) ? Math.min(rule.max, Math.max(1, Number(value))) : rule.default));

/** A YYYY-MM-DD day; dropped when it is not a real day. */
export const isoDayField = z
  .string()
  .optional()
  .transform((value) => (value && isIsoDay(value) ? value : undefined));

/** A search box; dropped when empty. */
export const searchField = (max = 200) => z.string().optional().transform((value) => searchText(value, max));

/** One of a fixed set of values; dropped when it is anything else. */
export const optionalEnumField = <T extends string>(allowed: readonly T[]) =>
  z
    .string()
    .optional()
    .transform((value) => (allowed as readonly string[]).includes(value ?? "") ? (value as T) : undefined);
