import fs from "node:fs";
import path from "node:path";
import { and, asc, eq, inArray, max, sql } from "drizzle-orm";
import sharp from "sharp";
import { getDb } from "~/db/client.server";
import { productImages, products, type ImageVariant } from "~/db/schema/catalogue";
import { getSessionUser, isStaff } from "~/features/accounts/index.server";
import type { RequestMeta } from "~/lib/request-meta";
import { detectFileKind } from "~/services/files/detect-type.server";
import type { UploadedFile } from "~/services/files/multipart.server";
import { absoluteStoragePath, newStoragePath, removeQuietly } from "~/services/files/storage.server";
import { logger } from "~/lib/logger.server";
import { IMAGE_LIMITS, IMAGE_WIDTHS, MAX_IMAGES_PER_PRODUCT, type ProductImageView } from "./images";

// Product photos: PNG or JPG checked by content, turned by sharp into WebP variants of fixed widths
// (never enlarged), stored under DATA_DIR/uploads with names the server makes up, and served only
// while their product is active (staff see them always).

/** Larger images are refused before decoding: a small file can claim enormous dimensions. */
const MAX_INPUT_PIXELS = 50_000_000;
const WEBP_QUALITY = 80;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function toView(row: { id: string; alt: string; width: number; height: number; variants: ImageVariant[] }): ProductImageView {
  return { id: row.id, alt: row.alt, width: row.width, height: row.height, widths: row.variants.map((variant) => variant.width).sort((a, b) => a - b) };
}

const viewColumns = { id: productImages.id, alt: productImages.alt, width: productImages.width, height: productImages.height, variants: productImages.variants };

export async function imagesForProduct(productId: string): Promise<ProductImageView[]> {
  const rows = await getDb()
    .select(viewColumns)
    .from(productImages)
    .where(eq(productImages.productId, productId))
    .orderBy(asc(productImages.position), asc(productImages.createdAt));
  return rows.map(toView);
}

/** The first image of each product (by position), for cards, tables and the cart. */
export async function firstImagesFor(productIds: string[]): Promise<Map<string, ProductImageView>> {
  const result = new Map<string, ProductImageView>();
  if (productIds.length === 0) return result;
  const rows = await getDb()
    .selectDistinctOn([productImages.productId], { productId: productImages.productId, ...viewColumns })
    .from(productImages)
    .where(inArray(productImages.productId, productIds))
    .orderBy(productImages.productId, asc(productImages.position), asc(productImages.createdAt));
  for (const row of rows) result.set(row.productId, toView(row));
  return result;
}

/** Widths to make from an original `width` pixels wide: the fixed widths that fit, plus the original's own when it is clearly larger. */
export function variantWidths(width: number): number[] {
  const widths: number[] = IMAGE_WIDTHS.filter((candidate) => candidate <= width);
  const largest = widths.at(-1) ?? 0;
  if (largest < IMAGE_WIDTHS.at(-1)! && width > largest * 1.15) widths.push(width);
  return widths;
}

interface ProcessedImage {
  width: number;
  height: number;
  variants: ImageVariant[];
}

const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

/** Checks an upload and writes its WebP variants into storage; the caller records them (or removes them). */
async function processUpload(file: UploadedFile): Promise<{ ok: true; image: ProcessedImage } | { ok: false; message: string }> {
  const kind = detectFileKind({ name: file.name, head: file.head, tail: file.tail, size: file.size });
  if (kind !== "png" && kind !== "jpg") return { ok: false, message: `«${file.name}» no es una imagen PNG o JPG válida.` };
  if (file.size > IMAGE_LIMITS.maxFileBytes) return { ok: false, message: `«${file.name}» pasa de ${megabytes(IMAGE_LIMITS.maxFileBytes)}.` };

  const options = { autoOrient: true, limitInputPixels: MAX_INPUT_PIXELS, failOn: "error" } as const;
  let width: number;
  let height: number;
  try {
    const metadata = await sharp(file.tmpPath, options).metadata();
    if (metadata.format !== "png" && metadata.format !== "jpeg") return { ok: false, message: `«${file.name}» no es una imagen PNG o JPG válida.` };
    ({ width, height } = metadata.autoOrient);
  } catch {
    return { ok: false, message: `No pudimos leer «${file.name}»: el archivo está dañado o pasa de ${MAX_INPUT_PIXELS / 1_000_000} megapíxeles.` };
  }
  if (!width || !height) return { ok: false, message: `No pudimos leer las medidas de «${file.name}».` };
  if (width * height > MAX_INPUT_PIXELS) return { ok: false, message: `«${file.name}» pasa de ${MAX_INPUT_PIXELS / 1_000_000} megapíxeles; redúzcala antes de subirla.` };

  const base = newStoragePath();
  const variants: ImageVariant[] = [];
  try {
    for (const target of variantWidths(width)) {
      const storagePath = `${base}-${target}.webp`;
      const absolute = absoluteStoragePath(storagePath);
      await fs.promises.mkdir(path.dirname(absolute), { recursive: true });
      const info = await sharp(file.tmpPath, options)
        .resize({ width: target, withoutEnlargement: true })
        .webp({ quality: WEBP_QUALITY })
        .toFile(absolute);
      variants.push({ width: info.width, height: info.height, path: storagePath });
    }
  } catch (error) {
    await removeStored(variants);
    logger.warn({ err: error, file: file.name }, "product image could not be processed");
    return { ok: false, message: `No pudimos procesar «${file.name}». Pruebe exportarla de nuevo como PNG o JPG.` };
  }
  return { ok: true, image: { width, height, variants } };
}

