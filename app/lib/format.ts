// es-MX formatters. Money is integer centavos; time is shown in America/Mexico_City.

import { TIME_ZONE } from "./time";

const mxn = new Intl.NumberFormat("es-MX", { style: "currency", currency: "MXN" });
const integer = new Intl.NumberFormat("es-MX");
const dateFmt = new Intl.DateTimeFormat("es-MX", { dateStyle: "long", timeZone: TIME_ZONE });
const dateTimeFmt = new Intl.DateTimeFormat("es-MX", { dateStyle: "medium", timeStyle: "short", timeZone: TIME_ZONE });

export function formatMoney(centavos: number): string {
  if (!Number.isInteger(centavos)) throw new TypeError("Money must be an integer number of centavos");
  return mxn.format(centavos / 100);
}

export function formatNumber(value: number): string {
  return integer.format(value);
}

/** A file's size as people read it: "820 KB", "3.4 MB" (never "0 MB"; a non-empty file is at least 1 KB). */
export function formatFileSize(bytes: number): string {
  const kilobytes = bytes <= 0 ? 0 : Math.max(1, Math.round(bytes / 1024));
  if (kilobytes < 1024) return `${integer.format(kilobytes)} KB`;
  return `${(bytes / (1024 * 1024)).toLocaleString("es-MX", { maximumFractionDigits: 1 })} MB`;
}

export function formatDate(value: Date | string): string {
  return dateFmt.format(new Date(value));
}

export function formatDateTime(value: Date | string): string {
  return dateTimeFmt.format(new Date(value));
}

/**
 * Closes a sentence with one period. es-MX times end in one already ("2:30 p.m."), so a literal "."
 * after a formatted time would print "p.m..".
 */
export function endSentence(text: string): string {
  return /[.!?…]$/.test(text.trimEnd()) ? text.trimEnd() : `${text.trimEnd()}.`;
}

/** Human-readable record number, e.g. ("COT", 2026, 1) → "COT-2026-0001". */
export function formatRecordNumber(prefix: "COT" | "SOL" | "PED", year: number, sequence: number): string {
  return `${prefix}-${year}-${String(sequence).padStart(4, "0")}`;
}
