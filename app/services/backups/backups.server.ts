import fs from "node:fs";
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { getDatabase } from "~/db/client.server";
import { logger } from "~/lib/logger.server";
import { activeFileStore, getFileStore } from "~/services/files/file-store.server";
import { holdRemovals, withRemovalsHeldEverywhere } from "~/services/files/removal-hold.server";
import { backupDestination, backupPath, temporaryBackupPath, type BackupDestination, type BackupInfo } from "./destination.server";
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

// Backups (issue 17 §1, docs/decisions/0055): one ZIP archive holding a consistent snapshot of the
// database and every stored file, made while the site keeps serving, kept where backups go now
// (DATA_DIR/backups or an S3 bucket: destination.server.ts, docs/decisions/0060). The rows are read
// in one REPEATABLE READ, read-only transaction (the same snapshot for every table); the files are
// those the snapshot can name: on PostgreSQL's store the file rows in that same snapshot; on disk or
// in S3 the files stored before the snapshot, with the store's removals held until the copy ends,
// so nothing the snapshot names can vanish meanwhile.

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

export const tableEntry = (table: string) => `db/${table}.jsonl`;
export const FILE_PREFIX = "files/";

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

/** PocketBase's default name, ours: forja_backup_YYYYMMDDhhmmss.zip (UTC); a suffix if taken where backups go. */
export async function defaultBackupName(prefix = "forja_backup", destination?: BackupDestination, now = new Date()): Promise<string> {
  const where = destination ?? (await backupDestination());
  const stamp = now.toISOString().replace(/[-:T]/g, "").slice(0, 14);
  let name = `${prefix}_${stamp}.zip`;
  for (let n = 2; await where.exists(name); n += 1) name = `${prefix}_${stamp}_${n}.zip`;
  return name;
}

export async function listBackups(): Promise<BackupInfo[]> {
  return (await backupDestination()).list();
}

export async function backupExists(key: string): Promise<boolean> {
  return (await backupDestination()).exists(key);
}

export async function deleteBackup(key: string): Promise<void> {
  await (await backupDestination()).remove(key);
}

/**
 * Writes a backup named `key` (which must not exist yet) where backups go and answers its size: a
 * local temporary archive, then published (linked on disk, or uploaded to S3). Runs while the site
 * serves; only the restore calls it without `exclusively` (it holds it already).
 */
export async function writeBackup(key: string, destination?: BackupDestination): Promise<number> {
  backupPath(key);
  const where = destination ?? (await backupDestination());
  if (await where.exists(key)) throw new Error(`Ya existe un respaldo llamado ${key}`);
  const tmp = temporaryBackupPath(key);
  const handle = await fs.promises.open(tmp, "wx");
  // Before the snapshot: a stored file it names cannot be removed until the copy is done.
  const releaseRemovals = holdRemovals();
  try {
    const zip = new ZipFileWriter(handle);
    const database = getDatabase();
    const store = await activeFileStore();
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
    // Files in S3 can be removed by other processes too: they hold off from before the snapshot
    // until the copy ends.
    const snapshotAndCopy = async () => {
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
      // Disk or S3: the files stored before the snapshot, their removals held meanwhile.
      if (store.kind !== "postgres") {
        for await (const fileKey of store.keys({ before: filesBefore })) {
          const file = await store.open(fileKey);
          // Removed between the walk and now: it was stored after the snapshot (removals are held).
          if (!file) continue;
          await zip.add(FILE_PREFIX + fileKey, Readable.fromWeb(file.body as NodeReadableStream<Uint8Array>), { deflate: false });
          manifest.files += 1;
        }
      }
    };
    await (store.kind === "s3" ? withRemovalsHeldEverywhere(snapshotAndCopy) : snapshotAndCopy());
    await zip.add(MANIFEST_ENTRY, [Buffer.from(JSON.stringify(manifest, null, 2))], { deflate: true });
    const size = await zip.end();
    await handle.sync();
    await handle.close();
    await where.publish(tmp, key);
    logger.info({ backup: key, destination: where.kind, size, tables: manifest.tables.length, files: manifest.files }, "backup written");
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
export async function createBackup(name?: string): Promise<{ key: string; size: number }> {
  const destination = await backupDestination();
  const key = name ?? (await defaultBackupName("forja_backup", destination));
  return exclusively("backup", key, async () => ({ key, size: await writeBackup(key, destination) }));
}
