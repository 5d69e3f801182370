import { and, desc, eq, ilike, inArray, or, sql } from "drizzle-orm";
import { afterCommit, getDb, withTransaction } from "~/db/client.server";
import { contentEntries, media, type MediaVariant } from "~/db/schema/content";
import { ok, invalid, notFoundResult, type Result } from "~/lib/result";
import { isUuid } from "~/lib/uuid";
import { removeStoredVariants } from "~/services/files/image-variants.server";
import { siteContentCollections } from "../content-collections/all-collections";
import type { MediaView } from "~/lib/media";
import { MediaDetailsSchema } from "./media";

// Staff's commands on the library: list and search, edit the alt text and focal point, find where
// an image is used, delete (only with a confirmation when it is used).

export interface MediaListItem extends MediaView {
  originalName: string;
  bytes: number;
  createdAt: Date;
}

/** What a page needs to show the image (MediaPicture). */
function toMediaView(row: typeof media.$inferSelect): MediaView {
  const widths = [...new Set(row.variants.filter((variant) => !variant.crop).map((variant) => variant.width))].sort((a, b) => a - b);
  return { id: row.id, alt: row.alt, width: row.width, height: row.height, focalX: row.focalX, focalY: row.focalY, widths };
}

function toView(row: typeof media.$inferSelect): MediaListItem {
  return { ...toMediaView(row), originalName: row.originalName, bytes: row.bytes, createdAt: row.createdAt };
}

/** The library, newest first; `search` looks in the alt text and the uploaded name. */
export async function listMedia(search = ""): Promise<MediaListItem[]> {
  const term = search.trim().slice(0, 100);
  const pattern = `%${term.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
  const rows = await getDb()
    .select()
    .from(media)
    .where(term ? or(ilike(media.alt, pattern), ilike(media.originalName, pattern)) : undefined)
    .orderBy(desc(media.createdAt), desc(media.id))
    .limit(500);
  return rows.map(toView);
}

/** The images of `ids` that still exist, by id, in one query (unknown and malformed ids are left out). */
export async function mediaViews(ids: Iterable<string>): Promise<Map<string, MediaView>> {
  const wanted = [...new Set(ids)].filter(isUuid).slice(0, 500);
  if (wanted.length === 0) return new Map();
  const rows = await getDb().select().from(media).where(inArray(media.id, wanted));
  return new Map(rows.map((row) => [row.id, toMediaView(row)]));
}

/** The library as the editor's picker shows it (docs/decisions/0050): each image's view, newest first; `search` as in listMedia. */
export async function listMediaViews(search = ""): Promise<MediaView[]> {
  return (await listMedia(search)).map(({ originalName: _name, bytes: _bytes, createdAt: _created, ...view }) => view);
}

export async function getMedia(id: string): Promise<MediaListItem | null> {
  if (!isUuid(id)) return null;
  const [row] = await getDb().select().from(media).where(eq(media.id, id)).limit(1);
  return row ? toView(row) : null;
}

/** New alt text and focal point; crops cut around the old point are removed (made again on request). */
export async function updateMediaDetails(id: string, details: unknown): Promise<Result> {
  const parsed = MediaDetailsSchema.safeParse(details);
  if (!parsed.success) {
    const fieldErrors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) (fieldErrors[String(issue.path[0])] ??= []).push(issue.message);
    return invalid({ fieldErrors });
  }
  if (!isUuid(id)) return notFoundResult("Esta imagen ya no está en la biblioteca.");
  return withTransaction(async () => {
    const [row] = await getDb().select().from(media).where(eq(media.id, id)).for("update");
    if (!row) return notFoundResult("Esta imagen ya no está en la biblioteca.");
    const moved = row.focalX !== parsed.data.focoX || row.focalY !== parsed.data.focoY;
    const crops = moved ? row.variants.filter((variant) => variant.crop) : [];
    await getDb()
      .update(media)
      .set({
        alt: parsed.data.alt,
        focalX: parsed.data.focoX,
        focalY: parsed.data.focoY,
        variants: row.variants.filter((variant) => !crops.includes(variant)),
        updatedAt: new Date(),
      })
      .where(eq(media.id, id));
    if (crops.length) await afterCommit(() => removeStoredVariants(crops));
    return ok();
  });
}

const TITLE_FIELDS = ["nombre", "titulo", "pregunta", "titular", "desde", "razon_social"] as const;

function recordTitle(data: Record<string, unknown> | null): string | null {
  for (const field of TITLE_FIELDS) {
    const value = data?.[field];
    if (typeof value === "string" && value.trim()) return value.trim();
  }
  return null;
}

const capitalized = (text: string) => text.charAt(0).toLocaleUpperCase("es-MX") + text.slice(1);

/**
 * Where an image is used: every content record whose published data or draft names its id (a
 * service's or industry's image, a page's body, the logo in ajustes), as «Servicio «Maquinado CNC»».
 */
export async function mediaUsage(id: string): Promise<string[]> {
  if (!isUuid(id)) return [];
  const needle = `"${id}"`;
  const rows = await getDb()
    .select({ collection: contentEntries.collection, published: contentEntries.published, draft: contentEntries.draft })
    .from(contentEntries)
    .where(or(sql`strpos(${contentEntries.published}::text, ${needle}) > 0`, sql`strpos(${contentEntries.draft}::text, ${needle}) > 0`))
    .orderBy(contentEntries.collection, contentEntries.createdAt);
  return rows.map((row) => {
    const collection = siteContentCollections.find((candidate) => candidate.name === row.collection);
    const kind = capitalized(collection?.singular ?? row.collection);
    const onlyDraft = !(row.published && JSON.stringify(row.published).includes(needle));
    const where = row.collection === "ajustes" ? "Ajustes (logotipo)" : `${kind} «${recordTitle(row.draft ?? row.published) ?? recordTitle(row.published) ?? "sin título"}»`;
    return onlyDraft ? `${where} (en un borrador)` : where;
  });
}

export type DeleteMediaResult = Result<{ deleted: true } | { deleted: false; usedIn: string[] }>;

/**
 * Deletes an image and its files. When a record uses it, nothing is deleted unless `confirmed`:
 * the answer says where it is used so staff can decide (the records then show no image there).
 */
export async function deleteMedia(id: string, confirmed: boolean): Promise<DeleteMediaResult> {
  if (!isUuid(id)) return notFoundResult("Esta imagen ya no está en la biblioteca.");
  const usedIn = await mediaUsage(id);
  if (usedIn.length && !confirmed) return ok({ deleted: false, usedIn });
  const [row] = await getDb().delete(media).where(and(eq(media.id, id))).returning({ fileName: media.fileName, variants: media.variants });
  if (!row) return notFoundResult("Esta imagen ya no está en la biblioteca.");
  await removeStoredVariants([...row.variants, { path: row.fileName }]);
  return ok({ deleted: true });
}

export type { MediaVariant };
