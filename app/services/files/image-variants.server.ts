import sharp from "sharp";
import { getFileStore } from "./file-store.server";
import { newStoragePath } from "./storage.server";

// Resized copies of an uploaded image, written into the file store under names the server makes
// up: product photos (WebP) and the media library (WebP and AVIF, optionally cropped). One place
// decides how images are decoded (EXIF orientation applied, a pixel limit, errors are errors) and
// encoded, so both features make the same files.

/** Larger images are refused before decoding: a small file can claim enormous dimensions. */
export const MAX_INPUT_PIXELS = 50_000_000;
/** How sharp opens an upload: orientation applied, bounded, a damaged file is an error. */
export const SHARP_INPUT = { autoOrient: true, limitInputPixels: MAX_INPUT_PIXELS, failOn: "error" } as const;

export type VariantFormat = "webp" | "avif";
const QUALITY: Record<VariantFormat, number> = { webp: 80, avif: 55 };

export interface StoredVariant {
  width: number;
  height: number;
  format: VariantFormat;
  /** Key in the file store. */
  path: string;
}

/** A region of the (oriented) original, in pixels. */
export interface ImageRegion {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * Widths to make from an original `width` pixels wide: the fixed widths that fit, plus the
 * original's own when it is clearly larger than the largest that fits (never enlarged).
 */
export function variantWidths(width: number, fixed: readonly number[]): number[] {
  const widths: number[] = fixed.filter((candidate) => candidate <= width);
  const largest = widths.at(-1) ?? 0;
  if (largest < fixed.at(-1)! && width > largest * 1.15) widths.push(width);
  return widths;
}

/**
 * Writes one file per width and format of `input` (a file path or bytes already checked), cut to
 * `region` first when given, into the file store as `<base>-<width>[suffix].<format>`. On failure,
 * what was written so far is removed and it throws.
 */
export async function writeImageVariants(
  input: string | Buffer,
  options: { widths: readonly number[]; formats: readonly VariantFormat[]; region?: ImageRegion; base?: string; suffix?: string },
): Promise<StoredVariant[]> {
  const base = options.base ?? newStoragePath();
  const variants: StoredVariant[] = [];
  try {
    for (const format of options.formats) {
      for (const target of options.widths) {
        let image = sharp(input, SHARP_INPUT);
        if (options.region) image = image.extract(options.region);
        image = image.resize({ width: target, withoutEnlargement: true });
        image = format === "avif" ? image.avif({ quality: QUALITY.avif, effort: 2 }) : image.webp({ quality: QUALITY.webp });
        const { data, info } = await image.toBuffer({ resolveWithObject: true });
        const path = `${base}-${target}${options.suffix ?? ""}.${format}`;
        await getFileStore().putBytes(path, data);
        variants.push({ width: info.width, height: info.height, format, path });
      }
    }
  } catch (error) {
    await removeStoredVariants(variants);
    throw error;
  }
  return variants;
}

/** Deletes stored variants; a missing file is skipped. */
export async function removeStoredVariants(variants: ReadonlyArray<{ path: string }>): Promise<void> {
  await getFileStore().remove(variants.map((variant) => variant.path));
}
