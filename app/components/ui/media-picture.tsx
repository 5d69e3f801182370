import { MEDIA_CROPS, MEDIA_FORMATS, mediaUrl, type MediaCrop, type MediaView } from "~/lib/media";

interface MediaPictureProps {
  image: MediaView;
  /** The `sizes` attribute: how wide the picture is shown at each breakpoint. */
  sizes: string;
  /** Cut to this aspect ratio around the focal point (the server makes the crop); the whole image otherwise. */
  crop?: MediaCrop;
  /** The page's main picture: loaded at once and first. Others load when scrolled to. */
  priority?: boolean;
  className?: string;
}

/**
 * A library image (docs/decisions/0046): AVIF then WebP at every width made, its size given (no
 * layout shift), its alt text, and `object-position` at the focal point so a CSS crop (object-fit:
 * cover) keeps the subject in frame too.
 */
export function MediaPicture({ image, sizes, crop, priority = false, className }: MediaPictureProps) {
  const widths = image.widths.length ? image.widths : [image.width];
  const srcSet = (format: (typeof MEDIA_FORMATS)[number]) => widths.map((width) => `${mediaUrl(image.id, width, format, crop)} ${width}w`).join(", ");
  const ratio = crop ? MEDIA_CROPS[crop] : image.width / image.height;
  const width = crop ? Math.min(image.width, Math.round(image.height * ratio)) : image.width;
  const height = Math.round(width / ratio);
  return (
    <picture>
      {MEDIA_FORMATS.map((format) => (
        <source key={format} type={`image/${format}`} srcSet={srcSet(format)} sizes={sizes} />
      ))}
      <img
        src={mediaUrl(image.id, widths.at(-1)!, "webp", crop)}
        alt={image.alt}
        width={width}
        height={height}
        loading={priority ? "eager" : "lazy"}
        decoding="async"
        fetchPriority={priority ? "high" : undefined}
        className={className}
        style={{ objectPosition: `${Math.round(image.focalX * 100)}% ${Math.round(image.focalY * 100)}%` }}
      />
    </picture>
  );
}
