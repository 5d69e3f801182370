import { readBoundedText } from "~/lib/request-body";
import { withTransaction } from "~/db/client.server";
import { parseMultipartUpload } from "~/services/files/multipart.server";
import { removeQuietly, uploadsTmpDir } from "~/services/files/storage.server";
import type { RecordCollection, RecordWriteInput, RecordWriter } from "./collection.server";
import { findRecordCollection } from "./records.server";
import { createRecord, deleteRecord, errorAnswer, filesByField, formDataToObject, tooLarge, updateRecord, WRITE_UPLOAD_LIMITS, type RecordAnswer } from "./writes.server";

// POST /api/batch: PocketBase's batch (apis/batch.go) — several creates, updates, upserts and
// deletes of the record API in one database transaction, all or nothing. The official SDK sends it
// as multipart: `@jsonPayload` holds `{requests: [{method, url, headers, body}]}` and each file is a
// part named `requests.N.field` (or `requests[N].field`). Each request runs as the same writes the
// record routes run (writes.server.ts), as the caller of the batch (a request's own Authorization
// header is ignored, as in PocketBase); the first that fails rolls back all of them and the answer
// is PocketBase's 400 naming its index. Decision record: docs/decisions/0015.

/** Most bytes of a JSON batch (files go as multipart, with their own limits). */
export const MAX_BATCH_JSON_BYTES = 8 * 1024 * 1024;

/** PocketBase's default maximum of requests in one batch (core/settings_model.go). */
export const MAX_BATCH_REQUESTS = 50;

export const BATCH_MESSAGES = {
  unreadable: "Failed to read the submitted batch data.",
  invalid: "Invalid batch request data.",
  failed: "Batch transaction failed.",
  requestFailed: "Batch request failed.",
} as const;

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];
const RECORDS_URL = /^\/api\/collections\/([^/?]+)\/records(?:\/([^/?]+))?(\?.*)?$/;

interface BatchItem {
  method: string;
  url: string;
  input: RecordWriteInput;
}

type ParsedBatch = { ok: true; items: BatchItem[]; cleanup: () => Promise<void> } | { ok: false; answer: RecordAnswer };

const cleanupNothing = async () => {};

/** Reads the batch body (JSON or the SDK's multipart) and validates it as PocketBase's form does. */
export async function readBatch(request: Request): Promise<ParsedBatch> {
  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  let payload: Record<string, unknown> | null;
  let files: Record<string, RecordWriteInput["files"]> = {};
  let cleanup = cleanupNothing;
  if (type.startsWith("multipart/form-data")) {
    const upload = await parseMultipartUpload(request, WRITE_UPLOAD_LIMITS, uploadsTmpDir());
    if (!upload.ok) return { ok: false, answer: errorAnswer(upload.status, BATCH_MESSAGES.unreadable) };
    cleanup = () => removeQuietly(upload.files.map((file) => file.tmpPath));
    payload = formDataToObject(upload.fields);
    files = filesOfRequests(upload.files);
  } else {
    const text = await readBoundedText(request, MAX_BATCH_JSON_BYTES);
    if (text === "too-large") return { ok: false, answer: tooLarge() };
    payload = text === null ? null : parseObject(text);
  }
  if (!payload) {
    await cleanup();
    return { ok: false, answer: errorAnswer(400, BATCH_MESSAGES.unreadable) };
  }
  const requests = payload.requests;
  if (requests !== undefined && requests !== null && !Array.isArray(requests)) {
    await cleanup();
    return { ok: false, answer: errorAnswer(400, BATCH_MESSAGES.unreadable) };
  }
  const list = (requests ?? []) as unknown[];
  const problem = validateRequests(list);
  if (problem) {
    await cleanup();
    return { ok: false, answer: errorAnswer(400, BATCH_MESSAGES.invalid, { requests: problem }) };
  }
  const items = list.map((raw, index) => {
    const item = raw as { method: string; url: string; body?: unknown };
    const body = item.body && typeof item.body === "object" && !Array.isArray(item.body) ? (item.body as Record<string, unknown>) : {};
    return { method: item.method.toUpperCase(), url: item.url, input: { data: body, files: files[index] ?? {} } };
  });
  return { ok: true, items, cleanup };
}

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    // A NUL character is refused later, under the field that carries it (refuseNul), as PocketBase does.
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Files named `requests.N.field` or `requests[N].field`, by request index and field. */
function filesOfRequests(uploaded: Parameters<typeof filesByField>[0]): Record<number, RecordWriteInput["files"]> {
  const byRequest: Record<number, typeof uploaded> = {};
  for (const file of uploaded) {
    const match = /^requests(?:\.(\d+)\.|\[(\d+)\]\.)(.+)$/.exec(file.field);
    if (!match) continue;
    const index = Number(match[1] ?? match[2]);
    (byRequest[index] ??= []).push({ ...file, field: match[3]! });
  }
  return Object.fromEntries(Object.entries(byRequest).map(([index, list]) => [index, filesByField(list)]));
}

