import fs from "node:fs";
import type { UploadLimits } from "~/services/files/multipart.server";
import { syncFile } from "~/services/files/storage.server";
import { backupDestination, temporaryBackupPath } from "./destination.server";
import { checkArchive } from "./restore.server";
import { BadArchiveError, ZIP_MAX_BYTES } from "./zip.server";

// An uploaded backup (POST /api/backups/upload, docs/decisions/0055): kept only when it is a Forja
// backup archive whose manifest lists entries it has; its bytes are checked again (CRC) on restore.

export const UPLOAD_LIMITS = { maxFiles: 1, maxFileBytes: ZIP_MAX_BYTES, maxTotalBytes: ZIP_MAX_BYTES } satisfies UploadLimits;

const ZIP_MAGIC = [Buffer.from("PK\x03\x04", "latin1"), Buffer.from("PK\x05\x06", "latin1")];

export type StoredUpload = { ok: true } | { ok: false; problem: string };

/** Checks a received archive and stores it as `name` where backups go (durably on disk, or uploaded to S3). */
export async function storeUploadedBackup(tmpPath: string, name: string): Promise<StoredUpload> {
  const handle = await fs.promises.open(tmpPath, "r");
  const head = Buffer.alloc(4);
  try {
    await handle.read(head, 0, 4, 0);
  } finally {
    await handle.close();
  }
  if (!ZIP_MAGIC.some((magic) => magic.equals(head))) return { ok: false, problem: "El archivo no es un ZIP (application/zip)." };
  try {
    await checkArchive(tmpPath);
  } catch (error) {
    if (error instanceof BadArchiveError) return { ok: false, problem: error.message };
    throw error;
  }
  const destination = await backupDestination();
  if (await destination.exists(name)) return { ok: false, problem: "Ya existe un respaldo con ese nombre." };
  const tmp = temporaryBackupPath(name);
  try {
    await fs.promises.rename(tmpPath, tmp);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
    await fs.promises.copyFile(tmpPath, tmp);
    await fs.promises.rm(tmpPath, { force: true });
  }
  try {
    await syncFile(tmp);
    await destination.publish(tmp, name);
  } finally {
    await fs.promises.rm(tmp, { force: true });
  }
  return { ok: true };
}
