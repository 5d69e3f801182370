// The media library's images as pages know them (docs/decisions/0046): widths, formats, crops and
// addresses, for the site feature and the shared <MediaPicture>. Never where a file is stored.

/** Widths made from every upload, in WebP and AVIF (never wider than the original). */
export const MEDIA_WIDTHS = [400, 800, 1600] as const;
export const MEDIA_FORMATS = ["avif", "webp"] as const;
export type MediaFormat = (typeof MEDIA_FORMATS)[number];

/** Aspect ratios a page may ask a crop in; each is cut around the image's focal point. */
export const MEDIA_CROPS = { "1x1": 1, "4x3": 4 / 3, "3x2": 3 / 2, "16x9": 16 / 9 } as const;
export type MediaCrop = keyof typeof MEDIA_CROPS;

/** What a page needs to show a library image. */
export interface MediaView {
  id: string;
  alt: string;
  width: number;
  height: number;
  focalX: number;
  focalY: number;
  /** Widths of the whole image's variants, smallest first (each in every format). */
  widths: number[];
}

/** `/medios/<id>/800.avif`, or `/medios/<id>/800-16x9.webp` for a crop. An id never gets other bytes, except a crop after its focal point moves (see 0046). */
export function mediaUrl(id: string, width: number, format: MediaFormat, crop?: MediaCrop): string {
  return `/medios/${id}/${width}${crop ? `-${crop}` : ""}.${format}`;
}

/** The variant a URL names: its width, crop and format; null when the name is not one of ours. */
export function parseVariantName(name: string): { width: number; crop: MediaCrop | null; format: MediaFormat } | null {
  const match = /^(\d{1,5})(?:-(\d{1,2}x\d{1,2}))?\.(webp|avif)$/.exec(name);
  if (!match) return null;
  const crop = match[2] ?? null;
  if (crop !== null && !(crop in MEDIA_CROPS)) return null;
  return { width: Number(match[1]), crop: crop as MediaCrop | null, format: match[3] as MediaFormat };
}

/**
 * The largest region of a `width`×`height` image with aspect `ratio` (width / height) that keeps
 * the focal point (0–1 each) as close to its centre as the edges allow.
 */
export function focalRegion(width: number, height: number, ratio: number, focalX: number, focalY: number) {
  const cropWidth = Math.min(width, Math.round(height * ratio));
  const cropHeight = Math.min(height, Math.round(cropWidth / ratio));
  const clamp = (value: number, max: number) => Math.max(0, Math.min(max, Math.round(value)));
  return {
    left: clamp(focalX * width - cropWidth / 2, width - cropWidth),
    top: clamp(focalY * height - cropHeight / 2, height - cropHeight),
    width: cropWidth,
    height: cropHeight,
  };
}

