import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { sql } from "drizzle-orm";
import { CHANGE_CHANNEL } from "~/db/change-feed.server";
import { getDatabase, type DbTransaction } from "~/db/client.server";
import { getEnv } from "~/lib/env.server";
import { logger } from "~/lib/logger.server";
import { activeFileStore, isStorageKey, type FileStore } from "~/services/files/file-store.server";
import { postgresFileStore } from "~/services/files/postgres-store.server";
import { holdRemovals } from "~/services/files/removal-hold.server";
import { syncDirectory, syncFile, uploadsDir } from "~/services/files/storage.server";
import {
  ARCHIVE_FORMAT,
  defaultBackupName,
  exclusively,
  FILE_PREFIX,
  MANIFEST_ENTRY,
  tableEntry,
  writeBackup,
  type BackupManifest,
} from "./backups.server";
import { backupDestination } from "./destination.server";
import { announceRestore, enterMaintenance, leaveMaintenance, waitForRequestsToEnd } from "./maintenance.server";
import { inLoadOrder, listTables, migrationState, quoteIdentifier, rowsOf } from "./snapshot.server";
import { BadArchiveError, openZipEntry, readZipEntries, readZipEntry, type ZipEntry } from "./zip.server";

// Restoring a backup (docs/decisions/0055) without restarting the server: the site answers 503
// meanwhile (maintenance.server.ts), the state it replaces is kept first as one more backup, then
// ONE database transaction empties every application table and loads the archive's rows (and, on
// PostgreSQL, its files into the shared file store); on disk the archive's files are written to a
// new directory beforehand and swapped in for DATA_DIR/uploads right after the commit; in S3 they are
// uploaded before the commit and the replaced state's other files removed after it. The archive
// comes from where backups go (downloaded first from S3, docs/decisions/0060). Every cache
// follows the change feed, so the topics of every cached thing are notified in that transaction,
// and the other processes are told through the feed's channel of backups.

/** Rows per INSERT while loading (one statement for a table whose rows point at each other). */
const LOAD_BATCH_BYTES = 4 * 1024 * 1024;

export interface CheckedArchive {
  manifest: BackupManifest;
  entries: Map<string, ZipEntry>;
}

/** Reads an archive's manifest and checks it is a Forja backup with every entry it lists. */
export async function checkArchive(file: string): Promise<CheckedArchive> {
  const entries = new Map((await readZipEntries(file)).map((entry) => [entry.name, entry]));
  const manifestEntry = entries.get(MANIFEST_ENTRY);
  if (!manifestEntry) throw new BadArchiveError("El archivo no es un respaldo de Forja (no tiene forja-respaldo.json).");
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse((await readZipEntry(file, manifestEntry)).toString("utf8")) as BackupManifest;
  } catch {
    throw new BadArchiveError("El índice del respaldo (forja-respaldo.json) está dañado.");
  }
  if (manifest?.format !== ARCHIVE_FORMAT || manifest.version !== 1 || !Array.isArray(manifest.tables) || !Array.isArray(manifest.migrations)) {
    throw new BadArchiveError("El archivo no es un respaldo de Forja de una versión conocida.");
  }
  for (const table of manifest.tables) {
    if (!entries.has(tableEntry(table.name))) throw new BadArchiveError(`Al respaldo le falta la tabla ${table.name}.`);
  }
  const files = [...entries.keys()].filter((name) => name.startsWith(FILE_PREFIX));
  if (files.length !== manifest.files || files.some((name) => !isStorageKey(name.slice(FILE_PREFIX.length)))) {
    throw new BadArchiveError("Los archivos del respaldo no coinciden con su índice.");
  }
  return { manifest, entries };
}

/** The archive's migrations must be the database's: rows of another schema cannot be loaded as they are. */
function checkMigrations(archive: BackupManifest, current: { hash: string }[]): void {
  const same = archive.migrations.length === current.length && archive.migrations.every((migration, index) => migration.hash === current[index]!.hash);
  if (!same) {
    throw new BadArchiveError(
      `El respaldo se hizo con otra versión de la base de datos (${archive.migrations.length} migraciones; esta tiene ${current.length}). ` +
        "Restáurelo con la versión de Forja que lo hizo y actualice después.",
    );
  }
}

/** Writes the archive's files under `dir` (one file each, fsynced, and every directory), in key order. */
async function extractFiles(file: string, archive: CheckedArchive, dir: string): Promise<string[]> {
  const keys: string[] = [];
  const directories = new Set<string>([dir]);
  for (const [name, entry] of archive.entries) {
    if (!name.startsWith(FILE_PREFIX)) continue;
    const key = name.slice(FILE_PREFIX.length);
    const target = path.join(dir, key);
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    for (let parent = path.dirname(target); parent.length > dir.length; parent = path.dirname(parent)) directories.add(parent);
    await pipeline(await openZipEntry(file, entry), fs.createWriteStream(target, { flags: "wx" }));
    await syncFile(target);
    keys.push(key);
  }
  // Deepest first, then the parents: each new entry is durable in its directory.
  for (const each of [...directories].sort((a, b) => b.length - a.length)) await syncDirectory(each);
  await syncDirectory(path.dirname(dir));
  return keys;
}

