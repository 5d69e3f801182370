import { and, asc, eq, isNotNull } from "drizzle-orm";
import { createLiveCache } from "~/db/change-feed.server";
import { getDb } from "~/db/client.server";
import { contentEntries } from "~/db/schema/content";
import type { ContentCollection, ContentData } from "./collection";
import type { ContentRecord } from "./entry";
import { activeDraftPreview, type DraftPreview } from "./preview.server";
import { requireCollection, type CollectionRef } from "./registry.server";
import { validateData } from "./rows.server";

// What the public sees, read by every page render: the published records of a collection, from
// memory while nothing of it was published since (a live cache per collection follows NOTIFY 'contenido:<name>' from
// every process sharing the database, docs/decisions/0011 and 0037). Drafts are read here only
// inside a staff preview (preview.server.ts, docs/decisions/0049), and never cached.

// One cache per collection, on its own topic: publishing a question does not recompute the services.
const caches = new Map<string, ReturnType<typeof createLiveCache<readonly ContentRecord[]>>>();

function cacheOf(name: string) {
  let cache = caches.get(name);
  if (!cache) caches.set(name, (cache = createLiveCache<readonly ContentRecord[]>(`contenido:${name}`, 1)));
  return cache;
}

function deepFreeze<V>(value: V): V {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}

async function loadPublished<T extends ContentData>(collection: ContentCollection<T>): Promise<readonly ContentRecord<T>[]> {
  const rows = await getDb()
    .select({ id: contentEntries.id, created: contentEntries.createdAt, publishedAt: contentEntries.publishedAt, data: contentEntries.published })
    .from(contentEntries)
    .where(and(eq(contentEntries.collection, collection.name), isNotNull(contentEntries.published)))
    .orderBy(asc(contentEntries.createdAt), asc(contentEntries.id));
  const records: ContentRecord<T>[] = [];
  for (const row of rows) {
    // Parsed again so a field added to the rules later gets its default in older records.
    const parsed = validateData(collection, row.data);
    const data = parsed.ok ? parsed.value : (row.data as T);
    if (!collection.isPublic(data)) continue;
    records.push({ id: row.id, created: row.created, updated: row.publishedAt ?? row.created, data });
  }
  if (collection.compare) {
    const compare = collection.compare;
    records.sort((a, b) => compare(a.data, b.data));
  }
  // Shared by every request until the next publish: nobody may change them in place.
  return deepFreeze(records);
}

/**
 * The published records with one record's draft in place of its published data (or added, when it
 * was never published; left out when its draft is not public), for a staff preview. Read afresh and
 * kept nowhere: the shared cache never sees a draft (docs/decisions/0049).
 */
async function loadPreviewed<T extends ContentData>(collection: ContentCollection<T>, preview: DraftPreview): Promise<readonly ContentRecord<T>[]> {
  const draft = preview.record as ContentRecord<T>;
  const published = await loadPublished(collection);
  const records = published.filter((record) => record.id !== draft.id);
  if (preview.visible) {
    const at = published.findIndex((record) => record.id === draft.id);
    records.splice(at < 0 ? records.length : at, 0, draft);
  }
  if (collection.compare) {
    const compare = collection.compare;
    records.sort((a, b) => compare(a.data, b.data));
  }
  return deepFreeze(records);
}

/** The public records of a collection (published and `isPublic`), in the collection's order. */
export function publishedRecords<T extends ContentData>(ref: CollectionRef<T>): Promise<readonly ContentRecord<T>[]> {
  const collection = requireCollection(ref);
  // Inside a staff preview of one of its records (preview.server.ts); every other read is the cache's.
  const preview = activeDraftPreview();
  if (preview?.collection.name === collection.name) return loadPreviewed(collection, preview);
  return cacheOf(collection.name).get("records", () => loadPublished(collection)) as Promise<readonly ContentRecord<T>[]>;
}

/** A public record by its slug, whatever its case; null when there is none (or it is not public). */
export async function publishedRecord<T extends ContentData>(ref: CollectionRef<T>, slug: string): Promise<ContentRecord<T> | null> {
  const collection = requireCollection(ref);
  const field = collection.slugField;
  if (!field) return null;
  const wanted = slug.trim().toLowerCase();
  const records = await publishedRecords(collection);
  return records.find((record) => String(record.data[field] ?? "").toLowerCase() === wanted) ?? null;
}

/** The one record of a singleton collection (ajustes, inicio), or null before it exists. */
export async function singleton<T extends ContentData>(ref: CollectionRef<T>): Promise<ContentRecord<T> | null> {
  const [record] = await publishedRecords(ref);
  return record ?? null;
}
