import { AsyncLocalStorage } from "node:async_hooks";
import { eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { contentEntries } from "~/db/schema/content";
import type { ContentData } from "./collection";
import type { ContentRecord } from "./entry";
import { getCollection, type AnyContentCollection } from "./registry.server";
import { validateData } from "./rows.server";

// «Vista previa» (issue 16 §2, docs/decisions/0049): staff see one record's draft at its real public
// address. The request that asks for it runs inside a scope (AsyncLocalStorage, set by the site's
// request middleware only after the staff check); inside it, the public reads of the previewed
// record's collection (published.server.ts) answer the draft in place of the published data, read
// afresh and never from or into the shared caches. Outside a scope nothing changes: no argument,
// no flag, no other reader learns that previews exist.

/** The record whose draft a preview shows, and that draft as a public record. */
export interface DraftPreview {
  collection: AnyContentCollection;
  record: ContentRecord;
  /** Whether the public would see the record once published (its own `publicado` flag). */
  visible: boolean;
}

const scope = new AsyncLocalStorage<DraftPreview>();

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The draft of record `id` (its published data when it has no draft), or null when there is no such record. */
export async function loadDraftPreview(id: string): Promise<DraftPreview | null> {
  if (!UUID.test(id)) return null;
  const [row] = await getDb().select().from(contentEntries).where(eq(contentEntries.id, id)).limit(1);
  const collection = row ? getCollection(row.collection) : undefined;
  const stored = row?.draft ?? row?.published;
  if (!row || !collection || !stored) return null;
  // Parsed as the public read parses published data: defaults of later rules filled in.
  const parsed = validateData(collection, stored);
  const data: ContentData = parsed.ok ? parsed.value : stored;
  const updated = row.draft ? (row.draftSavedAt ?? row.updatedAt) : (row.publishedAt ?? row.createdAt);
  return { collection, record: { id: row.id, created: row.createdAt, updated, data }, visible: collection.isPublic(data) };
}

/** Runs `work` (the rest of one request) with `preview`'s draft in place of the record's published data. */
export function withDraftPreview<R>(preview: DraftPreview, work: () => R): R {
  return scope.run(preview, work);
}

/** The preview the current request is inside of, if any. */
export function activeDraftPreview(): DraftPreview | undefined {
  return scope.getStore();
}
