import { and, eq, sql, type SQL } from "drizzle-orm";
import { getDb, withTransaction } from "~/db/client.server";
import type { RecordFieldMap } from "~/db/record-filter.server";
import { contentEntries, redirects } from "~/db/schema/content";
import { forbiddenResult, notFoundResult, ok, type Failure, type Result } from "~/lib/result";
import { markdownToRichText } from "~/lib/rich-text/from-markdown";
import { htmlToRichText } from "~/lib/rich-text/from-markdown.server";
import { renderRichText, type RenderRichTextOptions } from "~/lib/rich-text/render.server";
import { isUuid } from "~/lib/uuid";
import type { RecordAuth, RecordCollection, RecordData, RecordEventAccess, RecordWriteInput, RecordWriter } from "~/services/records/collection.server";
import { RECORD_API_MESSAGES } from "~/services/records/records.server";
import { recordQuery } from "~/services/records/request-query.server";
import { tableCollection } from "~/services/records/table-collection.server";
import { asFieldFailure, boolField, FIELD_CODES, numberField, recordFieldFailure, refuseWrite, textField } from "~/services/records/writes.server";
import type { ContentActor, ContentData, ContentField } from "./collection";
import { deleteEntry, saveDraft, type SaveResult } from "./drafts.server";
import { getEntry } from "./entries.server";
import { publish } from "./publish.server";
import { publishedRecords } from "./published.server";
import { deleteRedirect, listRedirects, saveRedirect } from "./redirects.server";
import { listCollections, type AnyContentCollection } from "./registry.server";
import { validateData, type EntryRow } from "./rows.server";

// Every content collection (docs/decisions/0037) as a collection of the record API (issue 16 §5):
// anyone lists and views what is published and public, staff write through the same rules as the
// editor. `?draft=true` (staff only) reads the draft where there is one, unpublished records
// included, and writes only the draft; a write without it saves and publishes in one transaction.
// Rich text is accepted as the editor's JSON, HTML or Markdown, and answered as the JSON plus
// `<field>_html`, the sanitized HTML. `redirecciones` is the store's redirects table.

// ——— Who may ———
// Any staff account, here: the staff role gate in front of every record collection
// (gateStaffRecordCollections, docs/decisions/0040) has already turned staff whose role lacks the
// collection's area (contenido, or ajustes for admins) into guests.

/** Whether `auth` may read the admins' collections (ajustes). */
export function mayReadAdminContent(auth: RecordAuth): boolean {
  return auth?.collection === "_superusers";
}

/** Whether `auth` may write `collection` and read its drafts (ajustes: as mayReadAdminContent). */
export function mayWriteContent(auth: RecordAuth, collection: Pick<AnyContentCollection, "access">): boolean {
  if (collection.access === "admin") return mayReadAdminContent(auth);
  return auth?.collection === "_superusers";
}

// ——— Reading ———

/** `?draft=true` (or 1), as PocketBase reads a boolean query. */
function asksDraft(params: URLSearchParams): boolean {
  const value = params.get("draft");
  return value !== null && ["1", "t", "true", "True", "TRUE"].includes(value);
}

const RECORD = sql.raw("content_record");
const NAME = /^[a-z][a-z0-9_]*$/;

function jsonKey(name: string): SQL {
  if (!NAME.test(name)) throw new Error(`Content field name must be lowercase letters, digits and _: ${name}`);
  return sql.raw(`'${name}'`);
}

