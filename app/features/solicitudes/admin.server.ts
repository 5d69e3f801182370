import fs from "node:fs";
import { and, asc, count, desc, eq, gte, ilike, isNotNull, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import { containsPattern } from "~/lib/sql-like";
import { z } from "zod";
import { createLiveCache } from "~/db/change-feed.server";
import { getDb } from "~/db/client.server";
import { user } from "~/db/schema/auth";
import { solicitudEvents, solicitudFiles, solicitudes, type SolicitudEstimate, type SolicitudStatus, type SolicitudType } from "~/db/schema/solicitudes";
import { absoluteStoragePath } from "~/services/files/storage.server";
import { logger } from "~/lib/logger.server";
import { mexicoCityDay } from "~/lib/time";
import {
  CERTIFICATE_OPTIONS,
  INDUSTRY_OPTIONS,
  SERVICE_OPTIONS,
  SOLICITUD_STATUSES,
  SOLICITUD_TYPES,
  TOLERANCE_OPTIONS,
} from "./forms";

// What the staff do with solicitudes: find them (filters held in the URL), read one, move it
// through its states, annotate it, download its files and export the current view as CSV.

const TIME_ZONE = "America/Mexico_City";

export const DEFAULT_PER_PAGE = 30;
export const MAX_PER_PAGE = 500;
export const CSV_BATCH_SIZE = 500;

// ---------------------------------------------------------------------------------------------
// Filters: URL search params → a complete, valid filter object. A shared link must always open,
// so a bad or stale value is dropped (or clamped) instead of failing the page.

const values = <T extends readonly { value: string }[]>(options: T) => options.map((option) => option.value) as [T[number]["value"], ...T[number]["value"][]];

const isoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine((value) => {
    const [year, month, day] = value.split("-").map(Number);
    const date = new Date(Date.UTC(year, month - 1, day));
    return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  })
  .optional()
  .catch(undefined);

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/** URL parameters of /admin/formularios (and its CSV export), in Spanish like the rest of the URL. */
export const SolicitudFiltersSchema = z
  .object({
    pagina: z.coerce.number().int().min(1).max(1_000_000).catch(1),
    porPagina: z.coerce
      .number()
      .int()
      .catch(DEFAULT_PER_PAGE)
      .transform((value) => clamp(value, 1, MAX_PER_PAGE)),
    orden: z.enum(["fecha", "estado"]).catch("fecha"),
    dir: z.enum(["asc", "desc"]).optional().catch(undefined),
    tipo: z.enum(values(SOLICITUD_TYPES)).optional().catch(undefined),
    estado: z.enum(values(SOLICITUD_STATUSES)).optional().catch(undefined),
    industria: z.enum(values(INDUSTRY_OPTIONS)).optional().catch(undefined),
    desde: isoDay,
    hasta: isoDay,
    q: z
      .string()
      .optional()
      .catch(undefined)
      .transform((value) => value?.trim().slice(0, 200) || undefined),
    sinTotal: z.string().optional().catch(undefined),
  })
  .transform((raw) => ({
    page: raw.pagina,
    perPage: raw.porPagina,
    sort: raw.orden,
    // Newest first by date; workflow order (nuevo first) by status.
    dir: raw.dir ?? (raw.orden === "fecha" ? "desc" : "asc"),
    type: raw.tipo as SolicitudType | undefined,
    status: raw.estado as SolicitudStatus | undefined,
    industry: raw.industria,
    from: raw.desde,
    to: raw.hasta,
    q: raw.q,
    skipTotal: raw.sinTotal === "1",
  }));

export type SolicitudFilters = z.output<typeof SolicitudFiltersSchema>;

export function parseSolicitudFilters(params: URLSearchParams): SolicitudFilters {
  return SolicitudFiltersSchema.parse(Object.fromEntries(params));
}

// ---------------------------------------------------------------------------------------------
// Mexico City calendar days → instants.

const zoneParts = new Intl.DateTimeFormat("en-US", {
  timeZone: TIME_ZONE,
  hourCycle: "h23",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
});

/** Milliseconds Mexico City's wall clock is ahead of UTC at this instant (negative: behind). */
function zoneOffsetMs(instant: number): number {
  const parts = Object.fromEntries(zoneParts.formatToParts(new Date(instant)).map((part) => [part.type, part.value]));
  const wall = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  return wall - Math.floor(instant / 1000) * 1000;
}

/** The instant a Mexico City calendar day (YYYY-MM-DD) begins. */
export function startOfMexicoCityDay(day: string): Date {
  const [year, month, date] = day.split("-").map(Number);
  const wallMidnight = Date.UTC(year, month - 1, date);
  // Twice: the offset at the guess may differ from the one at the answer on a DST change.
  let instant = wallMidnight - zoneOffsetMs(wallMidnight);
  instant = wallMidnight - zoneOffsetMs(instant);
  return new Date(instant);
}

function addDays(day: string, days: number): string {
  const [year, month, date] = day.split("-").map(Number);
  return new Date(Date.UTC(year, month - 1, date + days)).toISOString().slice(0, 10);
}

const csvDateTime = new Intl.DateTimeFormat("en-CA", {
  timeZone: TIME_ZONE,
  hourCycle: "h23",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
});

/** "2026-03-05 14:30" in Mexico City: sortable, and read as a date by spreadsheets. */
function formatCsvDateTime(value: Date | null): string {
  if (!value) return "";
  const parts = Object.fromEntries(csvDateTime.formatToParts(value).map((part) => [part.type, part.value]));
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}

// ---------------------------------------------------------------------------------------------
// Listing.

const STATUS_ORDER = SOLICITUD_STATUSES.map((status) => status.value);
// Constants of this module (no user input), so inlining them is safe.
const statusRank = sql<number>`array_position(${sql.raw(`array[${STATUS_ORDER.map((s) => `'${s}'`).join(",")}]::text[]`)}, ${solicitudes.status})`;

// Spelled out: Drizzle leaves columns unqualified in one-table queries, and a bare "id" in the
// subquery would mean the file's id.
const fileCount = sql<number>`(select count(*)::int from "solicitud_files" as f where f."solicitud_id" = "solicitudes"."id")`.mapWith(Number);

function filterWhere(filters: SolicitudFilters): SQL | undefined {
  const conditions: (SQL | undefined)[] = [];
  if (filters.type) conditions.push(eq(solicitudes.type, filters.type));
  if (filters.status) conditions.push(eq(solicitudes.status, filters.status));
  if (filters.industry) conditions.push(eq(solicitudes.industry, filters.industry));
  // Both ends are whole Mexico City days: "hasta" includes the day it names.
  if (filters.from) conditions.push(gte(solicitudes.createdAt, startOfMexicoCityDay(filters.from)));
  if (filters.to) conditions.push(lt(solicitudes.createdAt, startOfMexicoCityDay(addDays(filters.to, 1))));
  if (filters.q) {
    const pattern = containsPattern(filters.q);
    conditions.push(
      or(ilike(solicitudes.number, pattern), ilike(solicitudes.name, pattern), ilike(solicitudes.company, pattern), ilike(solicitudes.email, pattern)),
    );
  }
  return conditions.length ? and(...conditions) : undefined;
}

/**
 * Newest first is `created_at DESC NULLS LAST, id ASC` and oldest first its exact reverse: the
 * shape of solicitudes_created_at_idx, so a page is read straight from the index instead of
 * sorting the whole table. The id makes the order total (stable pages, exact keyset).
 */
function dateOrder(dir: "asc" | "desc"): SQL[] {
  return dir === "desc"
    ? [sql`${solicitudes.createdAt} desc nulls last`, sql`${solicitudes.id} asc`]
    : [sql`${solicitudes.createdAt} asc nulls first`, sql`${solicitudes.id} desc`];
}

/** By status in workflow order (nuevo first, or last when descending), newest first within one. */
function orderBy(filters: Pick<SolicitudFilters, "sort" | "dir">): SQL[] {
  if (filters.sort === "estado") return [filters.dir === "asc" ? asc(statusRank) : desc(statusRank), ...dateOrder("desc")];
  return dateOrder(filters.dir);
}

const listColumns = {
  id: solicitudes.id,
  number: solicitudes.number,
  type: solicitudes.type,
  createdAt: solicitudes.createdAt,
  name: solicitudes.name,
  company: solicitudes.company,
  email: solicitudes.email,
  industry: solicitudes.industry,
  status: solicitudes.status,
  unread: sql<boolean>`(${solicitudes.readAt} is null)`.mapWith(Boolean),
  fileCount,
};

export interface SolicitudListRow {
  id: string;
  number: string;
  type: SolicitudType;
  createdAt: Date;
  name: string;
  company: string | null;
  email: string;
  industry: string | null;
  status: SolicitudStatus;
  unread: boolean;
  fileCount: number;
}

export interface SolicitudList {
  rows: SolicitudListRow[];
  /** null when the filters asked to skip counting (sinTotal=1). */
  total: number | null;
  hasNext: boolean;
}

/**
 * Exact totals per filter, kept until the solicitudes table changes (any insert, status change or
 * read marker, in any process): the total costs a count over every matching row, the page does not.
 */
const totals = createLiveCache<number>("solicitudes", 200);

function countMatching(filters: SolicitudFilters): Promise<number> {
  const { type, status, industry, from, to, q } = filters;
  return totals.get(JSON.stringify([type, status, industry, from, to, q]), () =>
    getDb()
      .select({ total: count() })
      .from(solicitudes)
      .where(filterWhere(filters))
      .then(([row]) => row.total),
  );
}

export async function listSolicitudes(filters: SolicitudFilters): Promise<SolicitudList> {
  // One row more than the page tells whether a next page exists without counting anything.
  const [fetched, total] = await Promise.all([
    getDb()
      .select(listColumns)
      .from(solicitudes)
      .where(filterWhere(filters))
      .orderBy(...orderBy(filters))
      .limit(filters.perPage + 1)
      .offset((filters.page - 1) * filters.perPage),
    filters.skipTotal ? Promise.resolve(null) : countMatching(filters),
  ]);
  return { rows: fetched.slice(0, filters.perPage), total, hasNext: fetched.length > filters.perPage };
}

// ---------------------------------------------------------------------------------------------
// Dashboard.

export interface DashboardStats {
  today: number;
  week: number;
  unread: number;
  /** Start of the Mexico City week (Monday) the "week" figure counts from, YYYY-MM-DD. */
  weekStart: string;
  latest: SolicitudListRow[];
}

export async function getDashboardStats(now = new Date()): Promise<DashboardStats> {
  const db = getDb();
  const today = mexicoCityDay(now);
  const [year, month, date] = today.split("-").map(Number);
  const weekday = new Date(Date.UTC(year, month - 1, date)).getUTCDay(); // 0 = Sunday
  const weekStart = addDays(today, -((weekday + 6) % 7));
  const todayStart = startOfMexicoCityDay(today);
  const weekStartInstant = startOfMexicoCityDay(weekStart);
  const [[recent], [unread], latest] = await Promise.all([
    db
      .select({
        today: sql<number>`count(*) filter (where ${solicitudes.createdAt} >= ${todayStart.toISOString()}::timestamptz)`.mapWith(Number),
        week: count(),
      })
      .from(solicitudes)
      .where(gte(solicitudes.createdAt, weekStartInstant)),
    db.select({ total: count() }).from(solicitudes).where(isNull(solicitudes.readAt)),
    db
      .select(listColumns)
      .from(solicitudes)
      .orderBy(...orderBy({ sort: "fecha", dir: "desc" }))
      .limit(10),
  ]);
  return { today: recent.today, week: recent.week, unread: unread.total, weekStart, latest };
}

// ---------------------------------------------------------------------------------------------
// Detail.

/** The status machine: nuevo → en revisión → cotizado → cerrado | descartado; the last two are final. */
export const SOLICITUD_TRANSITIONS: Record<SolicitudStatus, readonly SolicitudStatus[]> = {
  nuevo: ["en_revision", "cerrado", "descartado"],
  en_revision: ["cotizado", "cerrado", "descartado"],
  cotizado: ["cerrado", "descartado"],
  cerrado: [],
  descartado: [],
};

export function allowedNextStatuses(status: SolicitudStatus): readonly SolicitudStatus[] {
  return SOLICITUD_TRANSITIONS[status] ?? [];
}

const statusLabel = (status: string) => SOLICITUD_STATUSES.find((option) => option.value === status)?.label ?? status;

const UuidSchema = z.uuid();

export function isSolicitudId(value: string | undefined): value is string {
  return UuidSchema.safeParse(value).success;
}

export type SolicitudEventKind = "estado" | "nota" | "leido" | "no_leido" | "creado";

export interface SolicitudDetail {
  id: string;
  number: string;
  type: SolicitudType;
  status: SolicitudStatus;
  nextStatuses: readonly SolicitudStatus[];
  name: string;
  company: string | null;
  email: string;
  phone: string | null;
  city: string | null;
  industry: string | null;
  service: string | null;
  description: string | null;
  quantity: number | null;
  extraQuantities: number[];
  /** YYYY-MM-DD (a calendar date, no time zone). */
  requiredBy: string | null;
  material: string | null;
  finish: string | null;
  tolerance: string | null;
  threads: boolean | null;
  certificates: string[];
  subject: string | null;
  message: string | null;
  ndaVersion: string | null;
  ndaAcceptedAt: Date | null;
  privacyAcceptedAt: Date;
  estimates: SolicitudEstimate[];
  ip: string | null;
  userAgent: string | null;
  readAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  account: { id: string; name: string; email: string } | null;
  files: { id: string; originalName: string; kind: string; mimeType: string; size: number; sha256: string; createdAt: Date }[];
  events: {
    id: string;
    kind: SolicitudEventKind;
    fromStatus: string | null;
    toStatus: string | null;
    note: string | null;
    actorName: string | null;
    createdAt: Date;
  }[];
}

export async function getSolicitudDetail(id: string): Promise<SolicitudDetail | null> {
  if (!isSolicitudId(id)) return null;
  const db = getDb();
  const [row] = await db
    .select({ solicitud: solicitudes, account: { id: user.id, name: user.name, email: user.email } })
    .from(solicitudes)
    .leftJoin(user, eq(user.id, solicitudes.userId))
    .where(eq(solicitudes.id, id))
    .limit(1);
  if (!row) return null;
  const [files, events] = await Promise.all([
    db
      .select({
        id: solicitudFiles.id,
        originalName: solicitudFiles.originalName,
        kind: solicitudFiles.kind,
        mimeType: solicitudFiles.mimeType,
        size: solicitudFiles.size,
        sha256: solicitudFiles.sha256,
        createdAt: solicitudFiles.createdAt,
      })
      .from(solicitudFiles)
      .where(eq(solicitudFiles.solicitudId, id))
      .orderBy(asc(solicitudFiles.createdAt), asc(solicitudFiles.originalName)),
    db
      .select({
        id: solicitudEvents.id,
        kind: solicitudEvents.kind,
        fromStatus: solicitudEvents.fromStatus,
        toStatus: solicitudEvents.toStatus,
        note: solicitudEvents.note,
        // The name at the time of the event; the account's current name if none was kept.
        actorName: sql<string | null>`coalesce(${solicitudEvents.actorName}, ${user.name})`,
        createdAt: solicitudEvents.createdAt,
      })
      .from(solicitudEvents)
      .leftJoin(user, eq(user.id, solicitudEvents.actorId))
      .where(eq(solicitudEvents.solicitudId, id))
      .orderBy(asc(solicitudEvents.createdAt), asc(solicitudEvents.id)),
  ]);
  const s = row.solicitud;
  return {
    id: s.id,
    number: s.number,
    type: s.type,
    status: s.status,
    nextStatuses: allowedNextStatuses(s.status),
    name: s.name,
    company: s.company,
    email: s.email,
    phone: s.phone,
    city: s.city,
    industry: s.industry,
    service: s.service,
    description: s.description,
    quantity: s.quantity,
    extraQuantities: s.extraQuantities,
    requiredBy: s.requiredBy,
    material: s.material,
    finish: s.finish,
    tolerance: s.tolerance,
    threads: s.threads,
    certificates: s.certificates,
    subject: s.subject,
    message: s.message,
    ndaVersion: s.ndaVersion,
    ndaAcceptedAt: s.ndaAcceptedAt,
    privacyAcceptedAt: s.privacyAcceptedAt,
    estimates: s.estimates,
    ip: s.ip,
    userAgent: s.userAgent,
    readAt: s.readAt,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    account: row.account?.id ? row.account : null,
    files,
    events,
  };
}

// ---------------------------------------------------------------------------------------------
// Commands. Each writes its event in the same transaction as the change it records.

export interface StaffActor {
  id: string;
  name: string;
}

export type AdminCommandResult<T = undefined> = { ok: true; value: T } | { ok: false; message: string; status: number };

const NOT_FOUND = { ok: false, message: "No encontramos ese formulario.", status: 404 } as const;

/** The detail page: opening it marks the solicitud as read (once, with an event). */
export async function openSolicitud(id: string, actor: StaffActor): Promise<SolicitudDetail | null> {
  if (!isSolicitudId(id)) return null;
  const marked = await markSolicitudRead(id, true, actor);
  if (!marked.ok) return null;
  return getSolicitudDetail(id);
}

export async function changeSolicitudStatus(
  id: string,
  to: SolicitudStatus,
  actor: StaffActor,
): Promise<AdminCommandResult<{ from: SolicitudStatus; to: SolicitudStatus }>> {
  if (!isSolicitudId(id)) return NOT_FOUND;
  if (!STATUS_ORDER.includes(to)) return { ok: false, message: "Elija un estado de la lista.", status: 400 };
  return getDb().transaction(async (tx) => {
    const [current] = await tx.select({ status: solicitudes.status }).from(solicitudes).where(eq(solicitudes.id, id)).for("update").limit(1);
    if (!current) return NOT_FOUND;
    const from = current.status;
    if (from === to) return { ok: false, message: `El formulario ya está en «${statusLabel(to)}».`, status: 400 };
    const allowed = allowedNextStatuses(from);
    if (!allowed.includes(to)) {
      const options = allowed.map((status) => `«${statusLabel(status)}»`).join(", ");
      return {
        ok: false,
        message: allowed.length
          ? `No se puede pasar de «${statusLabel(from)}» a «${statusLabel(to)}». Desde «${statusLabel(from)}» puede pasar a ${options}.`
          : `No se puede pasar de «${statusLabel(from)}» a «${statusLabel(to)}»: «${statusLabel(from)}» es un estado final.`,
        status: 400,
      };
    }
    await tx.update(solicitudes).set({ status: to, updatedAt: new Date() }).where(eq(solicitudes.id, id));
    await tx.insert(solicitudEvents).values({ solicitudId: id, kind: "estado", fromStatus: from, toStatus: to, actorId: actor.id, actorName: actor.name });
    return { ok: true, value: { from, to } };
  });
}

export const NOTE_MAX_LENGTH = 5000;

export async function addSolicitudNote(id: string, note: string, actor: StaffActor): Promise<AdminCommandResult> {
  const text = note.trim();
  if (!text) return { ok: false, message: "Escriba la nota antes de guardarla.", status: 400 };
  if (text.length > NOTE_MAX_LENGTH) return { ok: false, message: "La nota puede tener hasta 5,000 caracteres.", status: 400 };
  if (!isSolicitudId(id)) return NOT_FOUND;
  return getDb().transaction(async (tx) => {
    const [found] = await tx.update(solicitudes).set({ updatedAt: new Date() }).where(eq(solicitudes.id, id)).returning({ id: solicitudes.id });
    if (!found) return NOT_FOUND;
    await tx.insert(solicitudEvents).values({ solicitudId: id, kind: "nota", note: text, actorId: actor.id, actorName: actor.name });
    return { ok: true, value: undefined };
  });
}

/** Marks read or unread; `changed` is false (and no event is written) when it already was. */
export async function markSolicitudRead(id: string, read: boolean, actor: StaffActor): Promise<AdminCommandResult<{ changed: boolean }>> {
  if (!isSolicitudId(id)) return NOT_FOUND;
  return getDb().transaction(async (tx) => {
    // Conditional update: two staff opening the same request at once write one "leído" event.
    const [changed] = await tx
      .update(solicitudes)
      .set({ readAt: read ? new Date() : null })
      .where(and(eq(solicitudes.id, id), read ? isNull(solicitudes.readAt) : isNotNull(solicitudes.readAt)))
      .returning({ id: solicitudes.id });
    if (!changed) {
      const [exists] = await tx.select({ id: solicitudes.id }).from(solicitudes).where(eq(solicitudes.id, id)).limit(1);
      return exists ? { ok: true, value: { changed: false } } : NOT_FOUND;
    }
    await tx.insert(solicitudEvents).values({ solicitudId: id, kind: read ? "leido" : "no_leido", actorId: actor.id, actorName: actor.name });
    return { ok: true, value: { changed: true } };
  });
}

/** The forms of the detail page, told apart by their submit button's `intent`. */
export const SolicitudActionSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.literal("estado"), status: z.enum(values(SOLICITUD_STATUSES), { error: "Elija el nuevo estado." }) }),
    z.object({ intent: z.literal("nota"), note: z.string().default("") }),
    z.object({ intent: z.literal("no_leido") }),
  ],
  { error: "No reconocimos esa acción. Recargue la página e inténtelo de nuevo." },
);

