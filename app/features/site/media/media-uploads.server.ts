import fs from "node:fs/promises";
import sharp from "sharp";
import { getDb } from "~/db/client.server";
import { media } from "~/db/schema/content";
import { formatFileSize } from "~/lib/format";
import { logger } from "~/lib/logger.server";
import { invalid, ok, type Result } from "~/lib/result";
import { getFileStore } from "~/services/files/file-store.server";
import { MAX_INPUT_PIXELS, SHARP_INPUT, variantWidths, writeImageVariants } from "~/services/files/image-variants.server";
import type { UploadedFile } from "~/services/files/multipart.server";
import { newStoragePath } from "~/services/files/storage.server";
import { detectMediaKind, MIME_BY_MEDIA_KIND, unsafeSvgReason, type MediaKind } from "./image-kind.server";
import { MEDIA_FORMATS, MEDIA_WIDTHS } from "~/lib/media";
import { MEDIA_LIMITS, MediaDetailsSchema } from "./media";

// A new image of the library: checked by content, its original kept in the file store (only to cut
// crops from; never served), its variants made in AVIF and WebP, then its row.

const SHARP_FORMAT: Record<Exclude<MediaKind, "svg">, string[]> = { jpeg: ["jpeg"], png: ["png"], gif: ["gif"], webp: ["webp"], avif: ["heif", "avif"] };
const MAX_SVG_BYTES = 1024 * 1024;
/** An SVG is drawn this wide (at least), so its variants are sharp. */
const SVG_RASTER_WIDTH = 1600;

const NOT_AN_IMAGE = (name: string) => `«${name}» no es una imagen JPG, PNG, WebP, AVIF, GIF o SVG válida.`;

/** The bytes to keep as the original, with their size and kind. */
export interface Original {
  bytes: Buffer;
  extension: string;
  mime: string;
  width: number;
  height: number;
}

async function readOriginal(name: string, bytes: Buffer): Promise<Original | string> {
  const kind = detectMediaKind(bytes.subarray(0, 4096));
  if (!kind) return NOT_AN_IMAGE(name);
  if (kind === "svg") {
    if (bytes.length > MAX_SVG_BYTES) return `«${name}» pasa de ${formatFileSize(MAX_SVG_BYTES)}; un SVG tan grande no es un logotipo.`;
    const reason = unsafeSvgReason(bytes.toString("utf8"));
    if (reason) return `No aceptamos «${name}»: ${reason}. Expórtelo de nuevo como SVG sencillo o como PNG.`;
    try {
      const natural = await sharp(bytes, SHARP_INPUT).metadata();
      const density = Math.min(1200, Math.max(72, (72 * SVG_RASTER_WIDTH) / Math.max(1, natural.width ?? SVG_RASTER_WIDTH)));
      const { data, info } = await sharp(bytes, { ...SHARP_INPUT, density }).png().toBuffer({ resolveWithObject: true });
      return { bytes: data, extension: "png", mime: MIME_BY_MEDIA_KIND.svg, width: info.width, height: info.height };
    } catch {
      return `No pudimos dibujar «${name}». Expórtelo de nuevo como SVG sencillo o como PNG.`;
    }
  }
  try {
    const metadata = await sharp(bytes, SHARP_INPUT).metadata();
    if (!SHARP_FORMAT[kind].includes(metadata.format ?? "")) return NOT_AN_IMAGE(name);
    const { width, height } = metadata.autoOrient;
    if (!width || !height) return `No pudimos leer las medidas de «${name}».`;
    if (width * height > MAX_INPUT_PIXELS) return `«${name}» pasa de ${MAX_INPUT_PIXELS / 1_000_000} megapíxeles; redúzcala antes de subirla.`;
    return { bytes, extension: kind === "jpeg" ? "jpg" : kind, mime: MIME_BY_MEDIA_KIND[kind], width, height };
  } catch {
    return `No pudimos leer «${name}»: el archivo está dañado o pasa de ${MAX_INPUT_PIXELS / 1_000_000} megapíxeles.`;
  }
}

/**
 * Adds an image to the library from an upload (`details`: the form's alt text and focal point,
 * checked here). Answers the new image's id, or the form's errors in Spanish under `archivo`,
 * `alt`, `focoX`, `focoY`. The temporary file stays the caller's to remove.
 */
export async function uploadMedia(file: UploadedFile | undefined, details: unknown): Promise<Result<{ id: string }>> {
  const parsed = MediaDetailsSchema.safeParse(details);
  const fieldErrors: Record<string, string[]> = {};
  if (!parsed.success) {
    for (const issue of parsed.error.issues) (fieldErrors[String(issue.path[0])] ??= []).push(issue.message);
  }
  if (!file || file.size === 0) fieldErrors.archivo = ["Elija la imagen que quiere subir."];
  else if (file.size > MEDIA_LIMITS.maxFileBytes) fieldErrors.archivo = [`«${file.name}» pasa de ${formatFileSize(MEDIA_LIMITS.maxFileBytes)}.`];
  if (Object.keys(fieldErrors).length || !parsed.success || !file) return invalid({ fieldErrors });

  const original = await readOriginal(file.name, await fs.readFile(file.tmpPath));
  if (typeof original === "string") return invalid({ fieldErrors: { archivo: [original] } });
  try {
    return ok({ id: await addToLibrary({ ...original, originalName: file.name, ...parsed.data }) });
  } catch {
    return invalid({ fieldErrors: { archivo: [`No pudimos procesar «${file.name}». Pruebe exportarla de nuevo como PNG o JPG.`] } });
  }
}

/** An image whose files are stored and whose row is not written yet: insert `values`, or remove `paths`. */
export interface PreparedMedia {
  values: typeof media.$inferInsert;
  paths: string[];
}

/** Stores an original already checked and its variants; the caller records the row (or removes the files). */
export async function prepareLibraryImage(image: Original & { originalName: string; alt: string; focoX: number; focoY: number }): Promise<PreparedMedia> {
  const base = newStoragePath();
  const fileName = `${base}-original.${image.extension}`;
  await getFileStore().putBytes(fileName, image.bytes);
  try {
    const variants = await writeImageVariants(image.bytes, { widths: variantWidths(image.width, MEDIA_WIDTHS), formats: MEDIA_FORMATS, base });
    return {
      values: {
        fileName,
        originalName: image.originalName.slice(0, 200),
        mime: image.mime,
        bytes: image.bytes.length,
        width: image.width,
        height: image.height,
        alt: image.alt,
        focalX: image.focoX,
        focalY: image.focoY,
        variants,
      },
      paths: [fileName, ...variants.map((variant) => variant.path)],
    };
  } catch (error) {
    logger.warn({ err: error, file: image.originalName }, "media image could not be processed");
    await getFileStore().remove([fileName]);
    throw error;
  }
}

/** Stores and records an original already checked; answers its id. */
export async function addToLibrary(image: Original & { originalName: string; alt: string; focoX: number; focoY: number }): Promise<string> {
  const prepared = await prepareLibraryImage(image);
  try {
    const [row] = await getDb().insert(media).values(prepared.values).returning({ id: media.id });
    return row!.id;
  } catch (error) {
    await getFileStore().remove(prepared.paths);
    throw error;
  }
}

/** An image the site itself provides (its rendered parts), checked like an upload; null when it is not a usable image. */
export async function readSiteImage(name: string, bytes: Buffer): Promise<Original | null> {
  const original = await readOriginal(name, bytes);
  return typeof original === "string" ? null : original;
}
