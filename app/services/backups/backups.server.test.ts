import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// Backups on the real test database (PGlite, or PostgreSQL with TEST_DATABASE_URL) and the file
// store it uses: a backup holds every row and stored file; a restore brings them back byte for byte
// after they were wiped, keeps the replaced state as a backup, and refuses a damaged archive
// without touching anything (docs/decisions/0055).

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("backups"));

import { closeTestDatabase, createTestDatabase } from "../../../tests/support/test-database";
import { readArchive, sha256, sortedLines, tableRowsQuery, type ArchiveContent } from "../../../tests/support/backup-archives";
import { aSolicitud } from "../../../tests/support/solicitud-requests";
import { getDb, type Database } from "~/db/client.server";
import { solicitudes, solicitudFiles } from "~/db/schema/solicitudes";
import { getFileStore } from "~/services/files/file-store.server";
import { holdRemovals } from "~/services/files/removal-hold.server";
import { createBackup, listBackups, MANIFEST_ENTRY, type BackupManifest } from "./backups.server";
import { backupPath } from "./destination.server";
import { restoreBackup } from "./restore.server";
import { rowsOf } from "./snapshot.server";
import { BadArchiveError, readZipEntries, readZipEntry, ZipFileWriter } from "./zip.server";

let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await closeTestDatabase(database);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** A solicitud with `files` attachments stored in the file store; their keys. */
async function solicitudWithFiles(files: number): Promise<string[]> {
  const [row] = await getDb().insert(solicitudes).values(aSolicitud()).returning();
  const keys: string[] = [];
  for (let n = 0; n < files; n += 1) {
    const key = `2026/11/${crypto.randomUUID()}`;
    const bytes = Buffer.from(`%PDF-1.4 archivo ${n} de ${row!.number} ${"x".repeat(1000 * n)}`);
    await getFileStore().putBytes(key, bytes);
    await getDb().insert(solicitudFiles).values({ solicitudId: row!.id, originalName: `plano-${n}.pdf`, storagePath: key, kind: "pdf", mimeType: "application/pdf", size: bytes.length, sha256: sha256(bytes) });
    keys.push(key);
  }
  return keys;
}

async function allKeys(): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of getFileStore().keys()) keys.push(key);
  return keys.sort();
}

/** The database and the file store now, in the archive's terms. */
async function currentContent(tables: Iterable<string>): Promise<{ tables: Map<string, string[]>; files: Map<string, string> }> {
  const content = { tables: new Map<string, string[]>(), files: new Map<string, string>() };
  for (const table of tables) content.tables.set(table, sortedLines(await rowsOf<{ line: string }>(getDb(), sql.raw(tableRowsQuery(table)))));
  for (const key of await allKeys()) content.files.set(key, sha256((await getFileStore().readBytes(key, 1 << 30))!));
  return content;
}

function expectSameContent(archive: ArchiveContent, now: { tables: Map<string, string[]>; files: Map<string, string> }): void {
  expect([...now.tables.keys()].sort()).toEqual([...archive.tables.keys()].sort());
  for (const [table, lines] of archive.tables) expect(now.tables.get(table), table).toEqual(lines);
  expect(now.files).toEqual(archive.files);
}

