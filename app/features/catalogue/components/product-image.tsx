import { pickImageWidth, productImageSrcSet, productImageUrl, type ProductImageView } from "../images";

interface ProductImageProps {
  image: ProductImageView | null;
  /** For the tile shown when the product has no image. */
  category: string;
  sku: string;
  /** The `sizes` attribute: how wide the image is drawn at each viewport. */
  sizes: string;
  /** The width to use as `src` for browsers without srcset. */
  fallbackWidth?: number;
  /** Above the fold: load at once (and first); otherwise the browser loads it when it comes near. */
  eager?: boolean;
  className?: string;
  /** Empty when the image only repeats text beside it (a card's title). */
  alt?: string;
  /** A small thumbnail: the tile without an image shows only the initial. */
  compact?: boolean;
}

/**
 * A product photo from its WebP variants, with width and height so the page does not shift while
 * it loads; without a photo, a neutral tile with the category's initial and the SKU.
 */
export function ProductImage({ image, category, sku, sizes, fallbackWidth = 640, eager = false, className = "", alt, compact = false }: ProductImageProps) {
  if (!image || image.widths.length === 0) {
    return (
      <div
        className={`flex flex-col items-center justify-center gap-1 bg-acero-100 text-acero-600 ${className}`}
        {...(alt === "" ? { "aria-hidden": true } : { role: "img", "aria-label": `Sin fotografía: ${category}, ${sku}` })}
      >
        <span aria-hidden="true" className={`font-bold text-acero-300 ${compact ? "text-lg" : "text-4xl"}`}>
          {category.trim().charAt(0).toUpperCase() || "F"}
        </span>
        {compact ? null : (
          <span aria-hidden="true" className="font-mono text-xs tracking-wide">
            {sku}
          </span>
        )}
      </div>
    );
  }
  return (
    <img
      src={productImageUrl(image.id, pickImageWidth(image, fallbackWidth))}
      srcSet={productImageSrcSet(image)}
      sizes={sizes}
      width={image.width}
      height={image.height}
      alt={alt ?? image.alt}
      loading={eager ? "eager" : "lazy"}
      decoding="async"
      fetchPriority={eager ? "high" : undefined}
      className={`bg-acero-50 object-contain ${className}`}
    />
  );
}
