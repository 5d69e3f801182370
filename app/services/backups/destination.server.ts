import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { getEnv } from "~/lib/env.server";
import { S3Bucket, type S3Config } from "~/services/files/s3-bucket.server";
import { syncDirectory, syncFile } from "~/services/files/storage.server";
import { s3ConfigFor } from "~/services/settings/s3-settings.server";

// Where backups live (issue 17 §1 and §4, docs/decisions/0055 and 0060): DATA_DIR/backups, or the
// S3 bucket of the `backups.s3` settings (S3_* in the environment) under "backups/". Chosen each
// time it is used, so a settings change applies to the next backup without a restart. An archive is
// always written locally first (a hidden temporary name in DATA_DIR/backups) and then published:
// linked to its name on disk, or uploaded and the temporary removed. A restore reads a local file:
// from S3 it is downloaded to a temporary one first.

export const BACKUP_NAME = /^[a-z0-9_-]+\.zip$/;

export interface BackupInfo {
  key: string;
  size: number;
  modified: Date;
}

export interface BackupObject {
  size: number;
  modified: Date;
  body: ReadableStream<Uint8Array>;
}

export interface BackupDestination {
  readonly kind: "disk" | "s3";
  /** The bucket, for S3 (shown in /admin/sistema). */
  readonly bucket: string | null;
  /** Newest first. */
  list(): Promise<BackupInfo[]>;
  exists(key: string): Promise<boolean>;
  open(key: string): Promise<BackupObject | null>;
  /** Stores a finished local archive as `key` (never replacing one); the local file is gone afterwards. */
  publish(tmp: string, key: string): Promise<void>;
  remove(key: string): Promise<void>;
  /** A local file holding the archive; `release` removes it when it is a temporary copy. */
  localCopy(key: string): Promise<{ file: string; release(): Promise<void> } | null>;
}

export function isBackupName(key: string): boolean {
  return BACKUP_NAME.test(key) && key.length <= 150;
}

export function backupsDir(): string {
  return path.join(getEnv().dataDir, "backups");
}

/** The local archive of a valid backup name (never a path outside the backups directory). */
export function backupPath(key: string): string {
  if (!isBackupName(key)) throw new Error("Nombre de respaldo no válido");
  return path.join(backupsDir(), key);
}

/** A temporary name in the backups directory (hidden from the list), for an archive being written or downloaded. */
export function temporaryBackupPath(key: string): string {
  fs.mkdirSync(backupsDir(), { recursive: true });
  return path.join(backupsDir(), `.${key}.${process.pid}.${Date.now()}.tmp`);
}

const newestFirst = (backups: BackupInfo[]) => backups.sort((a, b) => b.modified.getTime() - a.modified.getTime() || a.key.localeCompare(b.key));

async function localStat(key: string): Promise<fs.Stats | null> {
  if (!isBackupName(key)) return null;
  const stat = await fs.promises.stat(backupPath(key)).catch(() => null);
  return stat?.isFile() ? stat : null;
}

export const diskDestination: BackupDestination = {
  kind: "disk",
  bucket: null,
  async list() {
    let names: string[];
    try {
      names = await fs.promises.readdir(backupsDir());
    } catch {
      return [];
    }
    const backups: BackupInfo[] = [];
    for (const name of names) {
      const stat = await localStat(name);
      if (stat) backups.push({ key: name, size: stat.size, modified: stat.mtime });
    }
    return newestFirst(backups);
  },
  async exists(key) {
    return (await localStat(key)) !== null;
  },
  async open(key) {
    const stat = await localStat(key);
    if (!stat) return null;
    return { size: stat.size, modified: stat.mtime, body: Readable.toWeb(fs.createReadStream(backupPath(key))) as ReadableStream<Uint8Array> };
  },
  async publish(tmp, key) {
    const target = backupPath(key);
    await syncFile(tmp);
    // link + unlink instead of rename: an existing backup of the same name is never replaced.
    await fs.promises.link(tmp, target);
    await fs.promises.rm(tmp, { force: true });
    await syncDirectory(backupsDir());
  },
  async remove(key) {
    await fs.promises.rm(backupPath(key));
    await syncDirectory(backupsDir());
  },
  async localCopy(key) {
    if (!(await localStat(key))) return null;
    return { file: backupPath(key), release: async () => {} };
  },
};

export const BACKUPS_PREFIX = "backups/";

export function s3Destination(config: S3Config): BackupDestination {
  const bucket = new S3Bucket(config, BACKUPS_PREFIX);
  const head = async (key: string) => (isBackupName(key) ? bucket.head(key) : null);
  return {
    kind: "s3",
    bucket: config.bucket,
    async list() {
      const backups: BackupInfo[] = [];
      for await (const object of bucket.list()) if (isBackupName(object.key)) backups.push(object);
      return newestFirst(backups);
    },
    async exists(key) {
      return (await head(key)) !== null;
    },
    async open(key) {
      return isBackupName(key) ? bucket.open(key) : null;
    },
    async publish(tmp, key) {
      backupPath(key);
      try {
        // S3 has no "create only if absent" every compatible server honours: checked just before.
        if (await bucket.head(key)) throw new Error(`Ya existe un respaldo llamado ${key}`);
        await bucket.putFile(key, tmp, "application/zip");
      } finally {
        await fs.promises.rm(tmp, { force: true });
      }
    },
    async remove(key) {
      backupPath(key);
      await bucket.remove([key]);
    },
    async localCopy(key) {
      if (!(await head(key))) return null;
      const file = temporaryBackupPath(key);
      const release = () => fs.promises.rm(file, { force: true });
      try {
        if (!(await bucket.download(key, file))) {
          await release();
          return null;
        }
      } catch (error) {
        await release();
        throw error;
      }
      return { file, release };
    },
  };
}

/** Where backups go now: the `backups.s3` bucket when it is enabled, else DATA_DIR/backups. */
export async function backupDestination(): Promise<BackupDestination> {
  const config = await s3ConfigFor("backups");
  return config ? s3Destination(config) : diskDestination;
}
