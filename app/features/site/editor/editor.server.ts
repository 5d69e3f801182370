import type { ContentData, ContentField } from "~/services/content/collection";
import { diffContent, type FieldDiff } from "~/services/content/diff";
import type { ContentConflict } from "~/services/content/drafts.server";
import type { ContentEntry } from "~/services/content/entry";
import type { MediaView } from "~/lib/media";
import { richTextImageIds } from "~/lib/rich-text/image-ids";
import { renderRichText } from "~/lib/rich-text/render.server";
import { formatDateTime } from "~/lib/format";
import { getEntry } from "~/services/content/entries.server";
import { getCollection, listCollections, type AnyContentCollection } from "~/services/content/registry.server";
import { mediaViews } from "../media/media-library.server";
import { richTextImageSource } from "../media/rich-text-images.server";

// What the content editor (/admin/contenido, docs/decisions/0045) reads of the store: which staff
// area each collection belongs to, the rows of its lists and what a form needs (its fields, the
// data to edit and the server's rendering of its long texts). The pages get plain data; the
// collection modules (with their schemas and seeds) never reach the browser.

/** The staff area that may edit a collection: "ajustes" (admins) for admin-only collections, "contenido" for the rest. */
export type EditorArea = "contenido" | "ajustes";

export function collectionArea(collection: AnyContentCollection): EditorArea {
  return collection.access === "admin" ? "ajustes" : "contenido";
}

/** A registered collection by the name in the address, or null. */
export function findEditorCollection(name: string): AnyContentCollection | null {
  return getCollection(name) ?? null;
}

/** The collections, in registration order, with the area each needs. */
export function editorCollections(): { collection: AnyContentCollection; area: EditorArea }[] {
  return listCollections().map((collection) => ({ collection, area: collectionArea(collection) }));
}

/** How a record is named in lists and headings: its first one-line text, else the collection's noun. */
export function entryTitle(collection: AnyContentCollection, data: ContentData | null): string {
  for (const field of collection.fields) {
    if (field.kind !== "text" && field.kind !== "slug") continue;
    const value = data?.[field.name];
    if (typeof value === "string" && value.trim()) return value.trim();
  }
  return collection.singular.charAt(0).toUpperCase() + collection.singular.slice(1);
}

/** «Publicado», «Borrador pendiente», «Programado para …» (Mexico City time) or «Sin publicar». */
export function entryStateLabel(entry: Pick<ContentEntry, "state" | "scheduledAt">): string {
  switch (entry.state) {
    case "publicado":
      return "Publicado";
    case "cambios":
      return "Borrador pendiente";
    case "programado":
      return entry.scheduledAt ? `Programado para el ${formatDateTime(entry.scheduledAt)}` : "Borrador pendiente";
    case "borrador":
      return "Sin publicar";
  }
}

export interface EntryRow {
  id: string;
  title: string;
  slug: string | null;
  state: ContentEntry["state"];
  stateLabel: string;
  editedBy: string | null;
  editedAt: Date | null;
  lockedBy: string | null;
  fixed: boolean;
}

export function entryRow(collection: AnyContentCollection, entry: ContentEntry): EntryRow {
  const data = entry.draft ?? entry.published;
  const draftIsNewer = entry.draftSavedAt !== null;
  return {
    id: entry.id,
    title: entryTitle(collection, data),
    slug: collection.slugField && data ? (String(data[collection.slugField] ?? "") || null) : null,
    state: entry.state,
    stateLabel: entryStateLabel(entry),
    editedBy: (draftIsNewer ? entry.draftSavedBy : entry.publishedBy)?.name ?? null,
    editedAt: draftIsNewer ? entry.draftSavedAt : entry.publishedAt,
    lockedBy: entry.lock?.by.name ?? null,
    fixed: entry.fixed,
  };
}

/** A collection as the browser needs it: words and fields, no schema or seed. */
export interface EditorCollection {
  name: string;
  label: string;
  singular: string;
  singleton: boolean;
  slugField: string | null;
  fields: readonly ContentField[];
}

export function editorCollection(collection: AnyContentCollection): EditorCollection {
  return { name: collection.name, label: collection.label, singular: collection.singular, singleton: collection.singleton, slugField: collection.slugField ?? null, fields: collection.fields };
}

/** The library images `data` names: its image fields and the images inside its long texts, at any depth of its items. */
function mediaIdsOf(fields: readonly ContentField[], data: ContentData | null | undefined, ids: Set<string>): Set<string> {
  for (const field of fields) {
    const value = data?.[field.name];
    if (field.kind === "media" && typeof value === "string" && value) ids.add(value);
    else if (field.kind === "richtext") for (const id of richTextImageIds(value)) ids.add(id);
    else if (field.kind === "items" && Array.isArray(value)) for (const item of value) mediaIdsOf(field.items ?? [], item as ContentData, ids);
  }
  return ids;
}

/** What a form shows first: each top-level long text rendered by the server (sanitized, its images included) and the library images the record names, by id. */
export async function recordFormMedia(collection: AnyContentCollection, data: ContentData | null): Promise<{ previews: Record<string, string>; media: Record<string, MediaView> }> {
  const views = await mediaViews(mediaIdsOf(collection.fields, data, new Set()));
  const media: Record<string, MediaView> = Object.fromEntries(views);
  const resolveImage = (mediaId: string) => (media[mediaId] ? richTextImageSource(media[mediaId]) : null);
  const previews: Record<string, string> = {};
  for (const field of collection.fields) {
    if (field.kind !== "richtext") continue;
    const value = data?.[field.name];
    previews[field.name] = value ? renderRichText(value as Parameters<typeof renderRichText>[0], { resolveImage }) : "";
  }
  return { previews, media };
}

/** A stale save as the conflict screen shows it: both versions, the difference field by field, the version to save over. */
export interface EditorConflict {
  message: string;
  version: number;
  savedBy: string | null;
  savedAt: Date | null;
  current: ContentData;
  yours: ContentData;
  diff: FieldDiff[];
}

export function editorConflict(collection: AnyContentCollection, conflict: ContentConflict): EditorConflict {
  const current = conflict.current.draft ?? conflict.current.published ?? {};
  const who = conflict.current.draftSavedBy ?? conflict.current.publishedBy;
  return {
    message: conflict.message,
    version: conflict.current.version,
    savedBy: who?.name ?? null,
    savedAt: conflict.current.draftSavedAt ?? conflict.current.publishedAt,
    current,
    yours: conflict.yours,
    // The stored copy comes back from jsonb with its keys in another order: a field whose words are all the same did not change.
    diff: diffContent(collection.fields, current, conflict.yours).filter((change) => change.kind !== "text" || change.parts.some((part) => part.op !== "same")),
  };
}

/** Whether record `id` belongs to collection `name` (the lock endpoint checks it before touching the lock). */
export async function entryExists(name: string, id: string): Promise<boolean> {
  return (await getEntry(name, id)).ok;
}