/** The fields a filter or sort may name: the system ones and each scalar or list field, read from the record's JSON. */
export function contentFieldMap(fields: readonly ContentField[]): RecordFieldMap {
  const map: Record<string, RecordFieldMap[string]> = {
    id: { column: sql`${RECORD}.id::text`, type: "text" },
    created: { column: sql`${RECORD}.created`, type: "date" },
    updated: { column: sql`${RECORD}.updated`, type: "date" },
  };
  for (const field of fields) {
    const key = jsonKey(field.name);
    const value = sql`(${RECORD}.data -> ${key})`;
    switch (field.kind) {
      case "number":
        map[field.name] = { column: sql`(case when jsonb_typeof(${value}) = 'number' then (${RECORD}.data ->> ${key})::numeric end)`, type: "number" };
        break;
      case "boolean":
        map[field.name] = { column: sql`(case when jsonb_typeof(${value}) = 'boolean' then (${RECORD}.data ->> ${key})::boolean end)`, type: "bool" };
        break;
      case "list":
        map[field.name] = { column: value, type: "json-array" };
        break;
      case "items":
      case "richtext":
        // Structured values: read in the answer, not compared.
        break;
      default:
        map[field.name] = { column: sql`(${RECORD}.data ->> ${key})`, type: "text" };
    }
  }
  return map;
}

/** The collection's records as one row source named content_record: id, created, updated and data (the published data, or the draft over it). */
function recordSource(collection: AnyContentCollection, draft: boolean): SQL {
  const data = draft ? sql`coalesce(${contentEntries.draft}, ${contentEntries.published})` : sql`${contentEntries.published}`;
  const updated = draft ? sql`${contentEntries.updatedAt}` : sql`coalesce(${contentEntries.publishedAt}, ${contentEntries.createdAt})`;
  const published = draft ? sql`` : sql` and ${contentEntries.published} is not null`;
  return sql`(select ${contentEntries.id} as id, ${contentEntries.createdAt} as created, ${updated} as updated, ${data} as data from ${contentEntries} where ${contentEntries.collection} = ${collection.name}${published}) as ${RECORD}`;
}

/** Which records `auth` reads: every one in a staff draft read, every published one for staff, the public ones for everyone else. */
async function visibleRule(collection: AnyContentCollection, auth: RecordAuth, draft: boolean): Promise<SQL> {
  if (draft) return sql`true`;
  if (collection.access === "admin" ? mayReadAdminContent(auth) : auth?.collection === "_superusers") return sql`true`;
  if (collection.access === "admin") return sql`false`;
  const ids = (await publishedRecords(collection)).map((record) => record.id);
  return sql`${RECORD}.id::text in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))`;
}

function isDraftRead(collection: AnyContentCollection, auth: RecordAuth): boolean {
  return asksDraft(recordQuery()) && mayWriteContent(auth, collection);
}

interface SourceRow extends Record<string, unknown> {
  id: string;
  created: Date | string;
  updated: Date | string;
  data: ContentData | null;
}

const asDate = (value: Date | string) => (value instanceof Date ? value : new Date(value));

/**
 * How the long texts about to be answered are rendered (their library images, the business facts
 * they name): given at start by the site feature (docs/decisions/0050, 0087). Without it, images are
 * left out and the texts are shown as stored.
 */
export type RichTextRendering = (...documents: unknown[]) => Promise<RenderRichTextOptions>;

/** The options for the rich-text fields of `rows`, or undefined when there are none (or no hook). */
async function renderingOf(collection: AnyContentCollection, rows: readonly { data: ContentData | null }[], rendering: RichTextRendering | undefined): Promise<RenderRichTextOptions | undefined> {
  const documents = collection.fields.filter((field) => field.kind === "richtext").flatMap((field) => rows.map((row) => row.data?.[field.name]));
  return rendering && documents.length ? rendering(...documents) : undefined;
}

/** A stored record as the API answers it: its fields (defaults of later rules filled in) and each rich text's sanitized HTML. */
export function toContentRecord(collection: AnyContentCollection, row: { id: string; created: Date | string; updated: Date | string; data: ContentData | null }, options: RenderRichTextOptions = {}): RecordData {
  const parsed = validateData(collection, row.data ?? {});
  const data: ContentData = parsed.ok ? parsed.value : (row.data ?? {});
  const record: RecordData = { id: row.id, created: asDate(row.created), updated: asDate(row.updated) };
  for (const field of collection.fields) {
    const value = data[field.name] ?? null;
    record[field.name] = value;
    if (field.kind === "richtext") record[`${field.name}_html`] = renderRichText(value as Parameters<typeof renderRichText>[0], options);
  }
  return record;
}

