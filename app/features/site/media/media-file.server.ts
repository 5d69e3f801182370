import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { getDb, withTransaction } from "~/db/client.server";
import { media, type MediaVariant } from "~/db/schema/content";
import { logger } from "~/lib/logger.server";
import { isUuid } from "~/lib/uuid";
import { getFileStore } from "~/services/files/file-store.server";
import { removeStoredVariants, writeImageVariants } from "~/services/files/image-variants.server";
import { focalRegion, MEDIA_CROPS, parseVariantName, type MediaCrop, type MediaFormat } from "~/lib/media";

// Serving a library image's variant to anyone: the whole image at the widths made at upload, or a
// crop to one of the fixed aspect ratios, cut around the focal point on its first request and kept.

/** Variants are at most 1600 px wide: far below this. */
const MAX_VARIANT_BYTES = 8 * 1024 * 1024;
/** Originals are at most the upload limit. */
const MAX_ORIGINAL_BYTES = 64 * 1024 * 1024;

export interface MediaFile {
  body: Buffer;
  type: `image/${MediaFormat}`;
}

/** One variant by image id and name ("800.avif", "800-16x9.webp"); null for everything else. */
export async function getMediaFile(id: string, name: string): Promise<MediaFile | null> {
  const wanted = parseVariantName(name);
  if (!wanted || !isUuid(id)) return null;
  const [row] = await getDb().select({ variants: media.variants }).from(media).where(eq(media.id, id)).limit(1);
  if (!row) return null;
  const whole = row.variants.find((variant) => !variant.crop && variant.width === wanted.width && variant.format === wanted.format);
  if (!whole) return null;
  let variant: MediaVariant | null | undefined = whole;
  if (wanted.crop) {
    variant = row.variants.find((candidate) => isCrop(candidate, wanted.width, wanted.crop!, wanted.format));
    variant ??= await makeCrop(id, wanted.width, wanted.crop, wanted.format);
  }
  if (!variant) return null;
  const body = await getFileStore().readBytes(variant.path, MAX_VARIANT_BYTES);
  if (!body) {
    logger.error({ mediaId: id, name }, "media variant missing from the file store");
    return null;
  }
  return { body, type: `image/${wanted.format}` };
}

/** Crops are stored as `<base>-<width>-<ratio>-<token>.<format>`: the token keeps two concurrent cuts apart. */
function isCrop(variant: MediaVariant, width: number, crop: MediaCrop, format: MediaFormat): boolean {
  return variant.crop === crop && new RegExp(`-${width}-${crop}-[0-9a-f]{8}\\.${format}$`).test(variant.path);
}

/**
 * Cuts, stores and records one crop. The cut (seconds of CPU for AVIF) happens outside any
 * transaction; the row is then locked only to append it. When another request recorded the same
 * crop meanwhile, or the focal point moved, this cut is removed and the recorded one (or none) used.
 */
async function makeCrop(id: string, width: number, crop: MediaCrop, format: MediaFormat): Promise<MediaVariant | null> {
  const [row] = await getDb().select().from(media).where(eq(media.id, id)).limit(1);
  if (!row) return null;
  const original = await getFileStore().readBytes(row.fileName, MAX_ORIGINAL_BYTES);
  if (!original) {
    logger.error({ mediaId: id }, "media original missing from the file store");
    return null;
  }
  const region = focalRegion(row.width, row.height, MEDIA_CROPS[crop], row.focalX, row.focalY);
  const base = row.fileName.replace(/-original\.[a-z]+$/, "");
  const suffix = `-${crop}-${randomBytes(4).toString("hex")}`;
  const [made] = await writeImageVariants(original, { widths: [width], formats: [format], region, base, suffix });
  const variant: MediaVariant = { ...made!, crop };
  const kept = await withTransaction(async () => {
    const [current] = await getDb().select().from(media).where(eq(media.id, id)).for("update");
    if (!current || current.focalX !== row.focalX || current.focalY !== row.focalY) return null;
    const recorded = current.variants.find((candidate) => isCrop(candidate, width, crop, format));
    if (recorded) return recorded;
    await getDb().update(media).set({ variants: [...current.variants, variant] }).where(eq(media.id, id));
    return variant;
  }).catch(async (error: unknown) => {
    await removeStoredVariants([variant]);
    throw error;
  });
  if (kept !== variant) await removeStoredVariants([variant]);
  return kept;
}
