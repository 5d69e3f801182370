import { sql } from "drizzle-orm";
import { SharedRuns } from "~/lib/shared-runs";
import { getDatabase, getDb, inTransactionScope, type Database, type DbTransaction } from "./client.server";

// Group commit on PGlite (docs/decisions/0082). PGlite runs PostgreSQL inside this process: a
// commit's WAL fsync (0044) blocks the event loop, and twenty quote requests arriving together paid
// twenty of them, one after the other, each before its own answer. Here a transaction commits
// without waiting for the disk, and its caller then waits for one WAL flush that every commit made
// before it started shares: the caller still answers only once its rows are on disk, and a burst of
// commits costs a few fsyncs instead of one each. On a PostgreSQL server nothing changes: its own
// commits already share their flushes (commit_delay, the WAL writer), off this process's thread.
// `writeWithoutFlush` is the half shared with writes that need no flush at all (rate-limit counts).

/** The flush: a WAL record written and flushed at once, which syncs every record before it. */
const FLUSH_WAL = sql`select pg_logical_emit_message(false, 'forja-group-commit', '', true)`;

/** One database's commits made without waiting for the disk, and the flushes that cover them. */
class WalFlushes {
  /** Commits made without waiting for the disk so far. */
  private committed = 0;
  /** Of those, how many the last finished flush covers (every one made before it started). */
  private covered = 0;
  private readonly runs: SharedRuns;

  constructor(database: Database) {
    this.runs = new SharedRuns(async () => {
      const upTo = this.committed;
      await database.db.execute(FLUSH_WAL);
      this.covered = Math.max(this.covered, upTo);
    });
  }

  noteCommit(): void {
    this.committed += 1;
  }

  /** Resolves once every commit noted so far is on disk: at once when the last flush covered them. */
  flushed(): Promise<void> {
    return this.covered >= this.committed ? Promise.resolve() : this.runs.run();
  }
}

const flushes = new WeakMap<Database, WalFlushes>();

function walFlushes(database: Database): WalFlushes {
  let found = flushes.get(database);
  if (!found) {
    found = new WalFlushes(database);
    flushes.set(database, found);
  }
  return found;
}

/**
 * Runs `work` on PGlite in a transaction that commits without waiting for the disk: for writes that
 * a crash may take back because they only count (rate limits, 0075), or whose caller waits for a
 * flush before it answers (transactionOnDisk). On a PostgreSQL server, or inside a
 * `withTransaction` scope, `work` runs as it is, on the database or the scope's transaction.
 */
export function writeWithoutFlush<T>(work: (db: DbTransaction) => Promise<T>): Promise<T> {
  const database = getDatabase();
  if (inTransactionScope() || database.kind !== "pglite") return work(getDb() as unknown as DbTransaction);
  return unflushedTransaction(database, work);
}

/** `work` in a PGlite transaction whose commit does not wait for the disk. */
function unflushedTransaction<T>(database: Database, work: (tx: DbTransaction) => Promise<T>): Promise<T> {
  return database.db.transaction(async (tx) => {
    await tx.execute(sql`set local synchronous_commit = off`);
    return work(tx);
  });
}

/**
 * Runs `work` in a transaction and resolves once its commit is on disk, as any transaction does;
 * on PGlite, the commits of requests ending close together share their WAL flushes. Inside a
 * `withTransaction` scope it is that scope's savepoint, and the scope's own commit is what counts.
 */
export async function transactionOnDisk<T>(work: (tx: DbTransaction) => Promise<T>): Promise<T> {
  const database = getDatabase();
  if (inTransactionScope() || database.kind !== "pglite") return getDb().transaction(work);
  const value = await unflushedTransaction(database, work);
  const flushes = walFlushes(database);
  flushes.noteCommit();
  await flushes.flushed();
  return value;
}

/**
 * Resolves once every commit made so far is on disk. For an answer that reports rows another
 * request committed (the same form sent twice): that request may still be waiting for its flush.
 */
export function commitsOnDisk(): Promise<void> {
  const database = getDatabase();
  return database.kind === "pglite" ? walFlushes(database).flushed() : Promise.resolve();
}