export type SolicitudAction = z.output<typeof SolicitudActionSchema>;

/** Runs one form of the detail page; the message says what happened, in Spanish. */
export async function applySolicitudAction(
  id: string,
  action: SolicitudAction,
  actor: StaffActor,
): Promise<AdminCommandResult<{ intent: SolicitudAction["intent"]; message: string }>> {
  if (action.intent === "estado") {
    const result = await changeSolicitudStatus(id, action.status, actor);
    return result.ok ? { ok: true, value: { intent: action.intent, message: `Estado cambiado a «${statusLabel(result.value.to)}».` } } : result;
  }
  if (action.intent === "nota") {
    const result = await addSolicitudNote(id, action.note, actor);
    return result.ok ? { ok: true, value: { intent: action.intent, message: "Nota guardada en el historial." } } : result;
  }
  const result = await markSolicitudRead(id, false, actor);
  return result.ok ? { ok: true, value: { intent: action.intent, message: "Marcado como no leído." } } : result;
}

// ---------------------------------------------------------------------------------------------
// Files.

export interface SolicitudFileDownload {
  id: string;
  originalName: string;
  mimeType: string;
  size: number;
  body: ReadableStream<Uint8Array>;
}

const FILE_CHUNK_BYTES = 64 * 1024;

/** A file of this solicitud (never of another one), streamed from disk; null when there is none. */
export async function getSolicitudFile(solicitudId: string, fileId: string): Promise<SolicitudFileDownload | null> {
  if (!isSolicitudId(solicitudId) || !isSolicitudId(fileId)) return null;
  const [file] = await getDb()
    .select({ id: solicitudFiles.id, originalName: solicitudFiles.originalName, mimeType: solicitudFiles.mimeType, storagePath: solicitudFiles.storagePath })
    .from(solicitudFiles)
    .where(and(eq(solicitudFiles.id, fileId), eq(solicitudFiles.solicitudId, solicitudId)))
    .limit(1);
  if (!file) return null;
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(absoluteStoragePath(file.storagePath), "r");
  } catch (error) {
    logger.error({ err: error, fileId, solicitudId }, "solicitud file missing on disk");
    return null;
  }
  const { size } = await handle.stat();
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await handle.close().catch(() => {});
  };
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const buffer = new Uint8Array(FILE_CHUNK_BYTES);
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
        if (bytesRead === 0) {
          await close();
          controller.close();
        } else {
          controller.enqueue(buffer.subarray(0, bytesRead));
        }
      } catch (error) {
        await close();
        controller.error(error);
      }
    },
    cancel: close,
  });
  return { id: file.id, originalName: file.originalName, mimeType: safeMimeType(file.mimeType), size, body };
}

