import type { SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import type { FilterMacro } from "~/lib/record-filter";

// The values side of the record filter compiler (record-filter.server.ts): the allow-list types,
// the constants a filter can hold, PocketBase's date text, numbers, LIKE patterns and the @ macros.

export type RecordFieldType = "text" | "number" | "bool" | "date" | "json-array";

export interface RecordField {
  /** A column, or an SQL expression (a json-array one must be json or jsonb; a date one timestamptz). */
  column: PgColumn | SQL;
  type: RecordFieldType;
}

export type RecordFieldMap = Readonly<Record<string, RecordField>>;

export interface FilterContext {
  /** The id behind `@request.auth.id` (null for a guest, which PocketBase treats as empty). */
  authId: string | null;
  /** The instant behind `@now` and the other date macros (UTC). */
  now: Date;
}

export type ScalarType = "text" | "number" | "bool" | "date";
export type BaseOperator = "=" | "!=" | ">" | ">=" | "<" | "<=" | "~" | "!~";

export type Constant =
  | { kind: "null" }
  | { kind: "text"; value: string }
  | { kind: "number"; literal: string }
  | { kind: "bool"; value: boolean }
  | { kind: "date"; value: Date };


// ---------------------------------------------------------------------------------------------
// Values

const DATE_PATTERN =
  /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * PocketBase's date text ("2026-01-02 03:04:05.000Z"), ISO 8601, or a bare day, as an instant.
 * Null when the text is not a real date in years 1–9999 (it is then compared as text).
 */
export function parseFilterDate(text: string): Date | null {
  const match = DATE_PATTERN.exec(text.trim());
  if (!match) return null;
  const [, y, mo, d, h = "0", mi = "0", s = "0", fraction = "", zone = "Z"] = match;
  const date = new Date(0);
  date.setUTCFullYear(Number(y), Number(mo) - 1, Number(d));
  date.setUTCHours(Number(h), Number(mi), Number(s), Number(fraction.slice(0, 3).padEnd(3, "0")));
  // Reject rollovers such as 2026-02-31 or 25:00.
  if (
    date.getUTCFullYear() !== Number(y) ||
    date.getUTCMonth() !== Number(mo) - 1 ||
    date.getUTCDate() !== Number(d) ||
    date.getUTCHours() !== Number(h) ||
    date.getUTCMinutes() !== Number(mi) ||
    date.getUTCSeconds() !== Number(s)
  ) {
    return null;
  }
  if (zone.toUpperCase() !== "Z") {
    const sign = zone.startsWith("-") ? -1 : 1;
    const digits = zone.slice(1).replace(":", "");
    const hours = Number(digits.slice(0, 2));
    const minutes = Number(digits.slice(2));
    if (hours > 23 || minutes > 59) return null;
    date.setTime(date.getTime() - sign * (hours * 60 + minutes) * 60_000);
  }
  const year = date.getUTCFullYear();
  return year >= 1 && year <= 9999 ? date : null;
}

/** PocketBase's text form of an instant. */
export function formatFilterDate(date: Date): string {
  return date.toISOString().replace("T", " ");
}

export const NUMBER_TEXT = /^-?(?:\d+(?:\.\d*)?|\.\d+)$/;

/** A number as PostgreSQL's numeric input accepts it ("-.5" → "-0.5"). */
export function numericLiteral(literal: string): string {
  return literal.replace(/^(-?)\./, "$10.");
}

/**
 * The ILIKE pattern for a `~` value. `\%`, `\_` and `\\` are the caller's escapes; an unescaped
 * `%` is a wildcard, and without one the value is a contains match. `_` is never a wildcard.
 */
export function likePattern(value: string): string {
  let body = "";
  let hasWildcard = false;
  for (let index = 0; index < value.length; index++) {
    const ch = value[index];
    const next = value[index + 1];
    if (ch === "\\" && (next === "%" || next === "_" || next === "\\")) {
      body += `\\${next}`;
      index++;
    } else if (ch === "%") {
      body += "%";
      hasWildcard = true;
    } else if (ch === "_" || ch === "\\") {
      body += `\\${ch}`;
    } else {
      body += ch;
    }
  }
  return hasWildcard ? body : `%${body}%`;
}

export function macroValue(name: FilterMacro, context: FilterContext): Constant {
  const now = context.now;
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  const d = now.getUTCDate();
  const utc = (year: number, month: number, day: number, h = 0, mi = 0, s = 0, ms = 0) => {
    const date = new Date(0);
    date.setUTCFullYear(year, month, day);
    date.setUTCHours(h, mi, s, ms);
    return { kind: "date", value: date } as const;
  };
  const dayMs = 86_400_000;
  switch (name) {
    case "@now":
      return { kind: "date", value: new Date(now.getTime()) };
    case "@yesterday":
      return { kind: "date", value: new Date(now.getTime() - dayMs) };
    case "@tomorrow":
      return { kind: "date", value: new Date(now.getTime() + dayMs) };
    case "@todayStart":
      return utc(y, m, d);
    case "@todayEnd":
      return utc(y, m, d, 23, 59, 59, 999);
    case "@monthStart":
      return utc(y, m, 1);
    case "@monthEnd":
      return utc(y, m + 1, 0, 23, 59, 59, 999);
    case "@yearStart":
      return utc(y, 0, 1);
    case "@yearEnd":
      return utc(y, 11, 31, 23, 59, 59, 999);
    case "@second":
      return { kind: "number", literal: String(now.getUTCSeconds()) };
    case "@minute":
      return { kind: "number", literal: String(now.getUTCMinutes()) };
    case "@hour":
      return { kind: "number", literal: String(now.getUTCHours()) };
    case "@day":
      return { kind: "number", literal: String(d) };
    case "@month":
      return { kind: "number", literal: String(m + 1) };
    case "@weekday":
      return { kind: "number", literal: String(now.getUTCDay()) };
    case "@year":
      return { kind: "number", literal: String(y) };
    case "@request.auth.id":
      return context.authId === null ? { kind: "null" } : { kind: "text", value: context.authId };
  }
}

export function isEmpty(value: Constant): boolean {
  return value.kind === "null" || (value.kind === "text" && value.value === "");
}

/** The constant as text, for text fields and LIKE patterns; null when it has no text form here. */
export function constantText(value: Constant): string | null {
  switch (value.kind) {
    case "null":
      return "";
    case "text":
      return value.value;
    case "number":
      return value.literal;
    case "date":
      return formatFilterDate(value.value);
    case "bool":
      return null;
  }
}