async function* jsonLines(file: string, entry: ZipEntry): AsyncGenerator<string> {
  let rest = "";
  const decoder = new TextDecoder();
  for await (const chunk of await openZipEntry(file, entry)) {
    rest += decoder.decode(chunk as Buffer, { stream: true });
    const lines = rest.split("\n");
    rest = lines.pop()!;
    for (const line of lines) if (line) yield line;
  }
  rest += decoder.decode();
  if (rest) yield rest;
}

/** Loads one table's rows from the archive; answers how many. */
async function loadTable(tx: DbTransaction, file: string, entry: ZipEntry, table: { name: string; columns: string[]; hasIdentity: boolean; selfReference: boolean }): Promise<number> {
  const columns = table.columns.map(quoteIdentifier).join(", ");
  const target = sql.raw(quoteIdentifier(table.name));
  const overriding = sql.raw(table.hasIdentity ? "overriding system value" : "");
  let batch: string[] = [];
  let bytes = 0;
  let rows = 0;
  const flush = async () => {
    if (!batch.length) return;
    await tx.execute(sql`insert into ${target} (${sql.raw(columns)}) ${overriding} select ${sql.raw(columns)} from json_populate_recordset(null::${target}, ${`[${batch.join(",")}]`}::json)`);
    rows += batch.length;
    batch = [];
    bytes = 0;
  };
  for await (const line of jsonLines(file, entry)) {
    batch.push(line);
    bytes += line.length;
    // Rows that point at rows of the same table go in one statement: its foreign keys are checked at its end.
    if (bytes >= LOAD_BATCH_BYTES && !table.selfReference) await flush();
  }
  await flush();
  return rows;
}

/** Every topic a cache follows, for the tables' old and new content: caches in every process drop what they hold. */
async function notifyEveryTopic(tx: DbTransaction, collections: Set<string>): Promise<void> {
  const topics = ["catalogo", "solicitudes", "contenido", ...[...collections].map((name) => `contenido:${name}`)];
  for (const topic of topics) await tx.execute(sql`select pg_notify(${CHANGE_CHANNEL}, ${topic})`);
}

async function contentCollections(tx: DbTransaction): Promise<string[]> {
  const rows = await rowsOf<{ collection: string }>(tx, sql`select distinct collection from content_entries`).catch(() => []);
  return rows.map((row) => row.collection);
}

/** The database part of a restore: one transaction; the disk's files are swapped by the caller after it commits. */
async function restoreDatabase(file: string, archive: CheckedArchive, stagedFiles: { dir: string; keys: string[] } | null, store: FileStore): Promise<void> {
  const database = getDatabase();
  await database.db.transaction(async (tx) => {
    checkMigrations(archive.manifest, await migrationState(tx));
    const tables = inLoadOrder(await listTables(tx));
    const archived = new Map(archive.manifest.tables.map((table) => [table.name, table]));
    for (const name of archived.keys()) {
      if (!tables.some((table) => table.name === name)) throw new BadArchiveError(`La tabla ${name} del respaldo no existe en esta base de datos.`);
    }
    const collections = new Set(await contentCollections(tx));
    const all = tables.map((table) => quoteIdentifier(table.name)).join(", ");
    // Triggers stay quiet while rows are loaded (no realtime event per row, no trigger writing rows);
    // the caches are told once below. ALTER TABLE needs only ownership, unlike session_replication_role.
    for (const table of tables) await tx.execute(sql.raw(`alter table ${quoteIdentifier(table.name)} disable trigger user`));
    await tx.execute(sql.raw(`truncate ${all}`));
    for (const table of tables) {
      const entry = archive.entries.get(tableEntry(table.name));
      if (!entry) continue;
      const rows = await loadTable(tx, file, entry, table);
      if (rows !== archived.get(table.name)!.rows) throw new BadArchiveError(`La tabla ${table.name} del respaldo tiene ${rows} filas; su índice dice ${archived.get(table.name)!.rows}.`);
    }
    for (const sequence of archive.manifest.sequences) {
      const name = quoteIdentifier(sequence.name);
      if (sequence.lastValue === null) await tx.execute(sql`select setval(${name}::regclass, 1, false)`);
      else await tx.execute(sql`select setval(${name}::regclass, ${sequence.lastValue}::bigint, true)`);
    }
    if (stagedFiles && store.kind === "postgres") {
      // The shared store is rows: the files commit with the rest, in this transaction.
      for (const key of stagedFiles.keys) await postgresFileStore.putFile(key, path.join(stagedFiles.dir, key), tx);
    }
    for (const table of tables) await tx.execute(sql.raw(`alter table ${quoteIdentifier(table.name)} enable trigger user`));
    for (const collection of await contentCollections(tx)) collections.add(collection);
    collections.add("redirecciones");
    collections.add("ajustes");
    await notifyEveryTopic(tx, collections);
  });
}