describe("backups", () => {
  let first: ArchiveContent;
  let keptKeys: string[];

  it("a backup holds every application table's rows and every stored file", async () => {
    keptKeys = [...(await solicitudWithFiles(2)), ...(await solicitudWithFiles(1))];
    await createBackup("prueba_uno.zip");
    expect((await listBackups()).map((backup) => backup.key)).toContain("prueba_uno.zip");
    first = await readArchive(backupPath("prueba_uno.zip"));
    expect(first.manifest.migrations.length).toBeGreaterThan(10);
    expect(first.tables.get("solicitudes")).toHaveLength(2);
    expect(first.tables.get("solicitud_files")).toHaveLength(3);
    expect(first.tables.has("stored_files")).toBe(false);
    for (const key of keptKeys) expect(first.files.has(key), key).toBe(true);
    expectSameContent(first, await currentContent(first.tables.keys()));
  });

  it("on disk a removal asked for while a backup copies the files waits until it ends (on PostgreSQL the snapshot keeps it)", async () => {
    const [key] = await solicitudWithFiles(1);
    const release = holdRemovals();
    await getFileStore().remove([key!]);
    const disk = getFileStore().kind === "disk";
    // The PostgreSQL store's files are rows of the backup's snapshot: a removal need not wait.
    expect(await getFileStore().readBytes(key!, 1 << 20)).toEqual(disk ? expect.any(Buffer) : null);
    await release((keys) => getFileStore().remove(keys));
    expect(await getFileStore().readBytes(key!, 1 << 20)).toBeNull();
  });

  it("a restore brings back every row and file byte for byte, and keeps the state it replaced", async () => {
    // Wipe: rows and files gone, something new added.
    await getDb().delete(solicitudes);
    await getFileStore().remove(await allKeys());
    const added = await solicitudWithFiles(1);
    const outcome = await restoreBackup("prueba_uno.zip", { previousName: "antes_de_prueba.zip" });
    expect(outcome.previous).toBe("antes_de_prueba.zip");
    expectSameContent(first, await currentContent(first.tables.keys()));
    expect(await getFileStore().readBytes(added[0]!, 1 << 20)).toBeNull();
    // The replaced state is a backup of its own, with what was added after the first one.
    const previous = await readArchive(backupPath("antes_de_prueba.zip"));
    expect(previous.files.has(added[0]!)).toBe(true);
    expect(previous.tables.get("solicitudes")).toHaveLength(1);
    // Every row has its file.
    const rows = await getDb().select({ path: solicitudFiles.storagePath, sha: solicitudFiles.sha256 }).from(solicitudFiles);
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(sha256((await getFileStore().readBytes(row.path, 1 << 20))!)).toBe(row.sha);
  });

  it("a damaged archive is refused before anything is replaced", async () => {
    const source = backupPath("prueba_uno.zip");
    const damaged = backupPath("danado.zip");
    const bytes = fs.readFileSync(source);
    const entry = (await readZipEntries(source)).find((each) => each.name.startsWith("files/"))!;
    // A byte in the middle of a stored file's data: its CRC no longer matches.
    const at = entry.localHeaderOffset + 30 + Buffer.byteLength(entry.name) + Math.floor(entry.compressedSize / 2);
    bytes[at] = bytes[at]! ^ 0xff;
    fs.writeFileSync(damaged, bytes);
    const before = await currentContent(first.tables.keys());
    await expect(restoreBackup("danado.zip")).rejects.toBeInstanceOf(BadArchiveError);
    expect(await currentContent(first.tables.keys())).toEqual(before);
    expect(fs.readdirSync(dataDir).filter((name) => name.startsWith(".uploads-"))).toEqual([]);
  });

  it("an archive of another schema, or none, is refused", async () => {
    await expect(restoreBackup("no_existe.zip")).rejects.toBeInstanceOf(BadArchiveError);
    // The same archive, as if made before the last migration.
    const source = backupPath("prueba_uno.zip");
    const handle = await fs.promises.open(backupPath("otra_version.zip"), "wx");
    const zip = new ZipFileWriter(handle);
    for (const entry of await readZipEntries(source)) {
      let bytes = await readZipEntry(source, entry);
      if (entry.name === MANIFEST_ENTRY) {
        const manifest = JSON.parse(bytes.toString("utf8")) as BackupManifest;
        bytes = Buffer.from(JSON.stringify({ ...manifest, migrations: manifest.migrations.slice(0, -1) }));
      }
      await zip.add(entry.name, [bytes], { deflate: true });
    }
    await zip.end();
    await handle.close();
    const before = await currentContent(first.tables.keys());
    await expect(restoreBackup("otra_version.zip")).rejects.toThrow(/otra versión de la base de datos/);
    expect(await currentContent(first.tables.keys())).toEqual(before);
    expect(path.basename(backupPath("otra_version.zip"))).toBe("otra_version.zip");
  });
});
