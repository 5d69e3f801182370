import { eq, max, sql } from "drizzle-orm";
import sharp from "sharp";
import { getDb } from "~/db/client.server";
import { productImages, type ImageVariant } from "~/db/schema/catalogue";
import { formatFileSize } from "~/lib/format";
import { logger } from "~/lib/logger.server";
import { invalid, ok, type Result } from "~/lib/result";
import { detectFileKind } from "~/services/files/detect-type.server";
import type { UploadedFile } from "~/services/files/multipart.server";
import { MAX_INPUT_PIXELS, removeStoredVariants, SHARP_INPUT, variantWidths as fittingWidths, writeImageVariants } from "~/services/files/image-variants.server";
import { IMAGE_LIMITS, IMAGE_WIDTHS, MAX_IMAGES_PER_PRODUCT } from "./images";

// New product photos: PNG or JPG checked by content, turned by sharp into WebP variants of fixed
// widths (never enlarged), kept in the file store (DATA_DIR/uploads, or PostgreSQL) under names the
// server makes up.

/** Widths to make from an original `width` pixels wide: the fixed widths that fit, plus the original's own when it is clearly larger. */
export function variantWidths(width: number): number[] {
  return fittingWidths(width, IMAGE_WIDTHS);
}

interface ProcessedImage {
  width: number;
  height: number;
  variants: ImageVariant[];
}


/** Checks an upload and writes its WebP variants into storage; the caller records them (or removes them). */
async function processUpload(file: UploadedFile): Promise<{ ok: true; image: ProcessedImage } | { ok: false; message: string }> {
  const kind = detectFileKind({ name: file.name, head: file.head, tail: file.tail, size: file.size });
  if (kind !== "png" && kind !== "jpg") return { ok: false, message: `«${file.name}» no es una imagen PNG o JPG válida.` };
  if (file.size > IMAGE_LIMITS.maxFileBytes) return { ok: false, message: `«${file.name}» pasa de ${formatFileSize(IMAGE_LIMITS.maxFileBytes)}.` };

  let width: number;
  let height: number;
  try {
    const metadata = await sharp(file.tmpPath, SHARP_INPUT).metadata();
    if (metadata.format !== "png" && metadata.format !== "jpeg") return { ok: false, message: `«${file.name}» no es una imagen PNG o JPG válida.` };
    ({ width, height } = metadata.autoOrient);
  } catch {
    return { ok: false, message: `No pudimos leer «${file.name}»: el archivo está dañado o pasa de ${MAX_INPUT_PIXELS / 1_000_000} megapíxeles.` };
  }
  if (!width || !height) return { ok: false, message: `No pudimos leer las medidas de «${file.name}».` };
  if (width * height > MAX_INPUT_PIXELS) return { ok: false, message: `«${file.name}» pasa de ${MAX_INPUT_PIXELS / 1_000_000} megapíxeles; redúzcala antes de subirla.` };

  try {
    return { ok: true, image: { width, height, variants: await writeWebpVariants(file.tmpPath, width) } };
  } catch (error) {
    logger.warn({ err: error, file: file.name }, "product image could not be processed");
    return { ok: false, message: `No pudimos procesar «${file.name}». Pruebe exportarla de nuevo como PNG o JPG.` };
  }
}

/**
 * Writes the WebP variants of a decoded-safe image (`input`: a file path or PNG/JPG bytes, `width`
 * pixels wide) into the file store; on failure, the variants written so far are removed and it throws.
 */
export async function writeWebpVariants(input: string | Buffer, width: number): Promise<ImageVariant[]> {
  const variants = await writeImageVariants(input, { widths: variantWidths(width), formats: ["webp"] });
  return variants.map(({ width, height, path }) => ({ width, height, path }));
}

export { removeStoredVariants };

/** Uploads checked and converted, in storage but not yet recorded: attach them to a product or discard them. */
export interface PreparedImages {
  images: ProcessedImage[];
}

/**
 * Checks every upload (PNG/JPG by content, size, pixels) and writes its WebP variants. One bad file
 * and none is kept; the messages come back under the `images` field. `existing` is how many
 * images the product has already. Temporary files stay the caller's to remove.
 */
export async function prepareProductImages(files: UploadedFile[], existing = 0): Promise<Result<PreparedImages>> {
  if (existing + files.length > MAX_IMAGES_PER_PRODUCT) {
    const message = existing
      ? `Un producto puede tener hasta ${MAX_IMAGES_PER_PRODUCT} imágenes y este ya tiene ${existing}. Quite alguna antes de subir más.`
      : `Un producto puede tener hasta ${MAX_IMAGES_PER_PRODUCT} imágenes.`;
    return invalid({ fieldErrors: { images: [message] } });
  }
  const images: ProcessedImage[] = [];
  const errors: string[] = [];
  for (const file of files) {
    const result = await processUpload(file);
    if (result.ok) images.push(result.image);
    else errors.push(result.message);
  }
  if (errors.length) {
    await discardPreparedImages({ images });
    return invalid({ fieldErrors: { images: errors } });
  }
  return ok({ images });
}

export async function discardPreparedImages(prepared: PreparedImages): Promise<void> {
  await Promise.all(prepared.images.map((image) => removeStoredVariants(image.variants)));
}

/** Records prepared images after the product's last one; their alt text starts as `altText`. */
export async function attachProductImages(productId: string, prepared: PreparedImages, altText: string): Promise<number> {
  if (prepared.images.length === 0) return 0;
  try {
    await getDb().transaction(async (tx) => {
      const [{ last } = { last: null }] = await tx.select({ last: max(productImages.position) }).from(productImages).where(eq(productImages.productId, productId));
      const first = (last ?? -1) + 1;
      await tx.insert(productImages).values(
        prepared.images.map((image, index) => ({
          productId,
          alt: first + index === 0 ? altText : `${altText}, vista ${first + index + 1}`,
          position: first + index,
          width: image.width,
          height: image.height,
          variants: image.variants,
        })),
      );
    });
  } catch (error) {
    await discardPreparedImages(prepared);
    throw error;
  }
  return prepared.images.length;
}

export async function countProductImages(productId: string): Promise<number> {
  const [row] = await getDb().select({ n: sql<number>`count(*)::int` }).from(productImages).where(eq(productImages.productId, productId));
  return Number(row?.n ?? 0);
}

/** Checks, converts and records uploads for an existing product in one step. */
export async function addProductImages(productId: string, files: UploadedFile[], altText: string): Promise<Result<{ added: number }>> {
  const result = await prepareProductImages(files, await countProductImages(productId));
  if (!result.ok) return result;
  return ok({ added: await attachProductImages(productId, result.value, altText) });
}