function safeMimeType(value: string): string {
  return /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i.test(value) ? value : "application/octet-stream";
}

/** `attachment` with the original name: ASCII fallback plus the exact UTF-8 name (RFC 6266/5987). */
export function attachmentDisposition(fileName: string): string {
  const clean = [...fileName].filter((char) => char >= " " && char !== "\u007f").join("").trim() || "archivo";
  const fallback = clean.normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  const encoded = encodeURIComponent(clean).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

// ---------------------------------------------------------------------------------------------
// CSV export.

const label = (options: readonly { value: string; label: string }[], value: string | null) =>
  value ? (options.find((option) => option.value === value)?.label ?? value) : "";

const CSV_COLUMNS: { header: string; value: (row: CsvRow) => string }[] = [
  { header: "Número", value: (row) => row.number },
  { header: "Tipo", value: (row) => label(SOLICITUD_TYPES, row.type) },
  { header: "Fecha (hora de Ciudad de México)", value: (row) => formatCsvDateTime(row.createdAt) },
  { header: "Estado", value: (row) => label(SOLICITUD_STATUSES, row.status) },
  { header: "Leído", value: (row) => (row.readAt ? "Sí" : "No") },
  { header: "Nombre", value: (row) => row.name },
  { header: "Empresa", value: (row) => row.company ?? "" },
  { header: "Correo", value: (row) => row.email },
  { header: "Teléfono", value: (row) => row.phone ?? "" },
  { header: "Ciudad o estado", value: (row) => row.city ?? "" },
  { header: "Industria", value: (row) => label(INDUSTRY_OPTIONS, row.industry) },
  { header: "Servicio", value: (row) => label(SERVICE_OPTIONS, row.service) },
  { header: "Descripción", value: (row) => row.description ?? "" },
  { header: "Cantidad", value: (row) => (row.quantity == null ? "" : String(row.quantity)) },
  { header: "Cantidades adicionales", value: (row) => row.extraQuantities.join(", ") },
  { header: "Fecha requerida", value: (row) => row.requiredBy ?? "" },
  { header: "Material", value: (row) => row.material ?? "" },
  { header: "Acabado", value: (row) => row.finish ?? "" },
  { header: "Tolerancias", value: (row) => label(TOLERANCE_OPTIONS, row.tolerance) },
  { header: "Roscas", value: (row) => (row.threads == null ? "" : row.threads ? "Sí" : "No") },
  { header: "Certificados", value: (row) => row.certificates.map((value) => label(CERTIFICATE_OPTIONS, value)).join(", ") },
  { header: "Asunto", value: (row) => row.subject ?? "" },
  { header: "Mensaje", value: (row) => row.message ?? "" },
  { header: "Archivos", value: (row) => String(row.fileCount) },
  { header: "Acuerdo de confidencialidad", value: (row) => row.ndaVersion ?? "" },
  { header: "Confidencialidad aceptada", value: (row) => formatCsvDateTime(row.ndaAcceptedAt) },
];

const csvColumns = {
  id: solicitudes.id,
  number: solicitudes.number,
  type: solicitudes.type,
  createdAt: solicitudes.createdAt,
  status: solicitudes.status,
  readAt: solicitudes.readAt,
  name: solicitudes.name,
  company: solicitudes.company,
  email: solicitudes.email,
  phone: solicitudes.phone,
  city: solicitudes.city,
  industry: solicitudes.industry,
  service: solicitudes.service,
  description: solicitudes.description,
  quantity: solicitudes.quantity,
  extraQuantities: solicitudes.extraQuantities,
  requiredBy: solicitudes.requiredBy,
  material: solicitudes.material,
  finish: solicitudes.finish,
  tolerance: solicitudes.tolerance,
  threads: solicitudes.threads,
  certificates: solicitudes.certificates,
  subject: solicitudes.subject,
  message: solicitudes.message,
  ndaVersion: solicitudes.ndaVersion,
  ndaAcceptedAt: solicitudes.ndaAcceptedAt,
  fileCount,
  // The exact date key of the last row, for the next batch. It travels as text so its
  // microseconds survive (a JS Date would round them and skip or repeat rows).
  cursorCreatedAt: sql<string>`${solicitudes.createdAt}::text`,
};

type CsvRow = Awaited<ReturnType<typeof fetchCsvBatch>>[number];

/** One field per RFC 4180, with spreadsheet formulas neutralised (OWASP CSV injection). */
export function csvField(value: string): string {
  const guarded = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(guarded) ? `"${guarded.replace(/"/g, '""')}"` : guarded;
}

function csvLine(fields: string[]): string {
  return `${fields.map(csvField).join(",")}\r\n`;
}

interface CsvCursor {
  id: string;
  cursorCreatedAt: string;
}

/**
 * The export walks one or more segments, each in plain date order so every batch is an index
 * range: the whole filter when sorted by date; one status after another when sorted by status.
 */
function csvSegments(filters: SolicitudFilters): { where?: SQL; dir: "asc" | "desc" }[] {
  if (filters.sort === "fecha") return [{ dir: filters.dir }];
  const statuses = filters.dir === "asc" ? STATUS_ORDER : [...STATUS_ORDER].reverse();
  return statuses.filter((status) => !filters.status || status === filters.status).map((status) => ({ where: eq(solicitudes.status, status), dir: "desc" }));
}

/** Rows after the cursor in dateOrder(dir); the plain range on created_at lets the index do the work. */
function afterCursor(dir: "asc" | "desc", cursor: CsvCursor | undefined): SQL | undefined {
  if (!cursor) return undefined;
  const at = sql`${cursor.cursorCreatedAt}::timestamptz`;
  const id = sql`${cursor.id}::uuid`;
  return dir === "desc"
    ? sql`(${solicitudes.createdAt} <= ${at} and (${solicitudes.createdAt} < ${at} or ${solicitudes.id} > ${id}))`
    : sql`(${solicitudes.createdAt} >= ${at} and (${solicitudes.createdAt} > ${at} or ${solicitudes.id} < ${id}))`;
}

async function fetchCsvBatch(filters: SolicitudFilters, segment: { where?: SQL; dir: "asc" | "desc" }, cursor: CsvCursor | undefined, batchSize: number) {
  return getDb()
    .select(csvColumns)
    .from(solicitudes)
    .where(and(filterWhere(filters), segment.where, afterCursor(segment.dir, cursor)))
    .orderBy(...dateOrder(segment.dir))
    .limit(batchSize);
}

export function solicitudesCsvFileName(now = new Date()): string {
  return `formularios-${mexicoCityDay(now)}.csv`;
}

/**
 * Every solicitud matching the filters (pages ignored) as CSV: UTF-8 with a BOM so Excel reads
 * the accents, one batch per pull (keyset pagination), so memory stays flat whatever the count.
 */
export function streamSolicitudesCsv(filters: SolicitudFilters, options: { batchSize?: number } = {}): ReadableStream<Uint8Array> {
  const batchSize = options.batchSize ?? CSV_BATCH_SIZE;
  const encoder = new TextEncoder();
  const segments = csvSegments(filters);
  let segment = 0;
  let cursor: CsvCursor | undefined;
  let cancelled = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode(`\uFEFF${csvLine(CSV_COLUMNS.map((column) => column.header))}`));
      },
      async pull(controller) {
        try {
          // Until one batch has rows or every segment is done (an empty status is skipped).
          while (segment < segments.length && !cancelled) {
            const rows = await fetchCsvBatch(filters, segments[segment], cursor, batchSize);
            if (rows.length < batchSize) {
              segment += 1;
              cursor = undefined;
            } else {
              cursor = rows[rows.length - 1];
            }
            if (rows.length && !cancelled) {
              controller.enqueue(encoder.encode(rows.map((row) => csvLine(CSV_COLUMNS.map((column) => column.value(row)))).join("")));
              if (segment < segments.length) return;
            }
          }
          if (!cancelled) controller.close();
        } catch (error) {
          logger.error({ err: error }, "CSV export failed");
          controller.error(error);
        }
      },
      cancel() {
        cancelled = true;
      },
    },
    // Pull one batch at a time: the next query runs only when the previous one has been read.
    { highWaterMark: 0 },
  );
}

