import { buildRecordFilter, compileSort, FilterError, formatFilterDate } from "~/db/record-filter.server";
import { parseListParams, type ListParamNames } from "~/lib/list-params";
import { logger } from "~/lib/logger.server";
import { parseSort } from "~/lib/record-filter";
import { forbiddenResult, invalid, notFoundResult, ok, type Failure, type Result } from "~/lib/result";
import type { RecordAuth, RecordCollection, RecordData } from "./collection.server";
import { expandRecords, parseExpandParam } from "./expand.server";
import { withRecordQuery } from "./request-query.server";

// The record API's engine, PocketBase's list and view of records (apis/record_crud.go,
// tools/search/provider.go) over any collection a feature defines (collection.server.ts): reads
// page/perPage/skipTotal/filter/sort/fields, compiles filter and sort over the collection's
// allow-list, pages, counts, and shapes records and errors as the official SDK expects.
// The route owns HTTP; this module answers a Result whose failures carry PocketBase's messages.

/** PocketBase's literal messages (tools/router/error.go, apis/record_crud.go). */
export const RECORD_API_MESSAGES = {
  badRequest: "Something went wrong while processing your request.",
  notFound: "The requested resource wasn't found.",
  missingCollection: "Missing collection context.",
  superusersOnly: "Only superusers can perform this action.",
} as const;

/** PocketBase's query names, read through the one list-params reader. */
const PARAM_NAMES: ListParamNames = { page: "page", perPage: "perPage", sort: "sort", dir: "dir" };
/** 30 by default as in PocketBase; at most 500, the batch the SDK's getFullList asks for. */
export const RECORDS_PER_PAGE = { default: 30, max: 500 } as const;

/** A record as sent: PocketBase's system fields plus the collection's, dates as text. */
export type RecordJson = Record<string, unknown>;

export interface RecordPage {
  page: number;
  perPage: number;
  /** -1 with skipTotal (no count ran). */
  totalItems: number;
  totalPages: number;
  items: RecordJson[];
}

/** The error body PocketBase sends, `{status, message, data}`, for a failure of the engine. */
export function recordErrorBody(failure: Failure, status: number): { status: number; message: string; data: Record<string, never> } {
  const message = failure.kind === "invalid" ? (failure.formErrors[0] ?? RECORD_API_MESSAGES.badRequest) : failure.message;
  return { status, message, data: {} };
}

const badRequest = () => invalid(RECORD_API_MESSAGES.badRequest);
const notFound = (message: string = RECORD_API_MESSAGES.notFound) => notFoundResult(message);
/** A superuser-only collection asked by anyone but staff (apis/record_crud.go: 403 before the query is read). */
const superusersOnly = (collection: RecordCollection, auth: RecordAuth) =>
  collection.superusersOnly === true && auth?.collection !== "_superusers" ? forbiddenResult(RECORD_API_MESSAGES.superusersOnly) : null;

/** A collection by name or id, as PocketBase's FindCachedCollectionByNameOrId. */
export function findRecordCollection(collections: readonly RecordCollection[], nameOrId: string): RecordCollection | undefined {
  return collections.find((collection) => collection.name === nameOrId) ?? collections.find((collection) => collection.id === nameOrId);
}

/** Go's strconv.ParseBool, which PocketBase uses for skipTotal; null for anything else. */
function parseGoBool(value: string): boolean | null {
  if (["1", "t", "T", "TRUE", "true", "True"].includes(value)) return true;
  if (["0", "f", "F", "FALSE", "false", "False"].includes(value)) return false;
  return null;
}

/**
 * The `fields` parameter: top-level names to keep, or null to keep all (absent, empty or `*`).
 * A `:modifier` is ignored; a nested name (`expand.cliente.name`) keeps its top level (`expand`) whole.
 */
export function parseFieldsParam(value: string | null): Set<string> | null {
  if (!value) return null;
  const names = value
    .split(",")
    .map((part) => part.split(":")[0]!.trim())
    .filter(Boolean);
  if (names.length === 0 || names.includes("*")) return null;
  return new Set(names.map((name) => name.split(".")[0]!));
}

