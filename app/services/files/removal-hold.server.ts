import { sql } from "drizzle-orm";
import { getDatabase } from "~/db/client.server";
import { logger } from "~/lib/logger.server";

// While a backup copies the stored files (docs/decisions/0055), a file that the database snapshot
// still names must not disappear from DATA_DIR/uploads: the orphan sweep, a replaced product photo
// or a failed upload's clean-up would otherwise remove it between the snapshot and the copy. So the
// disk store's removals wait here until the backup ends; keys are never reused, so removing them
// late changes nothing else. The disk store needs it (it belongs to one process: the PGlite data
// directory is locked to it) and so does the S3 store (0059: the backup copies from the bucket); on
// PostgreSQL the files are rows of the same snapshot.

interface HoldState {
  holders: number;
  pending: Set<string>;
}

const holder = globalThis as typeof globalThis & { __forjaRemovalHold?: HoldState };
const state = (holder.__forjaRemovalHold ??= { holders: 0, pending: new Set() });

/** Whether removals are held now; when they are, `keys` are kept to be removed when the hold ends. */
export function deferRemovalsWhileHeld(keys: readonly string[]): boolean {
  if (state.holders === 0) return false;
  for (const key of keys) state.pending.add(key);
  return true;
}

/**
 * Holds the disk store's removals until the returned release runs. `release(remove)` removes what
 * was held back with `remove` once the last holder lets go; `release(null)` forgets it (a restore
 * replaced the whole store: the held keys belong to the state that is gone).
 */
export function holdRemovals(): (remove: ((keys: string[]) => Promise<void>) | null) => Promise<void> {
  state.holders += 1;
  let released = false;
  return async (remove) => {
    if (released) return;
    released = true;
    state.holders -= 1;
    if (remove === null) {
      state.pending.clear();
      return;
    }
    if (state.holders > 0 || state.pending.size === 0) return;
    const keys = [...state.pending];
    state.pending.clear();
    await remove(keys).catch((error: unknown) => logger.warn({ err: error, files: keys.length }, "could not remove stored files held during a backup"));
  };
}

// The hold above lives in one process. With the files in S3 and several processes on one PostgreSQL,
// another process could remove a file a backup is still copying; so a backup of S3 files on
// PostgreSQL also holds a shared advisory lock, taken before its snapshot and kept until its copy
// ends, and the S3 store skips removals while any backend holds it. What it skips, no row names any
// more: the orphan sweep removes it later. A crashed backup's lock goes with its connection.
// With PGlite there is one process, and the hold above is the whole story.

/** The two-key advisory lock of backups copying stored files (distinct from the crons' namespace, 510051). */
const BACKUP_COPY_LOCK = [510_055, 1] as const;

/** Runs `work` (a backup's snapshot and copy) with S3 removals held in every process on PostgreSQL. */
export async function withRemovalsHeldEverywhere<T>(work: () => Promise<T>): Promise<T> {
  const database = getDatabase();
  if (database.kind !== "postgres") return work();
  return database.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock_shared(${BACKUP_COPY_LOCK[0]}, ${BACKUP_COPY_LOCK[1]})`);
    return work();
  });
}

/** Whether a backup in any process copies stored files now (always false with PGlite: see above). */
export async function removalsHeldEverywhere(): Promise<boolean> {
  const database = getDatabase();
  if (database.kind !== "postgres") return false;
  const result = await database.db.execute(
    sql`select exists (select 1 from pg_locks where locktype = 'advisory' and classid = ${BACKUP_COPY_LOCK[0]} and objid = ${BACKUP_COPY_LOCK[1]} and objsubid = 2 and granted) as held`,
  );
  const [row] = (result as unknown as { rows: { held: boolean }[] }).rows;
  return row?.held === true;
}
