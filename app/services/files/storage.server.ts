import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { getEnv } from "~/lib/env.server";
import { SharedRuns } from "~/lib/shared-runs";

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

/** What a sender is told when the disk is full (507): nothing of theirs was kept, and it is not their fault. */
export const NO_SPACE_MESSAGE =
  "En este momento el servidor no tiene espacio para guardar archivos. No se guardó nada de su envío; intente de nuevo en unos minutos.";

/** A full disk or quota, while writing a stored file. */
export function isNoSpaceError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === "ENOSPC" || code === "EDQUOT";
}

/**
 * Writes a file's data and then the directory entry that names it to the disk. A row that points at
 * a file is committed only after this: a power cut must not leave an acknowledged row without its
 * file (docs/decisions/0044).
 */
export async function syncFile(file: string): Promise<void> {
  const handle = await fs.promises.open(file, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function syncDirectoryNow(dir: string): Promise<void> {
  const handle = await fs.promises.open(dir, fs.constants.O_RDONLY | fs.constants.O_DIRECTORY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

const directorySyncs = new Map<string, SharedRuns>();

/**
 * Makes a directory's entries (a rename, a new file, a new subdirectory) durable. Twenty uploads
 * stored at once into the month's directory share its syncs (SharedRuns): each sync of a directory
 * waits for the file system's journal, and one sync started after a rename covers every rename
 * made before it.
 */
export function syncDirectory(dir: string): Promise<void> {
  let syncs = directorySyncs.get(dir);
  if (!syncs) {
    syncs = new SharedRuns(() => syncDirectoryNow(dir));
    directorySyncs.set(dir, syncs);
  }
  return syncs.run();
}

/** `mkdir -p` whose new directories are durable: each one's entry is synced in its parent. */
async function createDirectoryDurably(dir: string): Promise<void> {
  const firstCreated = await fs.promises.mkdir(dir, { recursive: true });
  if (!firstCreated) return;
  // Every directory from the first one created down to `dir`, and the parent that gained the first.
  const created: string[] = [];
  for (let current = dir; current.length >= firstCreated.length; current = path.dirname(current)) created.push(current);
  for (const each of [...created.reverse(), path.dirname(firstCreated)]) await syncDirectory(each);
}

/**
 * Directories this process made durably or found, as the promise of that work: the month's
 * directory after its first file costs nothing, and files stored at once while it is being made
 * all wait for its syncs (not only the call that created it).
 */
const directoriesMade = new Map<string, Promise<void>>();

function makeDirectoryDurably(dir: string): Promise<void> {
  let made = directoriesMade.get(dir);
  if (!made) {
    made = createDirectoryDurably(dir);
    directoriesMade.set(dir, made);
    made.catch(() => forgetDirectory(dir, made!));
  }
  return made;
}

function forgetDirectory(dir: string, made: Promise<void>): void {
  if (directoriesMade.get(dir) === made) directoriesMade.delete(dir);
}

/**
 * Runs `write` (which creates an entry in `dir`) in a durable `dir`. A directory made before that is
 * gone now (a restore put the uploads back, someone removed it) is made again, once.
 */
async function inDirectory<T>(dir: string, write: () => Promise<T>): Promise<T> {
  const made = makeDirectoryDurably(dir);
  await made;
  let written: T;
  try {
    written = await write();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    forgetDirectory(dir, made);
    await makeDirectoryDurably(dir);
    return write();
  }
  // Another store found the directory gone and made it again: this entry may be in the new one,
  // which is durable only once that work is done.
  const current = directoriesMade.get(dir);
  if (current && current !== made) await current;
  return written;
}

/** Moves a finished temporary upload to its final place (same file system: an atomic rename), durably. */
export async function moveIntoStorage(tmpPath: string, storagePath: string): Promise<void> {
  const target = absoluteStoragePath(storagePath);
  await syncFile(tmpPath);
  await inDirectory(path.dirname(target), () => fs.promises.rename(tmpPath, target));
  await syncDirectory(path.dirname(target));
}

/** Writes new bytes at a storage path that must not exist yet, durably. */
export async function writeIntoStorage(storagePath: string, bytes: Uint8Array): Promise<void> {
  const target = absoluteStoragePath(storagePath);
  const handle = await inDirectory(path.dirname(target), () => fs.promises.open(target, "wx"));
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await syncDirectory(path.dirname(target));
}

export async function removeQuietly(paths: string[]): Promise<void> {
  await Promise.all(paths.map((file) => fs.promises.rm(file, { force: true }).catch(() => {})));
}

/**
 * A temporary upload's name says which process receives it ("<pid>.<uuid>"), so the sweep can tell
 * an upload still being received from one whose process died (a crash, kill -9).
 */
export function newTmpUploadPath(tmpDir: string): string {
  return path.join(tmpDir, `${process.pid}.${randomUUID()}`);
}

/** Past this without a write, a temporary upload is abandoned whoever holds it (Node ends a request after 5 minutes). */
export const TMP_UPLOAD_MAX_IDLE_MS = 10 * 60 * 1000;

function processIsAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists and belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Removes temporary uploads nobody will finish: those of a process that is gone, at once, and any
 * untouched for TMP_UPLOAD_MAX_IDLE_MS. One still being received (its process alive, written to
 * within that time) is never touched. Returns how many were removed.
 */
export async function cleanTmpUploads(now = Date.now()): Promise<number> {
  const dir = uploadsTmpDir();
  let removed = 0;
  for (const entry of await fs.promises.readdir(dir)) {
    const file = path.join(dir, entry);
    const stat = await fs.promises.stat(file).catch(() => null);
    if (!stat) continue;
    const owner = /^(\d+)\./.exec(entry);
    const orphaned = owner ? !processIsAlive(Number(owner[1])) : false;
    if (orphaned || now - stat.mtimeMs > TMP_UPLOAD_MAX_IDLE_MS) {
      await fs.promises.rm(file, { force: true, recursive: true });
      removed += 1;
    }
  }
  return removed;
}
