import type { PictureData } from "~/components/ui/picture";
import type { MediaCrop, MediaView } from "~/lib/media";
import type { IndustrySlug, ServiceSlug } from "./content/types";
import { getExampleDrawing, getHeroPicture, getIndustryPicture, getServicePicture, type SiteDrawing } from "./imagery/images.server";
import { INDUSTRY_SCENES, SERVICE_SCENES } from "./imagery/scenes";
import { mediaViews } from "./media/media-library.server";
import type { PagePicture } from "./page-picture";

// Which picture a page shows for a record (docs/decisions/0048): the library image staff chose in
// its `imagen`, cut to the slot's ratio around its focal point, with its own alt text; when none is
// chosen (or it was deleted from the library since), the site's rendered picture for that slug, as
// before the content store. A slug staff added has no rendered picture: then there is none.

/** The library images the records name, looked up in one query (only what a page needs to show them). */
export async function libraryImagesOf(records: ReadonlyArray<{ imagen: string | null }>): Promise<Map<string, MediaView>> {
  const ids = records.map((record) => record.imagen).filter((id): id is string => id !== null);
  const found = ids.length ? await mediaViews(ids) : new Map<string, MediaView>();
  const views = new Map<string, MediaView>();
  for (const [id, { alt, width, height, focalX, focalY, widths }] of found) views.set(id, { id, alt, width, height, focalX, focalY, widths });
  return views;
}

function pagePicture(imagen: string | null, images: ReadonlyMap<string, MediaView>, crop: MediaCrop, site: PictureData | null): PagePicture | null {
  const image = imagen ? images.get(imagen) : undefined;
  if (image) return { source: "biblioteca", image, crop };
  return site ? { source: "sitio", picture: site } : null;
}

const isServiceSlug = (slug: string): slug is ServiceSlug => Object.hasOwn(SERVICE_SCENES, slug);
const isIndustrySlug = (slug: string): slug is IndustrySlug => Object.hasOwn(INDUSTRY_SCENES, slug);

/** The home page's picture beside its headline (16:9). */
export function heroPicture(imagen: string | null, images: ReadonlyMap<string, MediaView>): PagePicture | null {
  return pagePicture(imagen, images, "16x9", getHeroPicture());
}

/** A service's picture (4:3, as the site's service pictures). */
export function servicePicture(record: { slug: string; imagen: string | null }, images: ReadonlyMap<string, MediaView>): PagePicture | null {
  return pagePicture(record.imagen, images, "4x3", isServiceSlug(record.slug) ? getServicePicture(record.slug) : null);
}

/** An industry's picture (4:3, as the site's industry pictures). */
export function industryPicture(record: { slug: string; imagen: string | null }, images: ReadonlyMap<string, MediaView>): PagePicture | null {
  return pagePicture(record.imagen, images, "4x3", isIndustrySlug(record.slug) ? getIndustryPicture(record.slug) : null);
}

/** The technical drawing of an industry's example part (the ten industries of the site have one). */
export function industryDrawing(slug: string): SiteDrawing | null {
  return isIndustrySlug(slug) ? getExampleDrawing(slug) : null;
}
