import { readBoundedText } from "~/lib/request-body";
import { withTransaction } from "~/db/client.server";
import { logger } from "~/lib/logger.server";
import { forbiddenResult, invalid, ok, type Failure, type Result } from "~/lib/result";
import { parseMultipartUpload, type UploadedFile, type UploadLimits } from "~/services/files/multipart.server";
import { removeQuietly, uploadsTmpDir } from "~/services/files/storage.server";
import type { RecordAuth, RecordCollection, RecordWriteInput, RecordWriter } from "./collection.server";
import { findRecordCollection, RECORD_API_MESSAGES, shapeRecords } from "./records.server";
import { withRecordQuery } from "./request-query.server";

// The record API's writes, PocketBase's create, update and delete (apis/record_crud.go) over any
// collection a feature defines (collection.server.ts): reads the body (JSON, a form, or multipart
// with files and PocketBase's `@jsonPayload`), runs the collection's command inside one database
// transaction (withTransaction: a batch's requests share the outer one), answers the record as
// view does, and turns a failure into PocketBase's status and body. The features decide who may
// do what through their own domain commands; this module never writes a table.
// Decision record: docs/decisions/0015-record-writes-and-batch.md.

/** PocketBase's literal messages for writes (apis/record_crud.go, apis/middlewares.go), sentenized as its router does. */
export const WRITE_MESSAGES = {
  onlySuperusers: "Only superusers can perform this action.",
  notAllowed: "The authorized record is not allowed to perform this action.",
  createFailed: "Failed to create record.",
  updateFailed: "Failed to update record.",
  deleteFailed: "Failed to delete record. Make sure that the record is not part of a required relation reference.",
  readFailed: "Failed to read the submitted data.",
} as const;

/** PocketBase's validation codes the collections use (core/validators, ozzo-validation). */
export const FIELD_CODES = {
  required: "validation_required",
  invalid: "validation_invalid_value",
  missingRelation: "validation_missing_rel_records",
  state: "validation_invalid_state",
  file: "validation_invalid_file",
} as const;

/** A field's error as PocketBase sends it under `data`. */
export interface RecordFieldError {
  code: string;
  message: string;
}

export type RecordAction = "create" | "update" | "delete";

/** An answer of the record API: status and JSON body (null for 204). */
export interface RecordAnswer {
  status: number;
  body: unknown;
}

const fieldCodes = new WeakMap<Failure, Record<string, string>>();

/**
 * A validation failure with PocketBase's `data.{field}.{code,message}` (for the collections). The
 * message is the domain's, in Spanish; the code is PocketBase's.
 */
export function recordFieldFailure(errors: Record<string, RecordFieldError>): Failure {
  const failure = invalid({ fieldErrors: Object.fromEntries(Object.entries(errors).map(([field, error]) => [field, [error.message]])) });
  fieldCodes.set(failure, Object.fromEntries(Object.entries(errors).map(([field, error]) => [field, error.code])));
  return failure;
}

/** A domain failure (a refused state change, a clash) reported under the field that asked for it. */
export function asFieldFailure(failure: Failure, field: string, code: string = FIELD_CODES.invalid): Failure {
  if (failure.kind === "not-found" || failure.kind === "forbidden" || failure.kind === "limited") return failure;
  if (failure.kind === "invalid" && Object.keys(failure.fieldErrors).length > 0) return failure;
  const message = failure.kind === "invalid" ? failure.formErrors.join(" ") : failure.message;
  return recordFieldFailure({ [field]: { code, message } });
}

/** PocketBase's 403 for a rule it does not have: nobody but a superuser may (staff included here, with its other message). */
export function refuseWrite(writer: RecordWriter): Failure {
  return forbiddenResult(writer?.auth.collection === "_superusers" ? WRITE_MESSAGES.notAllowed : WRITE_MESSAGES.onlySuperusers);
}

