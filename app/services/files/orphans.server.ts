import { getDb } from "~/db/client.server";
import { productImages, productModels, type ProductModelOutput, type ProductModelSource } from "~/db/schema/catalogue";
import { media } from "~/db/schema/content";
import { solicitudFiles } from "~/db/schema/solicitudes";
import { logger } from "~/lib/logger.server";
import { getFileStore } from "./file-store.server";

// Stored files reach their final place just before the transaction that records them commits (a
// request's files and its row are one unit: a failed commit removes the files at once). If the
// process dies between the move and the commit, the files stay with no row pointing to them. They
// are never served (every download goes through a row), and this sweep, run at start-up, removes
// them from whichever store the process uses (DATA_DIR/uploads, or PostgreSQL: there a solicitud's
// files commit with it, but product photo variants are stored before their row). Only files older
// than an hour are considered, so a transaction still running in another process never loses its
// files.

const GRACE_MS = 60 * 60 * 1000;
/** More unreferenced files than this, and more than half of all, is not a crash's leftovers. */
const SUSPICIOUS_ORPHANS = 5;

/** The files a product model refers to: the STEP staff uploaded, and what was made from it. */
function modelPaths(source: ProductModelSource, output: ProductModelOutput | null): string[] {
  const paths = source.kind === "step" ? [source.path] : [];
  if (output) paths.push(output.files.step.path, output.files.stl.path, output.files.drawing.path);
  return paths;
}

/** Keys (storage paths) that a row refers to: request attachments, product photo variants, CAD models and the media library. */
async function referencedPaths(): Promise<Set<string>> {
  const [attachments, photos, models, library] = await Promise.all([
    getDb().select({ path: solicitudFiles.storagePath }).from(solicitudFiles),
    getDb().select({ variants: productImages.variants }).from(productImages),
    getDb().select({ source: productModels.source, output: productModels.output }).from(productModels),
    getDb().select({ original: media.fileName, variants: media.variants }).from(media),
  ]);
  return new Set([
    ...attachments.map((row) => row.path),
    ...photos.flatMap((row) => row.variants.map((variant) => variant.path)),
    ...models.flatMap((row) => modelPaths(row.source, row.output)),
    ...library.flatMap((row) => [row.original, ...row.variants.map((variant) => variant.path)]),
  ]);
}

/**
 * Removes stored files older than an hour that no row refers to; returns how many. When most old
 * files look unreferenced (the server was pointed at a new or wrong database, or the files were
 * restored before the database), it removes nothing and says so: a crash leaves a few, not most.
 */
export async function removeOrphanUploads(now = Date.now()): Promise<number> {
  const store = getFileStore();
  const candidates: string[] = [];
  for await (const key of store.keys({ before: new Date(now - GRACE_MS) })) candidates.push(key);
  if (!candidates.length) return 0;
  const referenced = await referencedPaths();
  const orphans = candidates.filter((key) => !referenced.has(key));
  if (orphans.length > SUSPICIOUS_ORPHANS && orphans.length * 2 > candidates.length) {
    logger.error(
      { unreferenced: orphans.length, stored: candidates.length, store: store.kind },
      "most stored files have no row: is DATABASE_URL/DATA_DIR the right database? Nothing was removed",
    );
    return 0;
  }
  if (!orphans.length) return 0;
  await store.remove(orphans);
  logger.warn({ removed: orphans.length, store: store.kind }, "removed stored files that no row refers to");
  return orphans.length;
}
