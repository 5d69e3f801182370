import fs from "node:fs";
import path from "node:path";
import { DatabaseInUseError, openDatabase, useDatabase } from "~/db/client.server";
import { getEnv } from "~/lib/env.server";
import { formatCount } from "~/lib/format";
import { createBackup } from "./backups.server";
import { backupDestination, backupsDir, BACKUPS_PREFIX, type BackupDestination } from "./destination.server";
import { restoreBackup } from "./restore.server";
import { storeUploadedBackup } from "./upload.server";

// `npm run backup [-- NAME]` and `npm run restore -- FILE` (docs/decisions/0055, 0060): the same backup
// and restore as the API, from a terminal. On PostgreSQL they run beside the servers (those go into
// maintenance during a restore and follow the change feed). With PGlite the database belongs to one
// process, so the server must be stopped first (or use the API from /admin/sistema).

async function withDatabase<T>(work: () => Promise<T>): Promise<T> {
  const env = getEnv();
  let database;
  try {
    database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATABASE_URL ? undefined : path.join(env.dataDir, "db") });
  } catch (error) {
    if (error instanceof DatabaseInUseError) {
      throw new Error(`${error.message} Con PGlite, detenga el servidor antes de usar este comando, o haga el respaldo desde el panel (/admin/sistema) o con POST /api/backups.`);
    }
    throw error;
  }
  useDatabase(database);
  try {
    await database.migrate();
    return await work();
  } finally {
    useDatabase(undefined);
    await database.close();
  }
}

/** Where backup `key` is, for the terminal: its path, or its address in the bucket. */
function shownAt(destination: BackupDestination, key: string): string {
  return destination.kind === "s3" ? `s3://${destination.bucket}/${BACKUPS_PREFIX}${key}` : path.join(backupsDir(), key);
}

/** Makes a backup where backups go (DATA_DIR/backups or the S3 bucket); answers the message the terminal shows. */
export async function runBackupCommand(options: { name?: string } = {}): Promise<string> {
  return withDatabase(async () => {
    const destination = await backupDestination();
    const { key, size } = await createBackup(options.name || undefined);
    return `Respaldo creado: ${shownAt(destination, key)} (${size} bytes).`;
  });
}

/**
 * Restores FILE: the name of a backup where backups go (DATA_DIR/backups or the S3 bucket), or the
 * path of an archive elsewhere (stored there first under its own name). The state replaced is kept
 * as one more backup.
 */
export async function runRestoreCommand(file: string | undefined): Promise<string> {
  if (!file) throw new Error("Indique el respaldo: npm run restore -- forja_backup_20260101120000.zip (o la ruta de un archivo .zip).");
  return withDatabase(async () => {
    const destination = await backupDestination();
    const key = path.basename(file);
    const stored = await destination.exists(key);
    const isThatBackup = stored && (!file.includes(path.sep) || (destination.kind === "disk" && path.resolve(file) === path.join(backupsDir(), key)));
    if (!isThatBackup) {
      if (!fs.existsSync(file)) throw new Error(`No existe el archivo ${file}.`);
      if (stored) throw new Error(`Ya existe un respaldo llamado ${key} en ${shownAt(destination, "")}; cambie el nombre del archivo.`);
      const copy = `${file}.${process.pid}.copia`;
      await fs.promises.copyFile(file, copy);
      const kept = await storeUploadedBackup(copy, key).finally(() => fs.promises.rm(copy, { force: true }));
      if (!kept.ok) throw new Error(kept.problem);
    }
    const outcome = await restoreBackup(key);
    return `Respaldo restaurado: ${shownAt(destination, key)} (${formatCount(outcome.tables, "tabla", "tablas")}, ${formatCount(outcome.files, "archivo", "archivos")}). El estado anterior quedó en ${shownAt(destination, outcome.previous)}.`;
  });
}
