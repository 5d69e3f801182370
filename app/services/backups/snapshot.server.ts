import { sql, type SQL } from "drizzle-orm";
import type { Db, DbTransaction } from "~/db/client.server";

// The database side of a backup (docs/decisions/0055): which tables are the application's, how a
// table's rows are written out (one JSON object per line, PostgreSQL's own `row_to_json`, so every
// type keeps its exact text form) and the state that is not in any table (migrations, sequences).
// The same queries run on PGlite and on PostgreSQL.

/** The tables of the PostgreSQL file store: a backup carries their files as files, not as rows. */
export const FILE_STORE_TABLES = ["stored_files", "file_chunks"] as const;

export interface MigrationState {
  hash: string;
  createdAt: number;
}

export interface SequenceState {
  name: string;
  /** null while the sequence has never been used. */
  lastValue: string | null;
}

export interface TableInfo {
  name: string;
  /** Columns a row is written with (generated columns are left out: PostgreSQL computes them). */
  columns: string[];
  hasIdentity: boolean;
  /** Tables whose rows this table's foreign keys point at (itself excluded). */
  references: string[];
  selfReference: boolean;
}

type Executor = Db | DbTransaction;

export async function rowsOf<T>(db: Executor, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

export const quoteIdentifier = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** The application's tables (schema public), file store tables included, by name. */
export async function listTables(db: Executor): Promise<TableInfo[]> {
  const tables = await rowsOf<{ name: string }>(
    db,
    sql`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind in ('r', 'p') order by c.relname`,
  );
  const columns = await rowsOf<{ table: string; column: string; identity: string; generated: string }>(
    db,
    sql`select c.relname as "table", a.attname as "column", a.attidentity::text as identity, a.attgenerated::text as generated
        from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p') and a.attnum > 0 and not a.attisdropped
        order by c.relname, a.attnum`,
  );
  const keys = await rowsOf<{ table: string; target: string }>(
    db,
    sql`select c.relname as "table", t.relname as target
        from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_class t on t.oid = k.confrelid join pg_namespace n on n.oid = c.relnamespace
        where k.contype = 'f' and n.nspname = 'public'`,
  );
  return tables.map(({ name }) => {
    const own = columns.filter((column) => column.table === name);
    const targets = keys.filter((key) => key.table === name).map((key) => key.target);
    return {
      name,
      columns: own.filter((column) => !column.generated).map((column) => column.column),
      hasIdentity: own.some((column) => Boolean(column.identity)),
      references: [...new Set(targets.filter((target) => target !== name))],
      selfReference: targets.includes(name),
    };
  });
}

/** Tables ordered so that every table comes after the tables its foreign keys point at. */
export function inLoadOrder(tables: readonly TableInfo[]): TableInfo[] {
  const byName = new Map(tables.map((table) => [table.name, table]));
  const ordered: TableInfo[] = [];
  const state = new Map<string, "visiting" | "done">();
  const visit = (table: TableInfo) => {
    const seen = state.get(table.name);
    if (seen === "done") return;
    if (seen === "visiting") throw new Error(`Las llaves foráneas de ${table.name} forman un ciclo`);
    state.set(table.name, "visiting");
    for (const target of table.references) {
      const referenced = byName.get(target);
      if (referenced) visit(referenced);
    }
    state.set(table.name, "done");
    ordered.push(table);
  };
  for (const table of tables) visit(table);
  return ordered;
}

/** The migrations applied, in order (drizzle's journal in the database). */
export async function migrationState(db: Executor): Promise<MigrationState[]> {
  const rows = await rowsOf<{ hash: string; created_at: string | number }>(db, sql`select hash, created_at from drizzle.__drizzle_migrations order by id`);
  return rows.map((row) => ({ hash: row.hash, createdAt: Number(row.created_at) }));
}

export async function sequenceState(db: Executor): Promise<SequenceState[]> {
  const rows = await rowsOf<{ name: string; last_value: string | null }>(
    db,
    sql`select sequencename as name, last_value::text as last_value from pg_sequences where schemaname = 'public' order by sequencename`,
  );
  return rows.map((row) => ({ name: row.name, lastValue: row.last_value }));
}

const PAGE_ROWS = 500;

/** A table's rows as JSON lines, a page at a time in physical order (stable inside one snapshot). */
export async function* tableLines(tx: Executor, table: string): AsyncGenerator<string> {
  let after = "(0,0)";
  for (;;) {
    const rows = await rowsOf<{ at: string; line: string }>(
      tx,
      sql`select t.ctid::text as at, row_to_json(t)::text as line from ${sql.raw(quoteIdentifier(table))} t where t.ctid > ${after}::tid order by t.ctid limit ${PAGE_ROWS}`,
    );
    for (const row of rows) yield row.line;
    if (rows.length < PAGE_ROWS) return;
    after = rows.at(-1)!.at;
  }
}

/** The PostgreSQL file store's files as the snapshot sees them: keys first, then each file's chunks. */
export async function snapshotStoredFileKeys(tx: Executor): Promise<string[]> {
  const rows = await rowsOf<{ path: string }>(tx, sql`select path from stored_files order by path`);
  return rows.map((row) => row.path);
}

export async function* snapshotStoredFile(tx: Executor, key: string): AsyncGenerator<Uint8Array> {
  const [file] = await rowsOf<{ chunks: number }>(tx, sql`select chunks from stored_files where path = ${key}`);
  for (let n = 0; n < (file?.chunks ?? 0); n += 1) {
    const [chunk] = await rowsOf<{ data: Uint8Array | string }>(tx, sql`select data from file_chunks where path = ${key} and n = ${n}`);
    if (!chunk) throw new Error(`stored file ${key} lost chunk ${n}`);
    yield typeof chunk.data === "string" ? Buffer.from(chunk.data.replace(/^\\x/, ""), "hex") : chunk.data;
  }
}