/** True for staff (PocketBase's superusers). */
export function isStaffWriter(writer: RecordWriter): writer is { auth: { collection: "_superusers"; id: string }; name: string } {
  return writer?.auth.collection === "_superusers";
}

// ——— Reading the body ———

/** Files a write may carry (product images are the only files written for now; the collection checks its own limits). */
export const WRITE_UPLOAD_LIMITS = { maxFiles: 20, maxFileBytes: 10 * 1024 * 1024, maxTotalBytes: 100 * 1024 * 1024 } satisfies UploadLimits;

export type ReadBody = { ok: true; input: RecordWriteInput; cleanup: () => Promise<void> } | { ok: false; answer: RecordAnswer };

const noCleanup = async () => {};

/** `@jsonPayload` plus plain fields (several values of one name become a list), as PocketBase's form reader. */
export function formDataToObject(form: FormData): Record<string, unknown> | null {
  const data: Record<string, unknown> = {};
  for (const [name, value] of form.entries()) {
    if (typeof value !== "string") continue;
    if (name === "@jsonPayload") {
      const payload = parseJsonObject(value);
      if (!payload) return null;
      Object.assign(data, payload);
      continue;
    }
    const current = data[name];
    data[name] = current === undefined ? value : Array.isArray(current) ? [...current, value] : [current, value];
  }
  return data;
}

function parseJsonObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    // A NUL character is refused later, under the field that carries it (refuseNul), as PocketBase does.
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function toFormData(params: URLSearchParams): FormData {
  const form = new FormData();
  for (const [name, value] of params) form.append(name, value);
  return form;
}

export function filesByField(files: UploadedFile[]): Record<string, UploadedFile[]> {
  const byField: Record<string, UploadedFile[]> = {};
  for (const file of files) (byField[file.field] ??= []).push(file);
  return byField;
}

const unreadable = (): ReadBody => ({ ok: false, answer: errorAnswer(400, WRITE_MESSAGES.readFailed) });

/** Most bytes of a JSON or urlencoded write (no record needs more; files go as multipart, with their own limits). */
export const MAX_JSON_BODY_BYTES = 2 * 1024 * 1024;
/** PocketBase's answer past its body limit (apis/middlewares_body_limit.go). */
export const tooLarge = (): RecordAnswer => errorAnswer(413, "Request entity too large.");

/** The body of a create or update: JSON, urlencoded, or multipart (files to temporary files the caller cleans up). */
export async function readWriteBody(request: Request): Promise<ReadBody> {
  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  if (type.startsWith("multipart/form-data")) {
    const upload = await parseMultipartUpload(request, WRITE_UPLOAD_LIMITS, uploadsTmpDir());
    if (!upload.ok) return { ok: false, answer: errorAnswer(upload.status, WRITE_MESSAGES.readFailed) };
    const cleanup = () => removeQuietly(upload.files.map((file) => file.tmpPath));
    const data = formDataToObject(upload.fields);
    if (!data) {
      await cleanup();
      return unreadable();
    }
    return { ok: true, input: { data, files: filesByField(upload.files) }, cleanup };
  }
  const text = await readBoundedText(request, MAX_JSON_BODY_BYTES);
  if (text === "too-large") return { ok: false, answer: tooLarge() };
  if (text === null) return unreadable();
  if (type.startsWith("application/x-www-form-urlencoded")) {
    const data = formDataToObject(toFormData(new URLSearchParams(text)));
    return data ? { ok: true, input: { data, files: {} }, cleanup: noCleanup } : unreadable();
  }
  if (text.trim() === "") return { ok: true, input: { data: {}, files: {} }, cleanup: noCleanup };
  const data = parseJsonObject(text);
  return data ? { ok: true, input: { data, files: {} }, cleanup: noCleanup } : unreadable();
}

// ——— The three actions ———

export function errorAnswer(status: number, message: string, data: Record<string, unknown> = {}): RecordAnswer {
  return { status, body: { status, message, data } };
}

