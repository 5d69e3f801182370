import { count, desc, eq, gte, inArray, lt, sql, type SQL } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { compileFilter, compileSort, FilterError, formatFilterDate, type RecordField, type RecordFieldMap } from "~/db/record-filter.server";
import { logs } from "~/db/schema/operations";
import { parseListParams } from "~/lib/list-params";
import { parseFilter, parseSort, type FilterNode, type FilterOperand } from "~/lib/record-filter";
import { invalid, notFoundResult, ok, type Result } from "~/lib/result";
import { parseFieldsParam, RECORD_API_MESSAGES, RECORDS_PER_PAGE } from "~/services/records/records.server";

// PocketBase's /api/logs reads (apis/logs.go) over the logs table: a page of logs with the record
// API's filter and sort grammar (the same parser and compiler, over the logs' own fields), one log,
// and the counts per hour. The route owns HTTP and who may ask.

/** PocketBase's JSON of a log. */
export interface LogJson {
  id: string;
  created: string;
  data: Record<string, unknown>;
  message: string;
  level: number;
}

export interface LogPage {
  page: number;
  perPage: number;
  totalItems: number;
  totalPages: number;
  items: Record<string, unknown>[];
}

/** PocketBase's messages for a bad stats filter. */
export const LOG_API_MESSAGES = { invalidFilter: "Invalid filter format.", statsFailed: "Failed to generate logs stats." } as const;

const BASE_FIELDS: RecordFieldMap = {
  id: { column: logs.id, type: "number" },
  // PocketBase's insertion order (SQLite's rowid), here the id's sequence.
  rowid: { column: logs.id, type: "number" },
  created: { column: logs.createdAt, type: "date" },
  level: { column: logs.level, type: "number" },
  message: { column: logs.message, type: "text" },
  data: { column: sql`${logs.data}::text`, type: "text" },
};

/** PocketBase's pattern for a path inside `data` (its logFilterFields), without a modifier. */
const DATA_PATH = /^data(?:\.\w+)+$/;
/** Keys of a request's data that hold numbers. */
const NUMERIC_KEYS = new Set(["status", "execTime", "dropped"]);

function fieldBase(name: string): string {
  const colon = name.indexOf(":");
  return colon < 0 ? name : name.slice(0, colon);
}

/**
 * The fields `data.a.b` a filter or sort names, each typed by what it is compared with (a number
 * compares as a number, true/false as a boolean, anything else as text); a value of another JSON
 * type reads as null, never as an error.
 */
function dataFields(filter: FilterNode | null, sortFields: readonly string[]): RecordFieldMap {
  const types = new Map<string, RecordField["type"]>();
  const note = (name: string, type: RecordField["type"]) => {
    if (!DATA_PATH.test(name)) return;
    const known = types.get(name);
    if (!known || known === "text") types.set(name, NUMERIC_KEYS.has(name.split(".").at(-1)!) ? "number" : type);
  };
  const constantType = (operand: FilterOperand): RecordField["type"] => (operand.kind === "number" ? "number" : operand.kind === "bool" ? "bool" : "text");
  const visit = (node: FilterNode) => {
    if (node.kind !== "comparison") return node.operands.forEach(visit);
    const { left, right } = node;
    if (left.kind === "field") note(fieldBase(left.name), constantType(right));
    if (right.kind === "field") note(fieldBase(right.name), constantType(left));
  };
  if (filter) visit(filter);
  for (const name of sortFields) note(name, "text");
  const fields: Record<string, RecordField> = {};
  for (const [name, type] of types) {
    const path = `{${name.split(".").slice(1).join(",")}}`;
    const value = sql`(${logs.data} #> ${path}::text[])`;
    const text = sql`(${logs.data} #>> ${path}::text[])`;
    fields[name] =
      type === "number"
        ? { column: sql`(case when json_typeof(${value}) = 'number' then ${text}::numeric end)`, type }
        : type === "bool"
          ? { column: sql`(case when json_typeof(${value}) = 'boolean' then ${text}::boolean end)`, type }
          : { column: text, type: "text" };
  }
  return fields;
}

interface CompiledQuery {
  where: SQL | undefined;
  orderBy: SQL[];
}

/** The filter and sort of a logs request, compiled; throws FilterError. */
function compileQuery(params: URLSearchParams, withSort: boolean): CompiledQuery {
  const filterText = params.get("filter") ?? "";
  const filter = filterText === "" ? null : parseFilter(filterText);
  const sort = withSort ? parseSort(params.get("sort") || "-rowid") : [];
  const fields = { ...BASE_FIELDS, ...dataFields(filter, sort.map((field) => field.field)) };
  // Newest first among equal values, so pages never overlap.
  if (withSort && !sort.some((field) => field.field === "id" || field.field === "rowid")) sort.push({ field: "id", dir: "desc" });
  return {
    where: filter ? compileFilter(filter, fields, { authId: null, now: new Date() }) : undefined,
    orderBy: compileSort(sort, fields),
  };
}

