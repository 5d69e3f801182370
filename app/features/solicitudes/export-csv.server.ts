import { and, eq, sql, type SQL } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { solicitudes } from "~/db/schema/solicitudes";
import { logger } from "~/lib/logger.server";
import { mexicoCityDateTime, mexicoCityDay } from "~/lib/time";
import type { SolicitudFilters } from "./filters";
import { CERTIFICATE_OPTIONS, INDUSTRY_OPTIONS, optionLabel, SERVICE_OPTIONS, SOLICITUD_STATUSES, SOLICITUD_TYPES, TOLERANCE_OPTIONS } from "./forms";
import { dateOrder, fileCount, filterWhere } from "./list-query.server";
import { SOLICITUD_STATUS_ORDER } from "./states";

// The current view of /admin/formularios (same filters, every page) as CSV for spreadsheets.

export const CSV_BATCH_SIZE = 500;

const label = (options: readonly { value: string; label: string }[], value: string | null) => optionLabel(options, value) ?? "";

/** `numeric`: the value is a number Forja generated (csvNumber); every other value is text and guarded. */
const CSV_COLUMNS: { header: string; value: (row: CsvRow) => string; numeric?: true }[] = [
  { header: "Número", value: (row) => row.number },
  { header: "Tipo", value: (row) => label(SOLICITUD_TYPES, row.type) },
  { header: "Fecha (hora de la Ciudad de México)", value: (row) => mexicoCityDateTime(row.createdAt) },
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
  { header: "Cantidad", value: (row) => csvNumber(row.quantity), numeric: true },
  { header: "Cantidades adicionales", value: (row) => row.extraQuantities.join(", ") },
  { header: "Fecha requerida", value: (row) => row.requiredBy ?? "" },
  { header: "Material", value: (row) => row.material ?? "" },
  { header: "Acabado", value: (row) => row.finish ?? "" },
  { header: "Tolerancias", value: (row) => label(TOLERANCE_OPTIONS, row.tolerance) },
  { header: "Roscas", value: (row) => (row.threads == null ? "" : row.threads ? "Sí" : "No") },
  { header: "Certificados", value: (row) => row.certificates.map((value) => label(CERTIFICATE_OPTIONS, value)).join(", ") },
  { header: "Asunto", value: (row) => row.subject ?? "" },
  { header: "Mensaje", value: (row) => row.message ?? "" },
  { header: "Archivos", value: (row) => csvNumber(row.fileCount), numeric: true },
  { header: "Acuerdo de confidencialidad", value: (row) => row.ndaVersion ?? "" },
  { header: "Confidencialidad aceptada", value: (row) => mexicoCityDateTime(row.ndaAcceptedAt) },
];

const NUMERIC_COLUMNS = CSV_COLUMNS.map((column) => column.numeric === true);

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

// Spreadsheets run a cell as a formula when its first visible character is one of these; they also
// look past what a person cannot see (spaces, zero-width and other format characters, the BOM) and
// fold compatibility forms (a full-width "＝" is "="). A cell that a semicolon-delimited import or a
// line break would split is checked after each separator too (docs/decisions/0036).
const INVISIBLE = "[\\p{Cf}\\p{Zs}\\uFEFF]*";
const TRIGGER = "[=+\\-@\\t\\r]";
const STARTS_FORMULA = new RegExp(`^${INVISIBLE}${TRIGGER}`, "u");
const SPLIT_FORMULA = new RegExp(`[,;\\r\\n]${INVISIBLE}${TRIGGER}`, "u");

/** Whether a spreadsheet could read `value` (or a piece of it split at a separator) as a formula. */
export function isFormulaLike(value: string): boolean {
  const folded = value.normalize("NFKC");
  return STARTS_FORMULA.test(folded) || SPLIT_FORMULA.test(folded);
}

/**
 * One field per RFC 4180, with spreadsheet formulas neutralised (OWASP CSV injection): a leading
 * apostrophe makes the cell text and keeps the data readable. A field that also splits on ";"
 * is quoted, so importers that use the semicolon keep it whole.
 */
export function csvField(value: string): string {
  const guarded = isFormulaLike(value) ? `'${value}` : value;
  return /[",;\r\n]/.test(guarded) ? `"${guarded.replace(/"/g, '""')}"` : guarded;
}

/** A number Forja computed (a count, a quantity): written as the number, never guarded. */
export function csvNumber(value: number | null): string {
  return value == null || !Number.isFinite(value) ? "" : String(value);
}

function csvLine(fields: string[], numeric: readonly boolean[] = []): string {
  return `${fields.map((field, index) => (numeric[index] ? field : csvField(field))).join(",")}\r\n`;
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
  const statuses = filters.dir === "asc" ? SOLICITUD_STATUS_ORDER : [...SOLICITUD_STATUS_ORDER].reverse();
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
  return `solicitudes-${mexicoCityDay(now)}.csv`;
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
              controller.enqueue(encoder.encode(rows.map((row) => csvLine(CSV_COLUMNS.map((column) => column.value(row)), NUMERIC_COLUMNS)).join("")));
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
