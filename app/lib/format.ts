// es-MX formatters. Money is integer centavos; time is shown in America/Mexico_City.

import { TIME_ZONE } from "./time";

// Built on first use. The first Intl formatter a page creates loads the browser's locale data
// (10–30 ms of one task here, more on a phone), so money and whole numbers, which every catalogue
// page shows while it hydrates, are written out below instead; the formatters stay for the rest.
let mxnFormat: Intl.NumberFormat | undefined;
let integerFormat: Intl.NumberFormat | undefined;
let dateFormat: Intl.DateTimeFormat | undefined;
let dateTimeFormat: Intl.DateTimeFormat | undefined;
const mxn = () => (mxnFormat ??= new Intl.NumberFormat("es-MX", { style: "currency", currency: "MXN" }));
const integer = () => (integerFormat ??= new Intl.NumberFormat("es-MX"));
const dateFmt = () => (dateFormat ??= new Intl.DateTimeFormat("es-MX", { dateStyle: "long", timeZone: TIME_ZONE }));
const dateTimeFmt = () => (dateTimeFormat ??= new Intl.DateTimeFormat("es-MX", { dateStyle: "medium", timeStyle: "short", timeZone: TIME_ZONE }));

/** "1234567" → "1,234,567", as es-MX groups the digits of a whole number (format.test.ts checks it against Intl). */
function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

export function formatMoney(centavos: number): string {
  if (!Number.isInteger(centavos)) throw new TypeError("Money must be an integer number of centavos");
  if (!Number.isSafeInteger(centavos)) return mxn().format(centavos / 100);
  const abs = Math.abs(centavos);
  return `${centavos < 0 ? "-" : ""}$${groupThousands(String(Math.floor(abs / 100)))}.${String(abs % 100).padStart(2, "0")}`;
}

export function formatNumber(value: number): string {
  if (!Number.isSafeInteger(value)) return integer().format(value);
  return `${value < 0 ? "-" : ""}${groupThousands(String(Math.abs(value)))}`;
}

/** «1 intento», «3 intentos», «1,500 archivos»: a count with its noun in the right number. */
export function formatCount(count: number, one: string, many: string): string {
  return `${formatNumber(count)} ${count === 1 ? one : many}`;
}

/** «1 día hábil», «5 días hábiles»: a quote's lead time. */
export const formatWorkingDays = (days: number) => formatCount(days, "día hábil", "días hábiles");

/** A file's size as people read it: "820 KB", "3.4 MB" (never "0 MB"; a non-empty file is at least 1 KB). */
export function formatFileSize(bytes: number): string {
  const kilobytes = bytes <= 0 ? 0 : Math.max(1, Math.round(bytes / 1024));
  if (kilobytes < 1024) return `${formatNumber(kilobytes)} KB`;
  return `${(bytes / (1024 * 1024)).toLocaleString("es-MX", { maximumFractionDigits: 1 })} MB`;
}

export function formatDate(value: Date | string): string {
  return dateFmt().format(new Date(value));
}

let calendarFmt: Intl.DateTimeFormat | undefined;

/** A date without a time ("2026-12-10", a required-by date): that calendar day, never shifted by a time zone. */
export function formatCalendarDate(value: string): string {
  calendarFmt ??= new Intl.DateTimeFormat("es-MX", { dateStyle: "long", timeZone: "UTC" });
  return calendarFmt.format(new Date(`${value}T00:00:00Z`));
}

export function formatDateTime(value: Date | string): string {
  return dateTimeFmt().format(new Date(value));
}

/**
 * Closes a sentence with one period. es-MX times end in one already ("2:30 p.m."), so a literal "."
 * after a formatted time would print "p.m..".
 */
export function endSentence(text: string): string {
  return /[.!?…]$/.test(text.trimEnd()) ? text.trimEnd() : `${text.trimEnd()}.`;
}

/**
 * A clock time after «a» or «desde» with its article: «a las 2:30 p.m.», but «a la 1:05 p.m.» (la
 * una, las dos…). `time` as the es-MX short time format writes it.
 */
export function atTime(preposition: "a" | "desde", time: string): string {
  return `${preposition} ${/^1:/.test(time.trim()) ? "la" : "las"} ${time}`;
}

/** Human-readable record number, e.g. ("COT", 2026, 1) → "COT-2026-0001". */
export function formatRecordNumber(prefix: "COT" | "SOL" | "PED", year: number, sequence: number): string {
  return `${prefix}-${year}-${String(sequence).padStart(4, "0")}`;
}

/** Characters a file name may carry that would hide or reorder what people see: controls and bidi overrides/isolates. */
const HIDDEN_NAME_CHARS = /[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/** A stored file name as it may be shown or sent: without control characters or bidi controls (an RTL override can fake the extension). */
export function visibleFileName(name: string): string {
  return name.replace(HIDDEN_NAME_CHARS, "").trim();
}

/** At most `max` whole characters, the extension kept: a name clipped for storing or sending. */
export function clipFileName(name: string, max: number): string {
  const chars = Array.from(name);
  if (chars.length <= max) return name;
  const dot = chars.lastIndexOf(".");
  const extension = dot > 0 && chars.length - dot <= 12 && chars.length - dot < max / 2 ? chars.slice(dot) : [];
  return [...chars.slice(0, max - extension.length), ...extension].join("");
}

/**
 * A file name shortened for a list: at most `max` characters, cut in the middle with "…" and the
 * extension kept ("plano-de-la-ménsula…rev-2.step"). Whole characters, never half of one. Show the
 * full visibleFileName in a title or aria attribute.
 */
export function shortFileName(name: string, max = 60): string {
  const chars = Array.from(visibleFileName(name));
  if (chars.length <= max) return chars.join("");
  const dot = chars.lastIndexOf(".");
  // A real extension: short, after something, and leaving room for the name around the ellipsis.
  const extension = dot > 0 && chars.length - dot <= 12 && chars.length - dot < max / 2 ? chars.slice(dot) : [];
  const stem = chars.slice(0, chars.length - extension.length);
  const room = Math.max(2, max - 1 - extension.length);
  const head = Math.ceil(room / 2);
  const tail = room - head;
  return [...stem.slice(0, head), "…", ...(tail > 0 ? stem.slice(-tail) : []), ...extension].join("");
}
