import fs from "node:fs";
import path from "node:path";
import { getDb } from "~/db/client.server";
import { productImages } from "~/db/schema/catalogue";
import { solicitudFiles } from "~/db/schema/solicitudes";
import { logger } from "~/lib/logger.server";
import { uploadsDir } from "./storage.server";

// Stored files reach their final place just before the transaction that records them commits (a
// request's files and its row are one unit: a failed commit removes the files at once). If the
// process dies between the move and the commit, the files stay with no row pointing to them. They
// are never served (every download goes through a row), and this sweep, run at start-up, removes
// them. Only files older than an hour are considered, so a transaction still running in another
// process (PostgreSQL) never loses its files.

const GRACE_MS = 60 * 60 * 1000;
/** More unreferenced files than this, and more than half of all, is not a crash's leftovers. */
const SUSPICIOUS_ORPHANS = 5;

async function* storedFiles(dir: string, relative = ""): AsyncGenerator<string> {
  let entries: fs.Dirent[];
  try {
    entries = await fs.promises.readdir(path.join(dir, relative), { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const child = relative ? `${relative}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      // Uploads still being received live in .tmp, which cleanTmpUploads looks after.
      if (!relative && entry.name.startsWith(".")) continue;
      yield* storedFiles(dir, child);
    } else if (entry.isFile()) {
      yield child;
    }
  }
}

/** Paths (relative to the uploads directory) that a row refers to: request attachments and product photo variants. */
async function referencedPaths(): Promise<Set<string>> {
  const [attachments, photos] = await Promise.all([
    getDb().select({ path: solicitudFiles.storagePath }).from(solicitudFiles),
    getDb().select({ variants: productImages.variants }).from(productImages),
  ]);
  return new Set([...attachments.map((row) => row.path), ...photos.flatMap((row) => row.variants.map((variant) => variant.path))]);
}

/**
 * Removes stored files older than an hour that no row refers to; returns how many. When most old
 * files look unreferenced (the server was pointed at a new or wrong database, or the files were
 * restored before the database), it removes nothing and says so: a crash leaves a few, not most.
 */
export async function removeOrphanUploads(now = Date.now()): Promise<number> {
  const root = uploadsDir();
  const candidates: string[] = [];
  for await (const relative of storedFiles(root)) {
    const stat = await fs.promises.stat(path.join(root, relative)).catch(() => null);
    if (stat && now - stat.mtimeMs > GRACE_MS) candidates.push(relative);
  }
  if (!candidates.length) return 0;
  const referenced = await referencedPaths();
  const orphans = candidates.filter((relative) => !referenced.has(relative));
  if (orphans.length > SUSPICIOUS_ORPHANS && orphans.length * 2 > candidates.length) {
    logger.error(
      { unreferenced: orphans.length, stored: candidates.length, uploads: root },
      "most stored files have no row: is DATABASE_URL/DATA_DIR the right database? Nothing was removed",
    );
    return 0;
  }
  let removed = 0;
  for (const relative of orphans) {
    try {
      await fs.promises.rm(path.join(root, relative), { force: true });
      removed += 1;
    } catch (error) {
      logger.warn({ err: error, file: relative }, "could not remove a stored file that no row refers to");
    }
  }
  if (removed) logger.warn({ removed }, "removed stored files that no row refers to");
  return removed;
}
