import { createHash } from "node:crypto";
import { FILE_PREFIX, MANIFEST_ENTRY, type BackupManifest } from "~/services/backups/backups.server";
import { readZipEntries, readZipEntry } from "~/services/backups/zip.server";

// What a backup archive holds, read independently of the restore: each table's rows (the JSON lines,
// sorted, since row order is physical) and each stored file's SHA-256, for byte-for-byte checks.

export interface ArchiveContent {
  manifest: BackupManifest;
  tables: Map<string, string[]>;
  files: Map<string, string>;
}

export const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

export async function readArchive(file: string): Promise<ArchiveContent> {
  const entries = await readZipEntries(file);
  const content: ArchiveContent = { manifest: undefined as unknown as BackupManifest, tables: new Map(), files: new Map() };
  for (const entry of entries) {
    const bytes = await readZipEntry(file, entry);
    if (entry.name === MANIFEST_ENTRY) content.manifest = JSON.parse(bytes.toString("utf8")) as BackupManifest;
    else if (entry.name.startsWith(FILE_PREFIX)) content.files.set(entry.name.slice(FILE_PREFIX.length), sha256(bytes));
    else {
      const table = /^db\/(.+)\.jsonl$/.exec(entry.name)?.[1];
      if (!table) throw new Error(`unexpected entry ${entry.name}`);
      content.tables.set(table, bytes.toString("utf8").split("\n").filter(Boolean).sort());
    }
  }
  return content;
}

/** Every row of `table` as `row_to_json` writes it, sorted: run `query` on the database to compare. */
export const tableRowsQuery = (table: string) => `select row_to_json(t)::text as line from "${table.replace(/"/g, '""')}" t`;
export const sortedLines = (rows: { line: string }[]) => rows.map((row) => row.line).sort();