const FAILED: Record<RecordAction, string> = { create: WRITE_MESSAGES.createFailed, update: WRITE_MESSAGES.updateFailed, delete: WRITE_MESSAGES.deleteFailed };

/** A collection's failure as PocketBase's status and body for `action`. */
export function writeFailureAnswer(failure: Failure, action: RecordAction): RecordAnswer {
  switch (failure.kind) {
    case "forbidden":
      return errorAnswer(403, failure.message);
    case "not-found":
      return errorAnswer(404, RECORD_API_MESSAGES.notFound);
    case "limited":
      return errorAnswer(429, "Too Many Requests.");
    case "invalid": {
      const codes = fieldCodes.get(failure) ?? {};
      const data = Object.fromEntries(
        Object.entries(failure.fieldErrors).map(([field, messages]) => [field, { code: codes[field] ?? FIELD_CODES.invalid, message: messages.join(" ") }]),
      );
      if (Object.keys(data).length === 0 && failure.formErrors.length) logger.debug({ action, reasons: failure.formErrors }, "record API: write refused");
      return errorAnswer(400, FAILED[action], data);
    }
    case "conflict":
      logger.debug({ action, reason: failure.message }, "record API: write refused by the record's state");
      return errorAnswer(400, FAILED[action]);
  }
}

function authOf(writer: RecordWriter): RecordAuth {
  return writer ? writer.auth : null;
}

/** The record as view answers it (the writer's view; the staff's when the writer cannot view what they wrote). */
async function answerRecord(collections: readonly RecordCollection[], collection: RecordCollection, id: string, writer: RecordWriter, params: URLSearchParams): Promise<Result<RecordAnswer>> {
  const record = await withRecordQuery(params, async () => (await collection.view(id, authOf(writer))) ?? (await collection.view(id, { collection: "_superusers", id: "" })));
  if (!record) return ok(errorAnswer(404, RECORD_API_MESSAGES.notFound));
  const [body] = await shapeRecords(collections, collection, [record], params, authOf(writer));
  return ok({ status: 200, body: body! });
}

async function run(action: RecordAction, work: () => Promise<Result<RecordAnswer>>): Promise<RecordAnswer> {
  // One transaction per write (several commands of one update commit together); inside a batch it
  // is a savepoint of the batch's.
  const result = await withTransaction(work);
  return result.ok ? result.value : writeFailureAnswer(result, action);
}

/** The first field whose value holds a NUL character anywhere (PostgreSQL refuses it in text), or null. */
export function fieldWithNul(data: Record<string, unknown>): string | null {
  const holds = (value: unknown): boolean =>
    typeof value === "string" ? value.includes("\0") : Array.isArray(value) ? value.some(holds) : value !== null && typeof value === "object" ? Object.entries(value).some(([key, item]) => key.includes("\0") || holds(item)) : false;
  for (const [name, value] of Object.entries(data)) if (name.includes("\0") || holds(value)) return name;
  return null;
}

/** A body no record can store: text with a NUL character is refused as PocketBase refuses an invalid value. */
function refuseNul(input: RecordWriteInput, action: RecordAction): RecordAnswer | null {
  const field = fieldWithNul(input.data);
  if (field === null) return null;
  return errorAnswer(400, FAILED[action], { [field.replaceAll("\0", "")]: { code: FIELD_CODES.invalid, message: "Must not contain NUL characters." } });
}

/** POST /api/collections/{collection}/records */
export async function createRecord(collections: readonly RecordCollection[], name: string, input: RecordWriteInput, writer: RecordWriter, params: URLSearchParams): Promise<RecordAnswer> {
  const collection = findRecordCollection(collections, name);
  if (!collection) return errorAnswer(404, RECORD_API_MESSAGES.missingCollection);
  const create = collection.create?.bind(collection);
  if (!create) return writeFailureAnswer(refuseWrite(writer), "create");
  const nul = refuseNul(input, "create");
  if (nul) return nul;
  return run("create", async () => {
    const created = await withRecordQuery(params, () => create(input, writer));
    return created.ok ? answerRecord(collections, collection, created.value, writer, params) : created;
  });
}