/** PocketBase's validation of the form (ozzo-validation's codes and messages), or null when fine. */
function validateRequests(list: unknown[]): Record<string, unknown> | null {
  if (list.length === 0) return { code: "validation_required", message: "Cannot be blank." };
  if (list.length > MAX_BATCH_REQUESTS) return { code: "validation_length_too_long", message: `The length must be no more than ${MAX_BATCH_REQUESTS}.` };
  const errors: Record<string, Record<string, { code: string; message: string }>> = {};
  list.forEach((raw, index) => {
    const item = (raw && typeof raw === "object" ? raw : {}) as { method?: unknown; url?: unknown };
    const fields: Record<string, { code: string; message: string }> = {};
    if (typeof item.method !== "string" || item.method === "") fields.method = { code: "validation_required", message: "Cannot be blank." };
    else if (!METHODS.includes(item.method.toUpperCase())) fields.method = { code: "validation_in_invalid", message: "Must be a valid value." };
    if (typeof item.url !== "string" || item.url === "") fields.url = { code: "validation_required", message: "Cannot be blank." };
    else if (item.url.length > 2000) fields.url = { code: "validation_length_too_long", message: "The length must be no more than 2000." };
    if (Object.keys(fields).length) errors[String(index)] = fields;
  });
  return Object.keys(errors).length ? errors : null;
}

/** One request of the batch, as the record routes would answer it. */
async function runItem(collections: readonly RecordCollection[], item: BatchItem, writer: RecordWriter): Promise<RecordAnswer> {
  const match = RECORDS_URL.exec(item.url);
  if (!match) return errorAnswer(400, "Something went wrong while processing your request.");
  const collection = safeDecode(match[1]!);
  const id = match[2] === undefined ? undefined : safeDecode(match[2]);
  const query = new URLSearchParams(match[3]?.slice(1) ?? "");
  if (item.method === "POST" && id === undefined) return createRecord(collections, collection, item.input, writer, query);
  if (item.method === "PATCH" && id !== undefined) return updateRecord(collections, collection, id, item.input, writer, query);
  if (item.method === "DELETE" && id !== undefined) return deleteRecord(collections, collection, id, writer);
  if (item.method === "PUT" && id === undefined) {
    // Upsert: an update when the body's id names an existing record, a create otherwise.
    const bodyId = typeof item.input.data.id === "string" ? item.input.data.id : "";
    const target = findRecordCollection(collections, collection);
    const exists = bodyId !== "" && target ? (await target.view(bodyId, { collection: "_superusers", id: "" })) !== null : false;
    return exists ? updateRecord(collections, collection, bodyId, item.input, writer, query) : createRecord(collections, collection, item.input, writer, query);
  }
  // PocketBase's "unknown batch request action" (a read, or a URL that is not a record write).
  return errorAnswer(400, "Something went wrong while processing your request.");
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

type BatchOutcome = { ok: true; results: RecordAnswer[] } | { ok: false; kind: "batch-request-failed"; index: number; answer: RecordAnswer };

/** Runs every request in one transaction; the first failure rolls all of them back. */
export async function runBatch(collections: readonly RecordCollection[], items: BatchItem[], writer: RecordWriter): Promise<RecordAnswer> {
  const outcome = await withTransaction(async (): Promise<BatchOutcome> => {
    const results: RecordAnswer[] = [];
    for (const [index, item] of items.entries()) {
      const answer = await runItem(collections, item, writer);
      if (answer.status >= 400) return { ok: false, kind: "batch-request-failed", index, answer };
      results.push(answer);
    }
    return { ok: true, results };
  });
  if (outcome.ok) return { status: 200, body: outcome.results.map(({ status, body }) => ({ status, body })) };
  return errorAnswer(400, BATCH_MESSAGES.failed, {
    requests: { [String(outcome.index)]: { code: "batch_request_failed", message: BATCH_MESSAGES.requestFailed, response: outcome.answer.body } },
  });
}
