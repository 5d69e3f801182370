/** A responsive raster picture: modern formats first, its intrinsic size always given (no layout shift). */
export interface PictureData {
  alt: string;
  width: number;
  height: number;
  /** The fallback (largest WebP). */
  src: string;
  /** Best format first, e.g. AVIF then WebP, each with its width descriptors. */
  sources: Array<{ type: string; srcSet: string }>;
}

interface PictureProps {
  picture: PictureData;
  /** The `sizes` attribute: how wide the picture is shown at each breakpoint. */
  sizes: string;
  /** The page's main picture, in the first screen: loaded at once and first. Others load when scrolled to. */
  priority?: boolean;
  /** For a picture that may be in the first screen without being the main one. */
  eager?: boolean;
  className?: string;
}

export function Picture({ picture, sizes, priority = false, eager = false, className }: PictureProps) {
  return (
    <picture>
      {picture.sources.map((source) => (
        <source key={source.type} type={source.type} srcSet={source.srcSet} sizes={sizes} />
      ))}
      <img
        src={picture.src}
        alt={picture.alt}
        width={picture.width}
        height={picture.height}
        loading={priority || eager ? "eager" : "lazy"}
        decoding="async"
        fetchPriority={priority ? "high" : undefined}
        className={className}
      />
    </picture>
  );
}