/** PATCH /api/collections/{collection}/records/{id} */
export async function updateRecord(
  collections: readonly RecordCollection[],
  name: string,
  id: string,
  input: RecordWriteInput,
  writer: RecordWriter,
  params: URLSearchParams,
): Promise<RecordAnswer> {
  const collection = findRecordCollection(collections, name);
  if (!collection) return errorAnswer(404, RECORD_API_MESSAGES.missingCollection);
  const update = collection.update?.bind(collection);
  if (!update) return writeFailureAnswer(refuseWrite(writer), "update");
  if (!id) return errorAnswer(404, RECORD_API_MESSAGES.notFound);
  const nul = refuseNul(input, "update");
  if (nul) return nul;
  return run("update", async () => {
    const updated = await withRecordQuery(params, () => update(id, input, writer));
    return updated.ok ? answerRecord(collections, collection, updated.value, writer, params) : updated;
  });
}

/** DELETE /api/collections/{collection}/records/{id} → 204 */
export async function deleteRecord(collections: readonly RecordCollection[], name: string, id: string, writer: RecordWriter): Promise<RecordAnswer> {
  const collection = findRecordCollection(collections, name);
  if (!collection) return errorAnswer(404, RECORD_API_MESSAGES.missingCollection);
  const remove = collection.remove?.bind(collection);
  if (!remove) return writeFailureAnswer(refuseWrite(writer), "delete");
  if (!id) return errorAnswer(404, RECORD_API_MESSAGES.notFound);
  return run("delete", async () => {
    const removed = await remove(id, writer);
    return removed.ok ? ok({ status: 204, body: null }) : removed;
  });
}

/** Removes a request's temporary upload files, whatever happened. */
export async function withBody<T>(body: Extract<ReadBody, { ok: true }>, work: (input: RecordWriteInput) => Promise<T>): Promise<T> {
  try {
    return await work(body.input);
  } finally {
    await body.cleanup();
  }
}

// ——— Reading fields of a body (JSON values, or the strings of a form) ———

/** Whether the body names `field` at all (PocketBase loads only the fields a body names). */
export function hasField(input: RecordWriteInput, field: string): boolean {
  return Object.hasOwn(input.data, field);
}

/** A text field: strings as sent, numbers and booleans as text, null as ""; undefined when absent or not text-like. */
export function textField(input: RecordWriteInput, field: string): string | undefined {
  const value = input.data[field];
  if (value === null) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return undefined;
}

/** A number field (a form sends text): null when present but not a number, undefined when absent. */
export function numberField(input: RecordWriteInput, field: string): number | null | undefined {
  if (!hasField(input, field)) return undefined;
  const value = input.data[field];
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))) return Number(value);
  return null;
}

/** A bool field as PocketBase casts it (true, "true", "1", 1 …): null when present but not a bool, undefined when absent. */
export function boolField(input: RecordWriteInput, field: string): boolean | null | undefined {
  if (!hasField(input, field)) return undefined;
  const value = input.data[field];
  if (typeof value === "boolean") return value;
  if (value === 1 || value === "1" || value === "true" || value === "t" || value === "TRUE" || value === "True") return true;
  if (value === 0 || value === "0" || value === "false" || value === "f" || value === "FALSE" || value === "False" || value === "" || value === null) return false;
  return null;
}

/** A list of strings (a JSON array, one string, or a form's repeated field); undefined when absent. */
export function stringListField(input: RecordWriteInput, field: string): string[] | undefined {
  if (!hasField(input, field)) return undefined;
  const value = input.data[field];
  if (value === null || value === "") return [];
  const list = Array.isArray(value) ? value : [value];
  return list.filter((item): item is string => typeof item === "string" && item !== "");
}
