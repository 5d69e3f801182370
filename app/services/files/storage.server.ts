import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { getEnv } from "~/lib/env.server";

// Uploaded files live under DATA_DIR/uploads with names the server makes up; nothing there is
// ever executed or served without an authorization check.

export function uploadsDir(): string {
  return path.join(getEnv().dataDir, "uploads");
}

export function uploadsTmpDir(): string {
  const dir = path.join(uploadsDir(), ".tmp");
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** A new storage path relative to the uploads directory: "2026/11/<uuid>". */
export function newStoragePath(now = new Date()): string {
  const year = String(now.getUTCFullYear());
  const month = String(now.getUTCMonth() + 1).padStart(2, "0");
  return path.posix.join(year, month, randomUUID());
}

export function absoluteStoragePath(storagePath: string): string {
  const root = uploadsDir();
  const resolved = path.resolve(root, storagePath);
  if (!resolved.startsWith(root + path.sep)) throw new Error("Storage path escapes the uploads directory");
  return resolved;
}

/** Moves a finished temporary upload to its final place (same file system: an atomic rename). */
export async function moveIntoStorage(tmpPath: string, storagePath: string): Promise<void> {
  const target = absoluteStoragePath(storagePath);
  await fs.promises.mkdir(path.dirname(target), { recursive: true });
  await fs.promises.rename(tmpPath, target);
}

export async function removeQuietly(paths: string[]): Promise<void> {
  await Promise.all(paths.map((file) => fs.promises.rm(file, { force: true }).catch(() => {})));
}

/** Temporary uploads older than an hour belong to requests that died half-way: remove them. */
export async function cleanTmpUploads(now = Date.now()): Promise<number> {
  const dir = uploadsTmpDir();
  let removed = 0;
  for (const entry of await fs.promises.readdir(dir)) {
    const file = path.join(dir, entry);
    const stat = await fs.promises.stat(file).catch(() => null);
    if (stat && now - stat.mtimeMs > 60 * 60 * 1000) {
      await fs.promises.rm(file, { force: true });
      removed += 1;
    }
  }
  return removed;
}
