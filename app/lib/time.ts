// Mexico City calendar maths, the one place that names the business's time zone. Instants are
// stored as timestamptz; people think in Mexico City days ("desde", "hasta", "vence mañana").

export const TIME_ZONE = "America/Mexico_City";

const DAY_MS = 24 * 60 * 60 * 1000;
// Built on first use: a formatter with a time zone takes milliseconds to create (more on a phone),
// and most pages that load this module (through the site's config) never format a date.
let isoDayFormat: Intl.DateTimeFormat | undefined;
let yearFormat: Intl.DateTimeFormat | undefined;
let wallClockFormat: Intl.DateTimeFormat | undefined;
const isoDayFmt = () => (isoDayFormat ??= new Intl.DateTimeFormat("en-CA", { timeZone: TIME_ZONE, year: "numeric", month: "2-digit", day: "2-digit" }));
const yearFmt = () => (yearFormat ??= new Intl.DateTimeFormat("en-US", { timeZone: TIME_ZONE, year: "numeric" }));
const wallClockFmt = () =>
  (wallClockFormat ??= new Intl.DateTimeFormat("en-US", {
    timeZone: TIME_ZONE,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }));

function wallClock(instant: Date | number): Record<string, string> {
  return Object.fromEntries(wallClockFmt().formatToParts(new Date(instant)).map((part) => [part.type, part.value]));
}

/** The Mexico City calendar day of an instant, as YYYY-MM-DD. */
export function mexicoCityDay(instant: Date | number = new Date()): string {
  return isoDayFmt().format(new Date(instant));
}

/** The year of an instant in Mexico City (the series of record numbers restart on its 1 January). */
export function mexicoCityYear(instant: Date | number = new Date()): number {
  return Number(yearFmt().format(new Date(instant)));
}

/** True for a real calendar day written YYYY-MM-DD ("2026-02-30" is not one). */
export function isIsoDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const [year, month, day] = value.split("-").map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** A YYYY-MM-DD day moved by whole days. */
export function addDays(day: string, days: number): string {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, date + days)).toISOString().slice(0, 10);
}

/** Milliseconds Mexico City's wall clock is ahead of UTC at this instant (negative: behind). */
function zoneOffsetMs(instant: number): number {
  const parts = wallClock(instant);
  const wall = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  return wall - Math.floor(instant / 1000) * 1000;
}

/** The instant a Mexico City calendar day (YYYY-MM-DD) begins. */
export function startOfMexicoCityDay(day: string): Date {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  const wallMidnight = Date.UTC(year, month - 1, date);
  // Twice: the offset at the guess may differ from the one at the answer on a DST change.
  let instant = wallMidnight - zoneOffsetMs(wallMidnight);
  instant = wallMidnight - zoneOffsetMs(instant);
  return new Date(instant);
}

/** [start, end) instants of a "desde … hasta" filter of whole Mexico City days; "hasta" includes its day. */
export function mexicoCityDayRange(from?: string, to?: string): { start?: Date; end?: Date } {
  return { start: from ? startOfMexicoCityDay(from) : undefined, end: to ? startOfMexicoCityDay(addDays(to, 1)) : undefined };
}

/** Whole calendar days (Mexico City) from `from` to `to`; negative when `to` is earlier. */
export function calendarDaysBetween(from: Date, to: Date): number {
  const day = (value: Date) => Date.parse(`${mexicoCityDay(value)}T00:00:00Z`);
  return Math.round((day(to) - day(from)) / DAY_MS);
}

/** "2026-03-05 14:30" in Mexico City: sortable, and read as a date by spreadsheets. */
export function mexicoCityDateTime(value: Date | null): string {
  if (!value) return "";
  const parts = wallClock(value);
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}
