import { and, desc, eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { contentVersions } from "~/db/schema/content";
import { invalid, notFoundResult, ok, type Result } from "~/lib/result";
import { isUuid } from "~/lib/uuid";
import type { ContentActor, ContentData } from "./collection";
import { diffContent, type FieldDiff } from "./diff";
import { staleConflict, type SaveResult } from "./drafts.server";
import type { ContentVersion } from "./entry";
import { publishing, publishLockedRow } from "./publish.server";
import { requireCollection, type CollectionRef } from "./registry.server";
import { findEntryRow, notFoundMessage, validateData } from "./rows.server";

// A record's history: every published version with who and when, the difference between any two,
// and a restore that publishes an old version's data again, every field, as a new version (the
// history only grows; docs/decisions/0037).

const toVersion = <T extends ContentData>(row: typeof contentVersions.$inferSelect): ContentVersion<T> => ({
  number: row.number,
  data: row.data as T,
  publishedAt: row.publishedAt,
  publishedBy: { id: row.publishedBy, name: row.publishedByName },
  restoredFrom: row.restoredFrom,
});

/** Every published version of a record, newest first. */
export async function listVersions<T extends ContentData = ContentData>(entryId: string): Promise<ContentVersion<T>[]> {
  if (!isUuid(entryId)) return [];
  const rows = await getDb().select().from(contentVersions).where(eq(contentVersions.entryId, entryId)).orderBy(desc(contentVersions.number));
  return rows.map((row) => toVersion<T>(row));
}

async function findVersion(entryId: string, number: number) {
  if (!isUuid(entryId) || !Number.isInteger(number)) return null;
  const [row] = await getDb()
    .select()
    .from(contentVersions)
    .where(and(eq(contentVersions.entryId, entryId), eq(contentVersions.number, number)));
  return row ?? null;
}

const missingVersion = (number: number) => notFoundResult(`No encontramos la versión ${number} de este registro.`);

/**
 * Publishes version `number` again as a new version (every field). A pending draft and its
 * schedule are cleared, as by any publish: the person restoring saw them (expectedVersion).
 */
export async function restoreVersion<T extends ContentData>(ref: CollectionRef<T>, id: string, number: number, actor: ContentActor, expectedVersion?: number, now: Date = new Date()): Promise<SaveResult<T>> {
  const collection = requireCollection(ref);
  return publishing(collection, async () => {
    const row = await findEntryRow(collection.name, id, true);
    if (!row) return notFoundResult(notFoundMessage(collection));
    if (expectedVersion !== undefined && row.version !== expectedVersion) return staleConflict<T>(row, row.draft ?? {});
    const version = await findVersion(row.id, number);
    if (!version) return missingVersion(number);
    // An old version may predate today's rules (a field made required since): say so instead of publishing it.
    const valid = validateData(collection, version.data);
    if (!valid.ok) {
      return invalid({
        fieldErrors: valid.fieldErrors,
        formErrors: [`La versión ${number} ya no cumple las reglas actuales. Cárguela como borrador, corrija lo que se indica y publíquela.`, ...valid.formErrors],
      });
    }
    return publishLockedRow(collection, row, valid.value, actor, { now, restoredFrom: number });
  });
}

/** The field-by-field difference from version `from` to version `to` of a record. */
export async function diffVersions<T extends ContentData>(ref: CollectionRef<T>, id: string, from: number, to: number): Promise<Result<FieldDiff[]>> {
  const collection = requireCollection(ref);
  const row = await findEntryRow(collection.name, id);
  if (!row) return notFoundResult(notFoundMessage(collection));
  const [before, after] = await Promise.all([findVersion(row.id, from), findVersion(row.id, to)]);
  if (!before) return missingVersion(from);
  if (!after) return missingVersion(to);
  return ok(diffContent(collection.fields, before.data, after.data));
}
