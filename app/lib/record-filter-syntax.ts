// The vocabulary of PocketBase's filter and sort syntax: limits, operators, macros, the AST and
// the error every refusal throws. Shared by the scanner and the parser (record-filter.ts).

/** PocketBase's own limits (tools/search/provider.go, filter.go) plus a nesting bound of ours. */
export const MAX_FILTER_LENGTH = 3500;
export const MAX_FILTER_DEPTH = 40;
export const MAX_FILTER_EXPRESSIONS = 200;
/** fexpr allows a function inside a function inside a function, no deeper. */
export const MAX_FUNCTION_DEPTH = 3;
export const MAX_SORT_FIELDS = 8;
export const MAX_SORT_FIELD_LENGTH = 255;

/** A filter or sort the caller got wrong: the record API answers 400. `position` is a 0-based offset. */
export class FilterError extends Error {
  readonly position: number | undefined;

  constructor(message: string, position?: number) {
    super(message);
    this.name = "FilterError";
    this.position = position;
  }
}

export const COMPARISON_OPERATORS = [
  "=",
  "!=",
  ">",
  ">=",
  "<",
  "<=",
  "~",
  "!~",
  "?=",
  "?!=",
  "?>",
  "?>=",
  "?<",
  "?<=",
  "?~",
  "?!~",
] as const;
export type ComparisonOperator = (typeof COMPARISON_OPERATORS)[number];

/** The `@` identifiers we resolve; PocketBase has more `@request.*` ones, which we refuse. */
export const FILTER_MACROS = [
  "@now",
  "@yesterday",
  "@tomorrow",
  "@todayStart",
  "@todayEnd",
  "@monthStart",
  "@monthEnd",
  "@yearStart",
  "@yearEnd",
  "@second",
  "@minute",
  "@hour",
  "@day",
  "@month",
  "@weekday",
  "@year",
  "@request.auth.id",
] as const;
export type FilterMacro = (typeof FILTER_MACROS)[number];

export type FilterOperand =
  | { kind: "field"; name: string; position: number }
  | { kind: "macro"; name: FilterMacro; position: number }
  | { kind: "text"; value: string; position: number }
  /** `literal` as written (fexpr keeps it as text; it may exceed a double's precision). */
  | { kind: "number"; literal: string; position: number }
  | { kind: "bool"; value: boolean; position: number }
  | { kind: "null"; position: number }
  | { kind: "function"; name: string; args: FilterOperand[]; position: number };

export interface FilterComparison {
  kind: "comparison";
  left: FilterOperand;
  operator: ComparisonOperator;
  right: FilterOperand;
  position: number;
}

export type FilterNode = FilterComparison | { kind: "and" | "or"; operands: FilterNode[] };

export interface SortField {
  field: string;
  dir: "asc" | "desc";
}
