import { asc, eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { contentEntries } from "~/db/schema/content";
import { notFoundResult, ok, type Result } from "~/lib/result";
import type { ContentData } from "./collection";
import type { ContentEntry } from "./entry";
import { requireCollection, type CollectionRef } from "./registry.server";
import { findEntryRow, notFoundMessage, toEntry } from "./rows.server";

// What staff see of a collection in the editor: every record with its draft, published and
// scheduled state, and who is editing it.

/** Every record of the collection, drafts included, in the collection's order (of the draft when there is one). */
export async function listEntries<T extends ContentData>(ref: CollectionRef<T>, now: Date = new Date()): Promise<ContentEntry<T>[]> {
  const collection = requireCollection(ref);
  const rows = await getDb().select().from(contentEntries).where(eq(contentEntries.collection, collection.name)).orderBy(asc(contentEntries.createdAt), asc(contentEntries.id));
  const entries = rows.map((row) => toEntry<T>(row, now));
  const compare = collection.compare;
  if (compare) entries.sort((a, b) => compare((a.draft ?? a.published)!, (b.draft ?? b.published)!));
  return entries;
}

export async function getEntry<T extends ContentData>(ref: CollectionRef<T>, id: string, now: Date = new Date()): Promise<Result<ContentEntry<T>>> {
  const collection = requireCollection(ref);
  const row = await findEntryRow(collection.name, id);
  return row ? ok(toEntry<T>(row, now)) : notFoundResult(notFoundMessage(collection));
}
