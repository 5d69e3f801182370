import { and, eq } from "drizzle-orm";
import { getDb, withTransaction } from "~/db/client.server";
import { contentEntries } from "~/db/schema/content";
import { conflict, invalid, notFoundResult, ok, type Result } from "~/lib/result";
import type { ContentActor, ContentData } from "./collection";
import type { ContentEntry } from "./entry";
import { announceDeleted } from "./record-events.server";
import { requireCollection, type CollectionRef } from "./registry.server";
import { findEntryRow, notFoundMessage, toEntry, validateData, type EntryRow } from "./rows.server";
import { checkSlug } from "./slugs.server";

// Saving keeps a draft beside the live data; the public sees nothing until it is published.
// Every save carries the version the editor started from: a stale one is refused with what is
// stored now and who saved it, never written over (docs/decisions/0037).

/** A save from a stale copy: both versions, so the editor can show them side by side. */
export interface ContentConflict<T extends ContentData = ContentData> {
  ok: false;
  kind: "conflict";
  message: string;
  /** What is stored now, with who saved it and its version. */
  current: ContentEntry<T>;
  /** What the refused save sent. */
  yours: ContentData;
}

export type SaveResult<T extends ContentData> = Result<ContentEntry<T>> | ContentConflict<T>;

export interface DraftInput {
  /** Absent: a new record (a draft only, not public until published). */
  id?: string;
  data: unknown;
  /** The entry's `version` when the editor loaded it. */
  expectedVersion?: number;
}

/** The conflict answer for a stale version, naming who saved last. */
export function staleConflict<T extends ContentData>(row: EntryRow, yours: ContentData): ContentConflict<T> {
  const entry = toEntry<T>(row);
  const who = entry.draftSavedBy ?? entry.publishedBy;
  const message = who
    ? `${who.name} guardó cambios en este registro mientras usted lo editaba. Compare las dos versiones y decida cuál conservar.`
    : "Este registro cambió mientras usted lo editaba. Compare las dos versiones y decida cuál conservar.";
  return { ok: false, kind: "conflict", message, current: entry, yours };
}

export async function saveDraft<T extends ContentData>(ref: CollectionRef<T>, input: DraftInput, actor: ContentActor, now: Date = new Date()): Promise<SaveResult<T>> {
  const collection = requireCollection(ref);
  const valid = validateData(collection, input.data);
  if (!valid.ok) return valid;
  return withTransaction(async (): Promise<SaveResult<T>> => {
    const current = input.id === undefined ? null : await findEntryRow(collection.name, input.id, true);
    if (input.id !== undefined && !current) return notFoundResult(notFoundMessage(collection));
    if (current && input.expectedVersion !== undefined && current.version !== input.expectedVersion) return staleConflict<T>(current, valid.value);
    if (!current && collection.singleton) {
      const [existing] = await getDb().select({ id: contentEntries.id }).from(contentEntries).where(eq(contentEntries.collection, collection.name)).limit(1);
      if (existing) return invalid(`${collection.label} tiene un solo registro: edite el que ya existe.`);
    }
    const slugCheck = await checkSlug(collection, current, valid.value, { includeDrafts: true });
    if (!slugCheck.ok) return slugCheck;
    const draft = { draft: valid.value, draftSavedAt: now, draftSavedBy: actor.id, draftSavedByName: actor.name, updatedAt: now };
    const [row] = current
      ? await getDb()
          .update(contentEntries)
          .set({ ...draft, version: current.version + 1 })
          .where(eq(contentEntries.id, current.id))
          .returning()
      : await getDb()
          .insert(contentEntries)
          .values({ ...draft, collection: collection.name, version: 1, createdAt: now })
          .returning();
    return ok(toEntry<T>(row!, now));
  });
}

/** Drops the pending changes (and their schedule); the published data stays. A never-published record has nothing to fall back to: delete it instead. */
export async function discardDraft<T extends ContentData>(ref: CollectionRef<T>, id: string, expectedVersion?: number, now: Date = new Date()): Promise<SaveResult<T>> {
  const collection = requireCollection(ref);
  return withTransaction(async (): Promise<SaveResult<T>> => {
    const current = await findEntryRow(collection.name, id, true);
    if (!current) return notFoundResult(notFoundMessage(collection));
    if (expectedVersion !== undefined && current.version !== expectedVersion) return staleConflict<T>(current, current.draft ?? {});
    if (current.published === null) return conflict("Este registro nunca se ha publicado: no hay otra versión a la cual volver. Si ya no lo necesita, elimínelo.");
    const [row] = await getDb()
      .update(contentEntries)
      .set({ draft: null, draftSavedAt: null, draftSavedBy: null, draftSavedByName: null, scheduledAt: null, scheduledBy: null, scheduledByName: null, version: current.version + 1, updatedAt: now })
      .where(eq(contentEntries.id, current.id))
      .returning();
    return ok(toEntry<T>(row!, now));
  });
}

/** Deletes a record with its history; records that always exist (fixed) are refused. */
export async function deleteEntry<T extends ContentData>(ref: CollectionRef<T>, id: string): Promise<Result> {
  const collection = requireCollection(ref);
  const row = await findEntryRow(collection.name, id);
  if (!row) return notFoundResult(notFoundMessage(collection));
  if (row.fixed) {
    return conflict(
      collection.singleton
        ? `${collection.label} tiene un solo registro y no puede eliminarse; puede editarlo.`
        : "Este registro siempre existe en el sitio y no puede eliminarse. Puede editar su contenido.",
    );
  }
  await withTransaction(async () => {
    const deleted = await getDb()
      .delete(contentEntries)
      .where(and(eq(contentEntries.id, row.id), eq(contentEntries.fixed, false)))
      .returning();
    if (deleted[0]) await announceDeleted(deleted[0]);
  });
  return ok();
}