async function removeStored(variants: ImageVariant[]): Promise<void> {
  await removeQuietly(
    variants.flatMap((variant) => {
      try {
        return [absoluteStoragePath(variant.path)];
      } catch {
        return [];
      }
    }),
  );
}

/** Uploads checked and converted, in storage but not yet recorded: attach them to a product or discard them. */
export interface PreparedImages {
  images: ProcessedImage[];
}

export type PrepareImagesResult = { ok: true; prepared: PreparedImages } | { ok: false; errors: string[] };

/**
 * Checks every upload (PNG/JPG by content, size, pixels) and writes its WebP variants. One bad file
 * and none is kept. `existing` is how many images the product has already. Temporary files stay
 * the caller's to remove.
 */
export async function prepareProductImages(files: UploadedFile[], existing = 0): Promise<PrepareImagesResult> {
  if (existing + files.length > MAX_IMAGES_PER_PRODUCT) {
    return {
      ok: false,
      errors: [
        existing
          ? `Un producto puede tener hasta ${MAX_IMAGES_PER_PRODUCT} imágenes y este ya tiene ${existing}. Quite alguna antes de subir más.`
          : `Un producto puede tener hasta ${MAX_IMAGES_PER_PRODUCT} imágenes.`,
      ],
    };
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
    return { ok: false, errors };
  }
  return { ok: true, prepared: { images } };
}

export async function discardPreparedImages(prepared: PreparedImages): Promise<void> {
  await Promise.all(prepared.images.map((image) => removeStored(image.variants)));
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

export type AddImagesResult = { ok: true; added: number } | { ok: false; errors: string[] };

/** Checks, converts and records uploads for an existing product in one step. */
export async function addProductImages(productId: string, files: UploadedFile[], altText: string): Promise<AddImagesResult> {
  const result = await prepareProductImages(files, await countProductImages(productId));
  if (!result.ok) return result;
  return { ok: true, added: await attachProductImages(productId, result.prepared, altText) };
}

/** Removes an image of this product and its files; false when there is no such image. */
export async function removeProductImage(productId: string, imageId: string): Promise<boolean> {
  if (!UUID.test(imageId)) return false;
  const [removed] = await getDb()
    .delete(productImages)
    .where(and(eq(productImages.id, imageId), eq(productImages.productId, productId)))
    .returning({ variants: productImages.variants });
  if (!removed) return false;
  await removeStored(removed.variants);
  return true;
}

export async function updateProductImageAlt(productId: string, imageId: string, alt: string): Promise<boolean> {
  const updated = await getDb()
    .update(productImages)
    .set({ alt })
    .where(and(eq(productImages.id, imageId), eq(productImages.productId, productId)))
    .returning({ id: productImages.id });
  return updated.length > 0;
}

/** Moves an image to the front: the first image is the one on cards, in the cart and the page's main view. */
export async function makeProductImageFirst(productId: string, imageId: string): Promise<boolean> {
  if (!UUID.test(imageId)) return false;
  return getDb().transaction(async (tx) => {
    const rows = await tx
      .select({ id: productImages.id })
      .from(productImages)
      .where(eq(productImages.productId, productId))
      .orderBy(asc(productImages.position), asc(productImages.createdAt));
    if (!rows.some((row) => row.id === imageId)) return false;
    const ordered = [imageId, ...rows.map((row) => row.id).filter((id) => id !== imageId)];
    for (const [position, id] of ordered.entries()) {
      await tx.update(productImages).set({ position }).where(eq(productImages.id, id));
    }
    return true;
  });
}

export interface ImageFile {
  body: Buffer;
  /** Public images may be cached by anyone; an inactive product's only privately. */
  visibility: "public" | "private";
}

/**
 * One WebP variant, by image id and file name ("640.webp"). Anyone gets it while its product is
 * active; staff also while it is not. Null for everything else, including a missing file.
 */
export async function getProductImageFile(meta: RequestMeta, imageId: string, fileName: string): Promise<ImageFile | null> {
  const match = /^(\d{1,5})\.webp$/.exec(fileName);
  if (!match || !UUID.test(imageId)) return null;
  const width = Number(match[1]);
  const [row] = await getDb()
    .select({ variants: productImages.variants, active: products.active })
    .from(productImages)
    .innerJoin(products, eq(products.id, productImages.productId))
    .where(eq(productImages.id, imageId))
    .limit(1);
  const variant = row?.variants.find((candidate) => candidate.width === width);
  if (!row || !variant) return null;
  if (!row.active && !isStaff(await getSessionUser(meta))) return null;
  try {
    return { body: await fs.promises.readFile(absoluteStoragePath(variant.path)), visibility: row.active ? "public" : "private" };
  } catch (error) {
    logger.error({ err: error, imageId, width }, "product image missing on disk");
    return null;
  }
}
