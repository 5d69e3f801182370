import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { getDatabase } from "~/db/client.server";
import { getEnv } from "~/lib/env.server";
import { logger } from "~/lib/logger.server";
import { getFileStore } from "~/services/files/file-store.server";
import { holdRemovals } from "~/services/files/removal-hold.server";
import { syncDirectory, syncFile } from "~/services/files/storage.server";
import {
  FILE_STORE_TABLES,
  listTables,
  migrationState,
  sequenceState,
  snapshotStoredFile,
  snapshotStoredFileKeys,
  tableLines,
  type MigrationState,
  type SequenceState,
} from "./snapshot.server";
import { ZipFileWriter } from "./zip.server";

// Backups (issue 17 §1, docs/decisions/0055): one ZIP archive in DATA_DIR/backups holding a
// consistent snapshot of the database and every stored file, made while the site keeps serving.
// The rows are read in one REPEATABLE READ, read-only transaction (the same snapshot for every
// table); the files are those the snapshot can name: on PostgreSQL the file store's rows in that
// same snapshot; on disk (PGlite) the files stored before the snapshot, with the disk store's
// removals held until the copy ends, so nothing the snapshot names can vanish meanwhile.

export const BACKUP_NAME = /^[a-z0-9_-]+\.zip$/;
export const MANIFEST_ENTRY = "forja-respaldo.json";
export const ARCHIVE_FORMAT = "forja-respaldo";

export interface BackupManifest {
  format: typeof ARCHIVE_FORMAT;
  version: 1;
  createdAt: string;
  database: "pglite" | "postgres";
  migrations: MigrationState[];
  sequences: SequenceState[];
  tables: { name: string; rows: number }[];
  files: number;
}

export interface BackupInfo {
  key: string;
  size: number;
  modified: Date;
}

export const tableEntry = (table: string) => `db/${table}.jsonl`;
export const FILE_PREFIX = "files/";

export function backupsDir(): string {
  return path.join(getEnv().dataDir, "backups");
}

/** The archive of a valid backup name (never a path outside the backups directory). */
export function backupPath(key: string): string {
  if (!BACKUP_NAME.test(key) || key.length > 150) throw new Error("Nombre de respaldo no válido");
  return path.join(backupsDir(), key);
}

// ——— One backup or restore at a time in this process (PocketBase's StoreKeyActiveBackup) ———

interface ActiveState {
  active: { kind: "backup" | "restore"; key: string } | null;
}
const holder = globalThis as typeof globalThis & { __forjaActiveBackup?: ActiveState };
const activeState = (holder.__forjaActiveBackup ??= { active: null });

export class BackupBusyError extends Error {}

/** The backup or restore running now, if any. */
export function activeBackup(): { kind: "backup" | "restore"; key: string } | null {
  return activeState.active;
}

/** Runs `work` as the process's one backup or restore; throws BackupBusyError when another runs. */
export async function exclusively<T>(kind: "backup" | "restore", key: string, work: () => Promise<T>): Promise<T> {
  if (activeState.active) throw new BackupBusyError("Try again later - another backup/restore process has already been started");
  activeState.active = { kind, key };
  try {
    return await work();
  } finally {
    activeState.active = null;
  }
}

/** PocketBase's default name, ours: forja_backup_YYYYMMDDhhmmss.zip (UTC); a suffix if taken. */
export function defaultBackupName(prefix = "forja_backup", now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:T]/g, "").slice(0, 14);
  let name = `${prefix}_${stamp}.zip`;
  for (let n = 2; fs.existsSync(path.join(backupsDir(), name)); n += 1) name = `${prefix}_${stamp}_${n}.zip`;
  return name;
}

export async function listBackups(): Promise<BackupInfo[]> {
  let names: string[];
  try {
    names = await fs.promises.readdir(backupsDir());
  } catch {
    return [];
  }
  const backups: BackupInfo[] = [];
  for (const name of names) {
    if (!BACKUP_NAME.test(name)) continue;
    const stat = await fs.promises.stat(path.join(backupsDir(), name)).catch(() => null);
    if (stat?.isFile()) backups.push({ key: name, size: stat.size, modified: stat.mtime });
  }
  return backups.sort((a, b) => b.modified.getTime() - a.modified.getTime() || a.key.localeCompare(b.key));
}

