// The generated pictures and drawings of the public site (docs/decisions/0026), as the pages show
// them: the files in generated/ are bundled as hashed assets (served for a year, immutable), their
// sizes come from the manifest the generator wrote beside them. Before the first generation there is
// nothing to show, and the pages leave the pictures out.
import type { PictureData } from "~/components/ui/picture";
import type { IndustrySlug, ServiceSlug } from "../content/types";
import type { SiteImageryManifest } from "./manifest";
import { drawingId, EXAMPLE_PARTS, HERO_SCENE, INDUSTRY_SCENES, SERVICE_SCENES, type SiteScene } from "./scenes";

const manifests = import.meta.glob<SiteImageryManifest>("./generated/manifest.json", { eager: true, import: "default" });
const urls = import.meta.glob<string>("./generated/*.{avif,webp,svg}", { eager: true, query: "?no-inline", import: "default" });

const manifest: SiteImageryManifest | undefined = Object.values(manifests)[0];
const urlOf = (file: string) => urls[`./generated/${file}`];

export type SitePicture = PictureData;

export interface SiteDrawing {
  alt: string;
  src: string;
  width: number;
  height: number;
}

function pictureOf(scene: SiteScene): SitePicture | null {
  const entry = manifest?.scenes[scene.id];
  if (!entry) return null;
  const srcSet = (variants: Array<{ file: string; width: number }>) => variants.map((variant) => `${urlOf(variant.file)} ${variant.width}w`).join(", ");
  const fallback = entry.sources.webp[0];
  const files = [...entry.sources.avif, ...entry.sources.webp];
  if (!fallback || files.some((variant) => !urlOf(variant.file))) return null;
  return {
    alt: scene.alt,
    width: entry.width,
    height: entry.height,
    src: urlOf(fallback.file),
    sources: [
      { type: "image/avif", srcSet: srcSet(entry.sources.avif) },
      { type: "image/webp", srcSet: srcSet(entry.sources.webp) },
    ],
  };
}

export function getHeroPicture(): SitePicture | null {
  return pictureOf(HERO_SCENE);
}

export function getServicePicture(slug: ServiceSlug): SitePicture | null {
  return pictureOf(SERVICE_SCENES[slug]);
}

export function getIndustryPicture(slug: IndustrySlug): SitePicture | null {
  return pictureOf(INDUSTRY_SCENES[slug]);
}

/** The technical drawing of an industry's example part. */
export function getExampleDrawing(slug: IndustrySlug): SiteDrawing | null {
  const entry = manifest?.drawings[slug];
  const src = entry && urlOf(entry.file);
  if (!entry || !src || entry.file !== `${drawingId(slug)}.svg`) return null;
  return {
    alt: `Dibujo técnico: ${EXAMPLE_PARTS[slug].name}. Vistas frontal, superior, lateral derecha e isométrica, con medidas generales, material y notas.`,
    src,
    width: entry.width,
    height: entry.height,
  };
}