function toLogJson(row: typeof logs.$inferSelect): LogJson {
  return { id: String(row.id), created: formatFilterDate(row.createdAt), data: row.data, message: row.message, level: row.level };
}

function pickFields(json: LogJson, fields: Set<string> | null): Record<string, unknown> {
  return fields ? Object.fromEntries(Object.entries(json).filter(([name]) => fields.has(name))) : { ...json };
}

/** GET /api/logs: page, perPage, filter, sort, skipTotal, fields. */
export async function listLogs(params: URLSearchParams): Promise<Result<LogPage>> {
  const { page, perPage, offset } = parseListParams(params, { names: { page: "page", perPage: "perPage", sort: "sort", dir: "dir" }, perPage: RECORDS_PER_PAGE });
  const skipTotal = ["1", "t", "true", "TRUE", "True", "T"].includes(params.get("skipTotal") ?? "");
  let query: CompiledQuery;
  try {
    query = compileQuery(params, true);
  } catch (error) {
    if (error instanceof FilterError) return invalid(RECORD_API_MESSAGES.badRequest);
    throw error;
  }
  const [rows, total] = await Promise.all([
    getDb()
      .select()
      .from(logs)
      .where(query.where)
      .orderBy(...query.orderBy)
      .limit(perPage)
      .offset(offset),
    skipTotal
      ? Promise.resolve(-1)
      : getDb()
          .select({ total: count() })
          .from(logs)
          .where(query.where)
          .then(([row]) => row?.total ?? 0),
  ]);
  const fields = parseFieldsParam(params.get("fields"));
  return ok({ page, perPage, totalItems: total, totalPages: skipTotal ? -1 : Math.ceil(total / perPage), items: rows.map((row) => pickFields(toLogJson(row), fields)) });
}

/** GET /api/logs/{id} */
export async function viewLog(id: string): Promise<Result<LogJson>> {
  if (!/^[1-9]\d{0,14}$/.test(id)) return notFoundResult(RECORD_API_MESSAGES.notFound);
  const [row] = await getDb().select().from(logs).where(eq(logs.id, Number(id))).limit(1);
  return row ? ok(toLogJson(row)) : notFoundResult(RECORD_API_MESSAGES.notFound);
}

export interface LogStatsItem {
  total: number;
  /** The hour, UTC, as PocketBase writes dates: "2026-11-25 14:00:00.000Z". */
  date: string;
}

/** GET /api/logs/stats: how many logs per hour (oldest first), of those the filter selects. */
export async function logStats(params: URLSearchParams): Promise<Result<LogStatsItem[]>> {
  let where: SQL | undefined;
  try {
    where = compileQuery(params, false).where;
  } catch (error) {
    if (error instanceof FilterError) return invalid(LOG_API_MESSAGES.invalidFilter);
    throw error;
  }
  const hour = sql<string>`to_char(date_trunc('hour', ${logs.createdAt} at time zone 'UTC'), 'YYYY-MM-DD HH24:00:00.000"Z"')`;
  const rows = await getDb()
    .select({ total: count(), date: hour })
    .from(logs)
    .where(where)
    .groupBy(hour)
    .orderBy(hour);
  return ok(rows.map((row) => ({ total: Number(row.total), date: row.date })));
}

const DELETE_CHUNK = 5_000;

/** Deletes logs older than `maxDays` days (the retention job), in short chunks; answers how many. */
export async function deleteOldLogs(maxDays: number, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - maxDays * 24 * 60 * 60 * 1000);
  let deleted = 0;
  for (;;) {
    const old = getDb().select({ id: logs.id }).from(logs).where(lt(logs.createdAt, before)).limit(DELETE_CHUNK);
    const chunk = await getDb().delete(logs).where(inArray(logs.id, old)).returning({ id: logs.id });
    deleted += chunk.length;
    if (chunk.length < DELETE_CHUNK) return deleted;
  }
}

/** The newest errors (level error): for /admin/sistema. */
export async function recentLogErrors(limit = 20): Promise<LogJson[]> {
  const rows = await getDb().select().from(logs).where(gte(logs.level, 8)).orderBy(desc(logs.createdAt)).limit(limit);
  return rows.map(toLogJson);
}