export function backupExists(key: string): boolean {
  try {
    return fs.statSync(backupPath(key)).isFile();
  } catch {
    return false;
  }
}

/** A temporary name in the backups directory (hidden from the list), for an archive being written. */
export function temporaryBackupPath(key: string): string {
  fs.mkdirSync(backupsDir(), { recursive: true });
  return path.join(backupsDir(), `.${key}.${process.pid}.${Date.now()}.tmp`);
}

/** Moves a finished, fsynced archive to its name durably; refuses to replace an existing one. */
export async function publishArchive(tmp: string, key: string): Promise<void> {
  const target = backupPath(key);
  await syncFile(tmp);
  // link + unlink instead of rename: an existing backup of the same name is never replaced.
  await fs.promises.link(tmp, target);
  await fs.promises.rm(tmp, { force: true });
  await syncDirectory(backupsDir());
}

export async function deleteBackup(key: string): Promise<void> {
  await fs.promises.rm(backupPath(key));
  await syncDirectory(backupsDir());
}

/**
 * Writes a backup named `key` (which must not exist yet) and answers its size. Runs while the site
 * serves; only the restore calls it without `exclusively` (it holds it already).
 */
export async function writeBackup(key: string): Promise<number> {
  backupPath(key);
  if (backupExists(key)) throw new Error(`Ya existe un respaldo llamado ${key}`);
  const tmp = temporaryBackupPath(key);
  const handle = await fs.promises.open(tmp, "wx");
  // Before the snapshot: a stored file it names cannot be removed until the copy is done.
  const releaseRemovals = holdRemovals();
  try {
    const zip = new ZipFileWriter(handle);
    const database = getDatabase();
    const store = getFileStore();
    const manifest: BackupManifest = {
      format: ARCHIVE_FORMAT,
      version: 1,
      createdAt: new Date().toISOString(),
      database: database.kind,
      migrations: [],
      sequences: [],
      tables: [],
      files: 0,
    };
    let filesBefore = new Date();
    await database.db.transaction(
      async (tx) => {
        manifest.migrations = await migrationState(tx);
        // The snapshot exists from the first query on: a file stored after this instant is no row's yet.
        filesBefore = new Date();
        manifest.sequences = await sequenceState(tx);
        for (const table of await listTables(tx)) {
          if ((FILE_STORE_TABLES as readonly string[]).includes(table.name)) continue;
          let rows = 0;
          const lines = async function* () {
            for await (const line of tableLines(tx, table.name)) {
              rows += 1;
              yield Buffer.from(`${line}\n`);
            }
          };
          await zip.add(tableEntry(table.name), lines(), { deflate: true });
          manifest.tables.push({ name: table.name, rows });
        }
        if (store.kind === "postgres") {
          for (const fileKey of await snapshotStoredFileKeys(tx)) {
            await zip.add(FILE_PREFIX + fileKey, snapshotStoredFile(tx, fileKey), { deflate: false });
            manifest.files += 1;
          }
        }
      },
      { isolationLevel: "repeatable read", accessMode: "read only" },
    );
    if (store.kind === "disk") {
      for await (const fileKey of store.keys({ before: filesBefore })) {
        const file = await store.open(fileKey);
        // Removed between the walk and now: it was stored after the snapshot (removals are held).
        if (!file) continue;
        await zip.add(FILE_PREFIX + fileKey, Readable.fromWeb(file.body as NodeReadableStream<Uint8Array>), { deflate: false });
        manifest.files += 1;
      }
    }
    await zip.add(MANIFEST_ENTRY, [Buffer.from(JSON.stringify(manifest, null, 2))], { deflate: true });
    const size = await zip.end();
    await handle.sync();
    await handle.close();
    await publishArchive(tmp, key);
    logger.info({ backup: key, size, tables: manifest.tables.length, files: manifest.files }, "backup written");
    return size;
  } catch (error) {
    await handle.close().catch(() => {});
    await fs.promises.rm(tmp, { force: true });
    throw error;
  } finally {
    await releaseRemovals((keys) => getFileStore().remove(keys));
  }
}

/** A backup as `npm run backup` and POST /api/backups make it: one at a time in this process. */
export async function createBackup(key: string = defaultBackupName()): Promise<{ key: string; size: number }> {
  return exclusively("backup", key, async () => ({ key, size: await writeBackup(key) }));
}
