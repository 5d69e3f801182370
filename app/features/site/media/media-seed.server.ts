import { eq } from "drizzle-orm";
import { getDb, withTransaction } from "~/db/client.server";
import { contentSeeds, media } from "~/db/schema/content";
import { logger } from "~/lib/logger.server";
import { getFileStore } from "~/services/files/file-store.server";
import type { SiteImageryManifest } from "../imagery/manifest";
import { SITE_SCENES } from "../imagery/scenes";
import { prepareLibraryImage, readSiteImage, type PreparedMedia } from "./media-uploads.server";
import { MEDIA_SEED_ADDED } from "./media-seed-log";

// On an empty database the site's rendered part pictures (docs/decisions/0026) enter the library
// once, with their alt text, so staff can choose them. The claim is a content_seeds row written in
// the same transaction as the rows (as the content store seeds, 0037): a later start, or a second
// process starting at the same moment, never adds them again nor revives one staff deleted.

export const MEDIA_SEED = "media:imagenes-del-sitio";

const manifests = import.meta.glob<SiteImageryManifest>("../imagery/generated/manifest.json", { eager: true, import: "default" });
// Loaded only when seeding: each picture is its own chunk.
const pictures = import.meta.glob<string>("../imagery/generated/*.webp", { query: "?inline", import: "default" });

/** Where the site's rendered pictures come from: the build's bundle, or (tests) the files on disk. */
export interface SiteImageSource {
  manifest: SiteImageryManifest | undefined;
  /** A picture's bytes by its file name, or null when there is none. */
  load(file: string): Promise<Buffer | null>;
}

/** The pictures bundled with the server when it was built (found when this module was built). */
export const bundledSiteImages: SiteImageSource = {
  manifest: Object.values(manifests)[0],
  async load(file) {
    const load = pictures[`../imagery/generated/${file}`];
    if (!load) return null;
    const dataUrl = await load();
    return Buffer.from(dataUrl.slice(dataUrl.indexOf(",") + 1), "base64");
  },
};

async function alreadySeeded(): Promise<boolean> {
  const [row] = await getDb().select({ collection: contentSeeds.collection }).from(contentSeeds).where(eq(contentSeeds.collection, MEDIA_SEED)).limit(1);
  return Boolean(row);
}

/**
 * Adds the site's pictures to an empty library once; answers how many were added (0 after the
 * first time). `signal` stops it between pictures (a shutdown): nothing is kept, the next start seeds.
 */
export async function seedSiteImagery(signal?: AbortSignal, source: SiteImageSource = bundledSiteImages): Promise<number> {
  if (await alreadySeeded()) return 0;
  const { manifest } = source;
  const prepared: PreparedMedia[] = [];
  try {
    for (const scene of SITE_SCENES) {
      if (signal?.aborted) {
        await getFileStore().remove(prepared.flatMap((item) => item.paths));
        return 0;
      }
      const largest = manifest?.scenes[scene.id]?.sources.webp[0];
      const bytes = largest ? await source.load(largest.file) : null;
      if (!largest || !bytes) continue;
      const image = await readSiteImage(largest.file, bytes);
      if (!image) continue;
      prepared.push(await prepareLibraryImage({ ...image, originalName: largest.file, alt: scene.alt, focoX: 0.5, focoY: 0.5 }));
    }
    const added = await withTransaction(async () => {
      const claimed = await getDb().insert(contentSeeds).values({ collection: MEDIA_SEED }).onConflictDoNothing().returning();
      if (claimed.length === 0) return 0;
      if (prepared.length) await getDb().insert(media).values(prepared.map((item) => item.values));
      return prepared.length;
    });
    if (added === 0) await getFileStore().remove(prepared.flatMap((item) => item.paths));
    else logger.info({ images: added }, MEDIA_SEED_ADDED);
    return added;
  } catch (error) {
    await getFileStore().remove(prepared.flatMap((item) => item.paths));
    throw error;
  }
}