/** What a quote copies from the request it answers. */
export async function getSolicitudForQuote(id: string) {
  if (!isSolicitudId(id)) return null;
  const [row] = await getDb()
    .select({
      id: solicitudes.id,
      number: solicitudes.number,
      name: solicitudes.name,
      email: solicitudes.email,
      company: solicitudes.company,
      userId: solicitudes.userId,
      description: solicitudes.description,
      quantity: solicitudes.quantity,
    })
    .from(solicitudes)
    .where(eq(solicitudes.id, id))
    .limit(1);
  return row ?? null;
}

/** A quote was created from this request: it moves to "cotizado" (from nuevo or en revisión), with its event. */
export async function markSolicitudQuoted(id: string, actor: { id: string | null; name: string }): Promise<void> {
  await getDb().transaction(async (tx) => {
    const [current] = await tx.select({ status: solicitudes.status }).from(solicitudes).where(eq(solicitudes.id, id)).for("update").limit(1);
    if (!current || !["nuevo", "en_revision"].includes(current.status)) return;
    await tx.update(solicitudes).set({ status: "cotizado", updatedAt: new Date() }).where(eq(solicitudes.id, id));
    await tx.insert(solicitudEvents).values({ solicitudId: id, kind: "estado", fromStatus: current.status, toStatus: "cotizado", actorId: actor.id, actorName: actor.name });
  });
}