async function selectRows(source: SQL, where: SQL, tail: SQL = sql``): Promise<SourceRow[]> {
  const result = await getDb().execute<SourceRow>(sql`select ${RECORD}.id::text as id, ${RECORD}.created, ${RECORD}.updated, ${RECORD}.data from ${source} where ${where}${tail}`);
  return (result as unknown as { rows: SourceRow[] }).rows;
}

// ——— Writing ———

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** Rich text sent as the editor's JSON (object or text), HTML or Markdown, as the editor's JSON; HTML and Markdown go through the same cleaners as a paste. */
export async function richTextValue(value: unknown): Promise<unknown> {
  if (typeof value !== "string") return value;
  const text = value.trim();
  if (text === "") return markdownToRichText("");
  if (text.startsWith("{")) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (isObject(parsed) && "root" in parsed) return parsed;
    } catch {
      // Not JSON: read as Markdown below.
    }
  }
  // HTML starts with a tag; Markdown may hold a tag inside (its raw HTML keeps only its words).
  return /^<[a-z!]/i.test(text) ? htmlToRichText(text) : markdownToRichText(text);
}

/** The body's fields of the collection over `base` (PocketBase changes only the fields a body names; other keys are ignored). */
async function contentDataOf(collection: AnyContentCollection, input: RecordWriteInput, base: ContentData): Promise<ContentData> {
  const data: ContentData = { ...base };
  for (const field of collection.fields) {
    if (!Object.hasOwn(input.data, field.name)) continue;
    const raw = input.data[field.name];
    if (field.kind === "richtext") data[field.name] = await richTextValue(raw);
    else if (field.kind === "number" && typeof raw === "string") data[field.name] = numberField(input, field.name) ?? raw;
    else if (field.kind === "boolean" && typeof raw !== "boolean") data[field.name] = boolField(input, field.name) ?? raw;
    else if (field.kind === "items" && typeof raw === "string") data[field.name] = parseJsonOr(raw);
    else data[field.name] = raw;
  }
  return data;
}

