import { and, eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { contentEntries } from "~/db/schema/content";
import { ok, type Failure, type FieldErrors } from "~/lib/result";
import { isUuid } from "~/lib/uuid";
import type { z } from "~/lib/zod";
import type { ContentCollection, ContentData } from "./collection";
import type { ContentEntry, ContentEntryState, ContentPerson } from "./entry";
import type { AnyContentCollection } from "./registry.server";

// The pieces every command of the store shares: a row as an entry, a record's rules with Spanish
// messages, its slug, and the row read for a command.

export type EntryRow = typeof contentEntries.$inferSelect;

/** A lock lapses when its holder sends no heartbeat for this long (the tab closed, the laptop slept). */
export const LOCK_LAPSE_MS = 2 * 60 * 1000;

/** The one name of the system actor in history (the first load of the demo content). */
export const SYSTEM_ACTOR: ContentPerson = { id: null, name: "Forja" };

function person(id: string | null, name: string | null): ContentPerson | null {
  return name === null ? null : { id, name };
}

function stateOf(row: EntryRow): ContentEntryState {
  if (row.scheduledAt && row.draft) return "programado";
  if (row.published === null) return "borrador";
  return row.draft === null ? "publicado" : "cambios";
}

export function lockIsActive(row: Pick<EntryRow, "lockedBy" | "lockHeartbeatAt">, now: Date): boolean {
  return row.lockedBy !== null && row.lockHeartbeatAt !== null && now.getTime() - row.lockHeartbeatAt.getTime() < LOCK_LAPSE_MS;
}

export function toEntry<T extends ContentData>(row: EntryRow, now: Date = new Date()): ContentEntry<T> {
  return {
    id: row.id,
    collection: row.collection,
    slug: row.slug,
    state: stateOf(row),
    published: row.published as T | null,
    publishedAt: row.publishedAt,
    publishedBy: person(row.publishedBy, row.publishedByName),
    draft: row.draft as T | null,
    draftSavedAt: row.draftSavedAt,
    draftSavedBy: person(row.draftSavedBy, row.draftSavedByName),
    version: row.version,
    scheduledAt: row.scheduledAt,
    scheduledBy: person(row.scheduledBy, row.scheduledByName),
    scheduleError: row.scheduleError,
    lock: lockIsActive(row, now) ? { by: { id: row.lockedBy, name: row.lockedByName ?? "" }, since: row.lockedAt ?? row.lockHeartbeatAt! } : null,
    fixed: row.fixed,
    created: row.createdAt,
    updated: row.updatedAt,
  };
}

/** What a record's field says when zod has no Spanish message of the collection for it. */
const fallbackMessage: z.core.$ZodErrorMap = (issue) => {
  if (issue.code === "invalid_type" && issue.input === undefined) return "Este campo es obligatorio.";
  if (issue.code === "too_small" && issue.origin === "string" && issue.minimum === 1) return "Este campo es obligatorio.";
  return "Revise este valor.";
};

/** The record checked against its collection's rules: the parsed data, or Spanish messages per field ("cifras.0.valor"). */
export function validateData<T extends ContentData>(collection: ContentCollection<T>, data: unknown): { ok: true; value: T } | Extract<Failure, { kind: "invalid" }> {
  const parsed = collection.schema.safeParse(data, { error: fallbackMessage });
  if (parsed.success) return ok(parsed.data);
  const fieldErrors: FieldErrors = {};
  const formErrors: string[] = [];
  for (const issue of parsed.error.issues) {
    const key = issue.path.map(String).join(".");
    if (key) (fieldErrors[key] ??= []).push(issue.message);
    else formErrors.push(issue.message);
  }
  return { ok: false, kind: "invalid", fieldErrors, formErrors };
}

/** The record's slug, when its collection has one. */
export function slugOf(collection: AnyContentCollection, data: ContentData | null): string | null {
  if (!collection.slugField || !data) return null;
  const value = data[collection.slugField];
  return typeof value === "string" && value.trim() ? value.trim() : null;
}

/** A record of the collection, locked for the rest of the transaction when `forUpdate`. */
export async function findEntryRow(collection: string, id: string, forUpdate = false): Promise<EntryRow | null> {
  if (!isUuid(id)) return null;
  const query = getDb()
    .select()
    .from(contentEntries)
    .where(and(eq(contentEntries.id, id), eq(contentEntries.collection, collection)));
  const [row] = forUpdate ? await query.for("update") : await query;
  return row ?? null;
}

export function notFoundMessage(collection: AnyContentCollection): string {
  return `No encontramos ese registro de ${collection.label.toLowerCase()}: quizá alguien lo eliminó.`;
}
