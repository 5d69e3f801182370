import { MediaPicture } from "~/components/ui/media-picture";
import { Picture } from "~/components/ui/picture";
import type { PagePicture } from "../page-picture";

interface PagePictureViewProps {
  picture: PagePicture;
  /** The `sizes` attribute: how wide the picture is shown at each breakpoint. */
  sizes: string;
  /** The page's main picture, in the first screen: loaded at once and first. */
  priority?: boolean;
  /** For a picture that may be in the first screen without being the main one (the site's pictures only). */
  eager?: boolean;
  className?: string;
}

/** A library image cut to the slot's ratio around its focal point, or the site's rendered picture. */
export function PagePictureView({ picture, sizes, priority = false, eager = false, className }: PagePictureViewProps) {
  if (picture.source === "sitio") return <Picture picture={picture.picture} sizes={sizes} priority={priority} eager={eager} className={className} />;
  return <MediaPicture image={picture.image} crop={picture.crop} sizes={sizes} priority={priority} className={className} />;
}
