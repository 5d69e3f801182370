// What scripts/site-imagery.ts writes beside the files it generates (generated/manifest.json).

export interface SiteImageSource {
  /** File name in generated/. */
  file: string;
  /** Pixel width of this variant. */
  width: number;
  bytes: number;
}

export interface SiteImageryManifest {
  /** By scene id: the largest size and every variant, per format. */
  scenes: Record<string, { width: number; height: number; sources: { avif: SiteImageSource[]; webp: SiteImageSource[] } }>;
  /** By industry slug: the example part's drawing. */
  drawings: Record<string, { file: string; width: number; height: number; bytes: number }>;
}
