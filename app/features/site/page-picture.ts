import type { PictureData } from "~/components/ui/picture";
import type { MediaCrop, MediaView } from "~/lib/media";

// The picture a page shows for the home hero, a service or an industry: the library image staff chose
// for the record (its `imagen`), or else the site's rendered picture for that slug (docs/decisions/0048).

export type PagePicture =
  | { source: "biblioteca"; image: MediaView; crop: MediaCrop }
  | { source: "sitio"; picture: PictureData };