/** Replaces DATA_DIR/uploads with the restored tree: two renames, the parent synced. */
async function swapUploads(staged: string): Promise<void> {
  const current = uploadsDir();
  const parent = path.dirname(current);
  const previous = path.join(parent, `.uploads-anterior-${process.pid}-${Date.now()}`);
  const hadCurrent = fs.existsSync(current);
  if (hadCurrent) await fs.promises.rename(current, previous);
  await fs.promises.rename(staged, current);
  await syncDirectory(parent);
  if (hadCurrent) await fs.promises.rm(previous, { recursive: true, force: true });
}

export interface RestoreOutcome {
  /** The backup of the state that was replaced. */
  previous: string;
  tables: number;
  files: number;
}

/**
 * Restores backup `key` on the running server: maintenance on (here and, through the feed, in the
 * other processes), a backup of the current state, the files staged, one transaction for the rows,
 * the files swapped (disk), maintenance off. Nothing is replaced when the archive is damaged or of
 * another schema: the error is thrown before the transaction commits.
 */
export async function restoreBackup(key: string, options: { previousName?: string } = {}): Promise<RestoreOutcome> {
  return exclusively("restore", key, async () => {
    const destination = await backupDestination();
    // From S3 the archive is downloaded first: its entries are read from a local file.
    const copy = await destination.localCopy(key);
    if (!copy) throw new BadArchiveError("Missing or invalid backup file.");
    try {
      const file = copy.file;
      const archive = await checkArchive(file);
      const database = getDatabase();
      const store = await activeFileStore();
      checkMigrations(archive.manifest, await migrationState(database.db));
      enterMaintenance();
      await announceRestore("start");
      const staged = path.join(getEnv().dataDir, `.uploads-restaurando-${process.pid}-${Date.now()}`);
      // Held until the end: removals asked for meanwhile belong to the state being replaced.
      let releaseRemovals: ReturnType<typeof holdRemovals> | null = null;
      try {
        await waitForRequestsToEnd();
        // The state replaced is kept where backups go now, like any other backup.
        const previous = options.previousName ?? (await defaultBackupName("forja_antes_de_restaurar", destination));
        await writeBackup(previous, destination);
        releaseRemovals = holdRemovals();
        await fs.promises.mkdir(staged, { recursive: true });
        const keys = await extractFiles(file, archive, staged);
        // S3: the archive's files are uploaded before the rows commit (keys are never reused, so an
        // upload replaces nothing the current rows name; if the restore fails they are orphans).
        if (store.kind === "s3") for (const fileKey of keys) await store.putFile(fileKey, path.join(staged, fileKey));
        await restoreDatabase(file, archive, { dir: staged, keys }, store);
        if (store.kind === "disk") await swapUploads(staged);
        else if (store.kind === "s3") {
          // The replaced state's files go, as the disk's uploads directory is replaced whole.
          await releaseRemovals(null);
          releaseRemovals = null;
          await removeFilesNotIn(store, new Set(keys));
        }
        logger.warn({ backup: key, destination: destination.kind, previous, tables: archive.manifest.tables.length, files: keys.length }, "backup restored");
        return { previous, tables: archive.manifest.tables.length, files: keys.length };
      } finally {
        await fs.promises.rm(staged, { recursive: true, force: true }).catch(() => {});
        await releaseRemovals?.(null);
        leaveMaintenance();
        await announceRestore("end").catch(() => {});
      }
    } finally {
      await copy.release();
    }
  });
}

/** Removes the stored files the restored state does not have (a shared store that is not replaced whole). */
async function removeFilesNotIn(store: FileStore, keep: Set<string>): Promise<void> {
  const extra: string[] = [];
  for await (const fileKey of store.keys()) if (!keep.has(fileKey)) extra.push(fileKey);
  if (extra.length) await store.remove(extra);
}

/** PocketBase's restore: started a second after the 204 is sent; the outcome is logged. */
export function startRestore(key: string, options: { by?: string; delayMs?: number } = {}): void {
  const timer = setTimeout(() => {
    restoreBackup(key).catch((error: unknown) => logger.error({ err: error, backup: key, by: options.by }, "backup restore failed"));
  }, options.delayMs ?? 1_000);
  timer.unref();
}
