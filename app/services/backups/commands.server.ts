import fs from "node:fs";
import path from "node:path";
import { DatabaseInUseError, openDatabase, useDatabase } from "~/db/client.server";
import { getEnv } from "~/lib/env.server";
import { backupExists, backupsDir, createBackup, defaultBackupName } from "./backups.server";
import { restoreBackup } from "./restore.server";
import { storeUploadedBackup } from "./upload.server";

// `npm run backup [-- NAME]` and `npm run restore -- FILE` (docs/decisions/0055): the same backup
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

/** Makes a backup in DATA_DIR/backups; answers the message the terminal shows. */
export async function runBackupCommand(options: { name?: string } = {}): Promise<string> {
  return withDatabase(async () => {
    const { key, size } = await createBackup(options.name || defaultBackupName());
    return `Respaldo creado: ${path.join(backupsDir(), key)} (${size} bytes).`;
  });
}

/**
 * Restores FILE: the name of a backup in DATA_DIR/backups, or the path of an archive elsewhere
 * (copied there first under its own name). The state replaced is kept as one more backup.
 */
export async function runRestoreCommand(file: string | undefined): Promise<string> {
  if (!file) throw new Error("Indique el respaldo: npm run restore -- forja_backup_20260101120000.zip (o la ruta de un archivo .zip).");
  return withDatabase(async () => {
    let key = path.basename(file);
    if (!backupExists(key) || (file.includes(path.sep) && path.resolve(file) !== path.join(backupsDir(), key))) {
      if (!fs.existsSync(file)) throw new Error(`No existe el archivo ${file}.`);
      if (backupExists(key)) throw new Error(`Ya existe un respaldo llamado ${key} en ${backupsDir()}; cambie el nombre del archivo.`);
      const copy = `${file}.${process.pid}.copia`;
      await fs.promises.copyFile(file, copy);
      const stored = await storeUploadedBackup(copy, key).finally(() => fs.promises.rm(copy, { force: true }));
      if (!stored.ok) throw new Error(stored.problem);
    }
    const outcome = await restoreBackup(key);
    key = path.join(backupsDir(), key);
    return `Respaldo restaurado: ${key} (${outcome.tables} tablas, ${outcome.files} archivos). El estado anterior quedó en ${path.join(backupsDir(), outcome.previous)}.`;
  });
}
