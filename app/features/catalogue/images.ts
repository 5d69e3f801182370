// Product image URLs and limits, shared by the browser and the server.

/** WebP widths made from every upload (never wider than the original). */
export const IMAGE_WIDTHS = [320, 640, 1024, 1600] as const;

export const IMAGE_LIMITS = {
  maxFiles: 8,
  maxFileBytes: 10 * 1024 * 1024,
  maxTotalBytes: 60 * 1024 * 1024,
} as const;

/** Images a product may have at most. */
export const MAX_IMAGES_PER_PRODUCT = 12;

/** What the pages know of an image: never where it is stored. */
export interface ProductImageView {
  id: string;
  alt: string;
  /** Of the original (after applying its EXIF orientation). */
  width: number;
  height: number;
  /** Widths of the WebP variants, smallest first. */
  widths: number[];
}

/** The image's address never changes for the same bytes: a new upload is a new image id. */
export function productImageUrl(imageId: string, width: number): string {
  return `/imagenes/productos/${imageId}/${width}.webp`;
}

export function productImageSrcSet(image: Pick<ProductImageView, "id" | "widths">): string {
  return image.widths.map((width) => `${productImageUrl(image.id, width)} ${width}w`).join(", ");
}

/** The smallest variant at least `wanted` pixels wide, or the widest there is. */
export function pickImageWidth(image: Pick<ProductImageView, "widths">, wanted: number): number {
  return image.widths.find((width) => width >= wanted) ?? image.widths.at(-1) ?? 0;
}
