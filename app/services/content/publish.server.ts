import { eq, sql } from "drizzle-orm";
import { getDb, withTransaction } from "~/db/client.server";
import { contentEntries, contentVersions } from "~/db/schema/content";
import { conflict, notFoundResult, ok, type Result } from "~/lib/result";
import type { ContentActor, ContentCollection, ContentData } from "./collection";
import { staleConflict, type SaveResult } from "./drafts.server";
import type { ContentEntry, ContentPerson } from "./entry";
import { announcePublished } from "./record-events.server";
import { addRedirect, removeRedirectsFrom } from "./redirects.server";
import { requireCollection, type CollectionRef } from "./registry.server";
import { findEntryRow, notFoundMessage, slugOf, toEntry, validateData, type EntryRow } from "./rows.server";
import { checkSlug } from "./slugs.server";
import { isUniqueViolation } from "~/db/errors.server";

// Publishing: the draft becomes the live data, one more version joins the history, the draft and
// any schedule are cleared, and when the slug of a published record changed its old addresses
// answer 301 to the new ones. The row stays locked for the whole transaction, so two publishes of
// one record (a person and the scheduler) happen one after the other, never half each.

export interface PublishOptions {
  now?: Date;
  /** The version being brought back, for the history. */
  restoredFrom?: number;
}

/**
 * Publishes `data` as the record's new live version, inside the caller's transaction with `row`
 * locked (FOR UPDATE). Used by publish, restore and the scheduler.
 */
export async function publishLockedRow<T extends ContentData>(
  collection: ContentCollection<T>,
  row: EntryRow,
  data: unknown,
  actor: ContentPerson,
  options: PublishOptions = {},
): Promise<Result<ContentEntry<T>>> {
  const now = options.now ?? new Date();
  const valid = validateData(collection, data);
  if (!valid.ok) return valid;
  const slugCheck = await checkSlug(collection, row, valid.value, { includeDrafts: false });
  if (!slugCheck.ok) return slugCheck;

  const slug = slugOf(collection, valid.value);
  const oldSlug = row.published ? slugOf(collection, row.published) : null;
  if (row.published && oldSlug && slug && oldSlug.toLowerCase() !== slug.toLowerCase()) {
    // Each address of the old record leads to the one in the same place of the new record.
    const before = collection.paths(row.published as T);
    const after = collection.paths(valid.value);
    for (const [index, from] of before.entries()) {
      const to = after[index];
      if (to && !from.includes("#") && !to.includes("#") && !after.includes(from)) await addRedirect(from, to, now);
    }
  }
  await removeRedirectsFrom(collection.paths(valid.value));

  const [last] = await getDb()
    .select({ number: sql<number>`coalesce(max(${contentVersions.number}), 0)::int` })
    .from(contentVersions)
    .where(eq(contentVersions.entryId, row.id));
  await getDb()
    .insert(contentVersions)
    .values({
      entryId: row.id,
      number: (last?.number ?? 0) + 1,
      data: valid.value,
      publishedAt: now,
      publishedBy: actor.id,
      publishedByName: actor.name,
      restoredFrom: options.restoredFrom ?? null,
    });
  const [updated] = await getDb()
    .update(contentEntries)
    .set({
      slug,
      published: valid.value,
      publishedAt: now,
      publishedBy: actor.id,
      publishedByName: actor.name,
      draft: null,
      draftSavedAt: null,
      draftSavedBy: null,
      draftSavedByName: null,
      scheduledAt: null,
      scheduledBy: null,
      scheduledByName: null,
      scheduleError: null,
      version: row.version + 1,
      updatedAt: now,
    })
    .where(eq(contentEntries.id, row.id))
    .returning();
  await announcePublished(collection.name, row.id, row.published === null);
  return ok(toEntry<T>(updated!, now));
}

/** Runs a publishing transaction; a slug taken by a concurrent publish (the unique index) is answered in Spanish. */
export async function publishing<T extends ContentData>(collection: ContentCollection<T>, work: () => Promise<SaveResult<T>>): Promise<SaveResult<T>> {
  try {
    return await withTransaction(work);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return conflict(`Otro registro de ${collection.label.toLowerCase()} acaba de publicarse con esta misma dirección. Elija otra.`);
  }
}

/** Publishes the record's draft (`expectedVersion`: the version the person saw; a stale one is a conflict). */
export async function publish<T extends ContentData>(ref: CollectionRef<T>, id: string, actor: ContentActor, expectedVersion?: number, now: Date = new Date()): Promise<SaveResult<T>> {
  const collection = requireCollection(ref);
  return publishing(collection, async () => {
    const row = await findEntryRow(collection.name, id, true);
    if (!row) return notFoundResult(notFoundMessage(collection));
    if (expectedVersion !== undefined && row.version !== expectedVersion) return staleConflict<T>(row, row.draft ?? {});
    if (row.draft === null) return conflict("No hay cambios por publicar: la versión publicada ya es la más reciente.");
    return publishLockedRow(collection, row, row.draft, actor, { now });
  });
}