/** PocketBase's JSON of a record: collectionId and collectionName first, dates as "2006-01-02 15:04:05.000Z". */
export function toRecordJson(collection: RecordCollection, record: RecordData, fields: Set<string> | null): RecordJson {
  const json: RecordJson = { collectionId: collection.id, collectionName: collection.name };
  for (const [name, value] of Object.entries(record)) json[name] = value instanceof Date ? formatFilterDate(value) : value;
  if (!fields) return json;
  return Object.fromEntries(Object.entries(json).filter(([name]) => fields.has(name)));
}

/** A filter/sort the caller got wrong is their 400; anything else is ours and propagates. */
function callerMistake(error: unknown, collection: RecordCollection): Failure {
  if (!(error instanceof FilterError)) throw error;
  logger.debug({ collection: collection.name, reason: error.message }, "record API: refused filter or sort");
  return badRequest();
}

/** GET /api/collections/{collection}/records */
export async function listRecords(
  collections: readonly RecordCollection[],
  collectionName: string,
  params: URLSearchParams,
  auth: RecordAuth,
): Promise<Result<RecordPage>> {
  const collection = findRecordCollection(collections, collectionName);
  if (!collection) return notFound(RECORD_API_MESSAGES.missingCollection);
  const forbidden = superusersOnly(collection, auth) ?? (await collection.refuseRead?.(params, auth)) ?? null;
  if (forbidden) return forbidden;

  const skipParam = params.get("skipTotal");
  const skipTotal = skipParam ? parseGoBool(skipParam) : false;
  if (skipTotal === null) return badRequest();
  const { page, perPage, offset } = parseListParams(params, { names: PARAM_NAMES, perPage: RECORDS_PER_PAGE });

  let query;
  try {
    const filter = params.get("filter") ?? "";
    const where = filter === "" ? undefined : buildRecordFilter(filter, collection.fields, { authId: auth?.id ?? null, now: new Date() });
    const sort = parseSort(params.get("sort") || collection.defaultSort);
    // Always end on the id, so pages never overlap or skip a record when sort values tie.
    if (!sort.some((field) => field.field === "id")) sort.push({ field: "id", dir: "asc" });
    query = { where, orderBy: compileSort(sort, collection.fields), auth };
  } catch (error) {
    return callerMistake(error, collection);
  }

  const [rows, total] = await withRecordQuery(params, () =>
    Promise.all([collection.list({ ...query, limit: perPage, offset }), skipTotal ? Promise.resolve(-1) : collection.count({ where: query.where, auth })]),
  );
  return ok({
    page,
    perPage,
    totalItems: total,
    totalPages: skipTotal ? -1 : Math.ceil(total / perPage),
    items: await shapeRecords(collections, collection, rows, params, auth),
  });
}

/** GET /api/collections/{collection}/records/{id} */
export async function viewRecord(
  collections: readonly RecordCollection[],
  collectionName: string,
  id: string,
  params: URLSearchParams,
  auth: RecordAuth,
): Promise<Result<RecordJson>> {
  const collection = findRecordCollection(collections, collectionName);
  if (!collection) return notFound(RECORD_API_MESSAGES.missingCollection);
  if (!id) return notFound();
  const forbidden = superusersOnly(collection, auth) ?? (await collection.refuseRead?.(params, auth)) ?? null;
  if (forbidden) return forbidden;
  const record = await withRecordQuery(params, () => collection.view(id, auth));
  if (!record) return notFound();
  const [json] = await shapeRecords(collections, collection, [record], params, auth);
  return ok(json!);
}

/** Records as sent: PocketBase's JSON, with `expand` as the caller may see it, trimmed to `fields`. */
export async function shapeRecords(
  collections: readonly RecordCollection[],
  collection: RecordCollection,
  records: readonly RecordData[],
  params: URLSearchParams,
  auth: RecordAuth,
): Promise<RecordJson[]> {
  const jsons = records.map((record) => toRecordJson(collection, record, null));
  await expandRecords(collections, collection, jsons, parseExpandParam(params.get("expand")), auth);
  const fields = parseFieldsParam(params.get("fields"));
  return fields ? jsons.map((json) => Object.fromEntries(Object.entries(json).filter(([name]) => fields.has(name)))) : jsons;
}