function parseJsonOr(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const actorOf = (writer: NonNullable<RecordWriter>): ContentActor => ({ id: writer.auth.id, name: writer.name });

/** A store failure as the API reports it: field errors as they are, a refusal of the record's state under `field`, in Spanish. */
function storeFailure(failure: Failure | Extract<SaveResult<ContentData>, { ok: false }>, field: string): Failure {
  const plain: Failure = failure.kind === "conflict" ? { ok: false, kind: "conflict", message: failure.message } : failure;
  return asFieldFailure(plain, field, FIELD_CODES.state);
}

/** Saves the draft and, unless the request is a draft write, publishes it: one transaction, all or nothing. */
async function write(collection: AnyContentCollection, id: string | undefined, data: ContentData, writer: NonNullable<RecordWriter>): Promise<Result<string>> {
  const stateField = collection.slugField ?? "id";
  return withTransaction(async (): Promise<Result<string>> => {
    const actor = actorOf(writer);
    const saved = await saveDraft(collection, { id, data }, actor);
    if (!saved.ok) return storeFailure(saved, stateField);
    if (asksDraft(recordQuery())) return ok(saved.value.id);
    const published = await publish(collection, saved.value.id, actor, saved.value.version);
    return published.ok ? ok(saved.value.id) : storeFailure(published, stateField);
  });
}

// ——— The collections ———

function eventAccess(collection: AnyContentCollection, rendering?: RichTextRendering): RecordEventAccess {
  const readPublished = async (id: string) => {
    if (!isUuid(id)) return null;
    const [row] = await getDb()
      .select({ id: contentEntries.id, created: contentEntries.createdAt, publishedAt: contentEntries.publishedAt, data: contentEntries.published })
      .from(contentEntries)
      .where(and(eq(contentEntries.id, id), eq(contentEntries.collection, collection.name)));
    return row?.data ? { id: row.id, created: row.created, updated: row.publishedAt ?? row.created, data: row.data } : null;
  };
  /** Who sees a published version: staff (admins for ajustes) always, everyone else when it is public. */
  const access = (data: ContentData | null, auths: readonly NonNullable<RecordAuth>[], guest: boolean) => {
    const parsed = data ? validateData(collection, data) : null;
    const isPublic = collection.access === "public" && parsed !== null && parsed.ok && collection.isPublic(parsed.value);
    const staff = (auth: RecordAuth) => data !== null && (collection.access === "admin" ? mayReadAdminContent(auth) : auth?.collection === "_superusers");
    return { guest: guest && isPublic, auths: auths.map((auth) => isPublic || staff(auth)) };
  };
  return {
    async read(id) {
      const row = await readPublished(id);
      return row ? toContentRecord(collection, row, await renderingOf(collection, [row], rendering)) : null;
    },
    async whoMayView(target, auths, guest) {
      if ("id" in target) return access((await readPublished(target.id))?.data ?? null, auths, guest);
      // The entry's row as the delete left it (record-events.server.ts).
      const row = target.deletedRow as Partial<Pick<EntryRow, "published" | "collection">> | null;
      return access(row?.collection === collection.name ? (row.published ?? null) : null, auths, guest);
    },
  };
}

/** One content collection of the store as a record collection. */
export function contentRecordCollection(collection: AnyContentCollection, rendering?: RichTextRendering): RecordCollection {
  const fields = contentFieldMap(collection.fields);
  const draftRefused = () => forbiddenResult(RECORD_API_MESSAGES.superusersOnly);
  return {
    id: `pbc_${collection.name}`,
    name: collection.name,
    fields,
    defaultSort: "created",
    superusersOnly: collection.access === "admin",
    refuseRead: (params, auth) => (asksDraft(params) && !mayWriteContent(auth, collection) ? draftRefused() : null),

    async list({ where, orderBy, limit, offset, auth }) {
      const draft = isDraftRead(collection, auth);
      const rows = await selectRows(recordSource(collection, draft), and(await visibleRule(collection, auth, draft), where)!, sql` order by ${sql.join(orderBy, sql`, `)} limit ${limit} offset ${offset}`);
      const options = await renderingOf(collection, rows, rendering);
      return rows.map((row) => toContentRecord(collection, row, options));
    },

    async count({ where, auth }) {
      const draft = isDraftRead(collection, auth);
      const result = await getDb().execute<{ count: number }>(sql`select count(*)::int as count from ${recordSource(collection, draft)} where ${and(await visibleRule(collection, auth, draft), where)}`);
      return Number((result as unknown as { rows: { count: number }[] }).rows[0]?.count ?? 0);
    },

    async view(id, auth) {
      if (!isUuid(id)) return null;
      const draft = isDraftRead(collection, auth);
      const [row] = await selectRows(recordSource(collection, draft), and(sql`${RECORD}.id = ${id}::uuid`, await visibleRule(collection, auth, draft))!);
      return row ? toContentRecord(collection, row, await renderingOf(collection, [row], rendering)) : null;
    },

    async create(input, writer) {
      if (!writer || !mayWriteContent(writer.auth, collection)) return refuseWrite(writer);
      if (collection.singleton) {
        return recordFieldFailure({ id: { code: FIELD_CODES.state, message: `${collection.label} tiene un solo registro: edite el que ya existe.` } });
      }
      return write(collection, undefined, await contentDataOf(collection, input, {}), writer);
    },

    async update(id, input, writer) {
      if (!writer || !mayWriteContent(writer.auth, collection)) return refuseWrite(writer);
      const entry = await getEntry(collection, id);
      if (!entry.ok) return entry;
      // The latest version is the base: the draft when there is one (a write without ?draft=true then publishes it with these changes).
      const base = entry.value.draft ?? entry.value.published ?? {};
      return write(collection, id, await contentDataOf(collection, input, base), writer);
    },

    async remove(id, writer) {
      if (!writer || !mayWriteContent(writer.auth, collection)) return refuseWrite(writer);
      const removed = await deleteEntry(collection, id);
      return removed.ok ? removed : storeFailure(removed, collection.slugField ?? "id");
    },

    events: eventAccess(collection, rendering),
  };
}

// ——— redirecciones: the redirects table ———

const REDIRECT_FIELDS: RecordFieldMap = {
  id: { column: redirects.id, type: "text" },
  created: { column: redirects.createdAt, type: "date" },
  updated: { column: redirects.updatedAt, type: "date" },
  desde: { column: redirects.fromPath, type: "text" },
  hacia: { column: redirects.toPath, type: "text" },
};

/** The 301s (the store's redirects table): public like the addresses they answer, written by staff through saveRedirect. */
export function redirectsRecordCollection(collection: Pick<AnyContentCollection, "name" | "access"> = { name: "redirecciones", access: "public" }): RecordCollection {
  const base = tableCollection<typeof redirects.$inferSelect>({
    id: `pbc_${collection.name}`,
    name: collection.name,
    fields: REDIRECT_FIELDS,
    defaultSort: "desde",
    table: redirects,
    idColumn: redirects.id,
    isId: isUuid,
    select: () => getDb().select().from(redirects).$dynamic(),
    rule: () => undefined,
    toRecord: (row) => ({ id: row.id, created: row.createdAt, updated: row.updatedAt, desde: row.fromPath, hacia: row.toPath }),
  });
  const save = async (id: string | undefined, input: RecordWriteInput, writer: RecordWriter): Promise<Result<string>> => {
    if (!writer || !mayWriteContent(writer.auth, collection)) return refuseWrite(writer);
    const current = id === undefined ? undefined : (await listRedirects()).find((redirect) => redirect.id === id);
    if (id !== undefined && !current) return notFoundResult("Esa redirección ya no existe.");
    const desde = textField(input, "desde") ?? current?.from ?? "";
    const hacia = textField(input, "hacia") ?? current?.to ?? "";
    const missing: Record<string, { code: string; message: string }> = {};
    if (!desde.trim()) missing.desde = { code: FIELD_CODES.required, message: "Escriba la dirección anterior, por ejemplo /servicios-antiguos." };
    if (!hacia.trim()) missing.hacia = { code: FIELD_CODES.required, message: "Escriba la dirección a la que debe llevar." };
    if (Object.keys(missing).length) return recordFieldFailure(missing);
    const saved = await saveRedirect({ id, desde, hacia });
    return saved.ok ? ok(saved.value.id) : saved.kind === "invalid" ? saved : asFieldFailure(saved, "desde");
  };
  return {
    ...base,
    create: (input, writer) => save(undefined, input, writer),
    update: (id, input, writer) => save(id, input, writer),
    async remove(id, writer) {
      if (!writer || !mayWriteContent(writer.auth, collection)) return refuseWrite(writer);
      return deleteRedirect(id);
    },
    // The redirects table announces nothing to realtime (no trigger): no events.
    events: undefined,
  };
}

/** Every registered content collection as a record collection (`redirecciones` over the redirects table), in the store's order. */
export function contentRecordCollections(collections: readonly AnyContentCollection[] = listCollections(), options: { richTextRendering?: RichTextRendering } = {}): RecordCollection[] {
  return collections.map((collection) => (collection.name === "redirecciones" ? redirectsRecordCollection(collection) : contentRecordCollection(collection, options.richTextRendering)));
}
