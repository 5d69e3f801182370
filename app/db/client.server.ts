import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { durableStartParams, makePgliteDurable } from "./pglite-durability.server";
import { pgliteDriverClient } from "./pglite-driver-client.server";
import { sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { logger } from "~/lib/logger.server";
import * as schema from "./schema";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type DbTransaction = Parameters<Parameters<Db["transaction"]>[0]>[0];

export interface Database {
  kind: "pglite" | "postgres";
  db: Db;
  /** A real round trip; rejects when the database does not answer. */
  ping(): Promise<void>;
  migrate(): Promise<void>;
  /**
   * Delivers NOTIFY payloads of `channel` (after the sending transaction commits). `onState` says
   * whether notifications can currently arrive: false while a PostgreSQL listening connection is
   * lost, true again once it is back (anything sent in between was missed). Resolves once
   * listening; the returned function stops it.
   */
  listen(channel: string, handlers: ListenHandlers, health?: ListenHealth): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export interface ListenHandlers {
  onNotify: (payload: string) => void;
  onState?: (listening: boolean) => void;
}

export interface DatabaseOptions {
  /** postgres:// URL; when absent PGlite is used. */
  databaseUrl?: string;
  /** PGlite data directory; absent means in memory (tests). */
  dataDir?: string;
  /** In memory only: start from this PGlite data-directory archive (`dumpDataDir`) instead of an empty cluster. */
  loadDataDir?: Blob;
}

const migrationsFolder = path.resolve(process.env.MIGRATIONS_DIR ?? "drizzle");

/** How long a query waits for a PostgreSQL connection (connecting, or for a free one of the pool). */
const POOL_CONNECT_TIMEOUT_MS = 3_000;

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    // The wait for a connection, new or pooled, is bounded: while the server is away or saturated a
    // request fails within seconds and is answered 503 (docs/decisions/0052), never left hanging.
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10, connectionTimeoutMillis: POOL_CONNECT_TIMEOUT_MS });
    // An idle client losing its server must not crash the process; the next query reports it.
    pool.on("error", () => {});
    // Nor one checked out (a transaction between two queries, when the server ends its session):
    // the pool listens only to idle clients. Its queries fail instead, and the pool drops it on release.
    pool.on("connect", (client) => client.on("error", () => {}));
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    return {
      kind: "postgres",
      db,
      ping: async () => void (await pool.query("select 1")),
      migrate: () => migratePg(drizzlePg(pool), { migrationsFolder }),
      listen: (channel, handlers, health) => listenPostgres(options.databaseUrl!, pool, channel, handlers, health),
      close: () => pool.end(),
    };
  }
  const releaseLock = options.dataDir ? lockDataDir(options.dataDir) : () => {};
  let client: PGlite;
  try {
    if (options.dataDir) fs.mkdirSync(options.dataDir, { recursive: true });
    if (options.dataDir) {
      client = await PGlite.create(options.dataDir, { startParams: durableStartParams() });
      await makePgliteDurable(client).catch(async (error: unknown) => {
        await client.close();
        throw error;
      });
    } else {
      client = await PGlite.create(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {});
    }
  } catch (error) {
    releaseLock();
    throw error;
  }
  const db = drizzlePglite(pgliteDriverClient(client), { schema }) as unknown as Db;
  return {
    kind: "pglite",
    db,
    ping: async () => {
      if (client.closed) throw new Error("PGlite is closed");
      await db.execute(sql`select 1`);
    },
    migrate: () => migratePglite(drizzlePglite(client), { migrationsFolder }),
    // PGlite runs in this process: its notifications arrive as the committing query returns.
    listen: async (channel, { onNotify, onState }) => {
      const stop = await client.listen(channel, onNotify);
      onState?.(true);
      return async () => {
        if (!client.closed) await stop();
      };
    },
    close: async () => {
      if (!client.closed) await client.close();
      releaseLock();
    },
  };
}

const RECONNECT_MS = [250, 1_000, 5_000];

/**
 * How often, and how patiently, a PostgreSQL listener proves it still hears: a connection cut
 * without a clean close (failover, a NAT or balancer dropping an idle connection, a pooler in
 * transaction mode) raises no error, so the listener sends itself a notification through the pool.
 */
export interface ListenHealth {
  heartbeatMs: number;
  timeoutMs: number;
  /** Sends the heartbeat; the default goes through the pool like any other writer's NOTIFY. */
  send?: (channel: string, payload: string) => Promise<unknown>;
}

const HEARTBEAT_PREFIX = "latido:";
const DEFAULT_HEALTH: ListenHealth = { heartbeatMs: 30_000, timeoutMs: 5_000 };

/** LISTEN on its own connection (a pooled one may be handed to a query); reconnects when lost. */
async function listenPostgres(
  databaseUrl: string,
  pool: pg.Pool,
  channel: string,
  { onNotify, onState }: ListenHandlers,
  health: ListenHealth = DEFAULT_HEALTH,
): Promise<() => Promise<void>> {
  let stopped = false;
  let client: pg.Client | undefined;
  let connecting: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let attempt = 0;
  let awaited: { payload: string; timer: NodeJS.Timeout } | undefined;
  const send = health.send ?? ((name: string, payload: string) => pool.query("select pg_notify($1, $2)", [name, payload]));

  async function connect(): Promise<void> {
    const next = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5_000, query_timeout: 10_000, keepAlive: true });
    connecting = next;
    next.on("notification", (message) => {
      if (message.channel !== channel) return;
      const payload = message.payload ?? "";
      if (!payload.startsWith(HEARTBEAT_PREFIX)) return onNotify(payload);
      // Ours arrived: the connection hears. Other processes' heartbeats are nothing to us.
      if (awaited?.payload === payload) {
        clearTimeout(awaited.timer);
        awaited = undefined;
      }
    });
    next.on("error", () => lost(next));
    next.on("end", () => lost(next));
    try {
      await next.connect();
      await next.query(`LISTEN "${channel.replace(/"/g, '""')}"`);
    } catch (error) {
      await next.end().catch(() => {});
      throw error;
    } finally {
      if (connecting === next) connecting = undefined;
    }
    if (stopped) return void (await next.end().catch(() => {}));
    client = next;
    attempt = 0;
    onState?.(true);
  }

  function lost(which: pg.Client): void {
    if (stopped || client !== which) return;
    client = undefined;
    if (awaited) clearTimeout(awaited.timer);
    awaited = undefined;
    onState?.(false);
    which.end().catch(() => {});
    scheduleReconnect();
  }

  function scheduleReconnect(): void {
    if (stopped) return;
    const delay = RECONNECT_MS[Math.min(attempt, RECONNECT_MS.length - 1)]!;
    attempt += 1;
    retry = setTimeout(() => {
      connect().catch(() => scheduleReconnect());
    }, delay);
    retry.unref();
  }

  function heartbeat(): void {
    const listening = client;
    if (stopped || !listening || awaited) return;
    const payload = `${HEARTBEAT_PREFIX}${randomUUID()}`;
    const timer = setTimeout(() => {
      awaited = undefined;
      lost(listening);
    }, health.timeoutMs);
    awaited = { payload, timer };
    timer.unref();
    // A failed send (the database is down) shows as the missing heartbeat.
    send(channel, payload).catch(() => {});
  }

  await connect();
  const beat = setInterval(heartbeat, health.heartbeatMs);
  beat.unref();
  return async () => {
    stopped = true;
    clearInterval(beat);
    clearTimeout(retry);
    if (awaited) clearTimeout(awaited.timer);
    const current = [client, connecting];
    client = undefined;
    await Promise.all(current.map((open) => open?.end().catch(() => {})));
  };
}

export class DatabaseInUseError extends Error {}

/**
 * PGlite is one process's database: a second process opening the same directory would damage it.
 * A lock file beside the directory names the owner; a lock left by a dead process is taken over.
 */
const heldLocks = ((globalThis as typeof globalThis & { __forjaHeldLocks?: Set<string> }).__forjaHeldLocks ??= new Set<string>());

function lockDataDir(dataDir: string): () => void {
  const lockFile = path.resolve(`${dataDir.replace(/[\\/]+$/, "")}.lock`);
  if (heldLocks.has(lockFile)) throw new DatabaseInUseError(`La base de datos en ${dataDir} ya está abierta en este proceso.`);
  fs.mkdirSync(path.dirname(lockFile), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      fs.writeFileSync(lockFile, String(process.pid), { flag: "wx" });
      heldLocks.add(lockFile);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        heldLocks.delete(lockFile);
        // Remove the file only while it is still ours.
        if (readOwner(lockFile) === process.pid) fs.rmSync(lockFile, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const owner = readOwner(lockFile);
      // Our own PID here is a leftover of an earlier life of this PID (e.g. a restarted container).
      if (owner && owner !== process.pid && isAlive(owner)) {
        throw new DatabaseInUseError(
          `La base de datos en ${dataDir} está en uso por el proceso ${owner} (probablemente el servidor de Forja). ` +
            "Deténgalo y vuelva a intentarlo, o use DATABASE_URL con un servidor PostgreSQL.",
        );
      }
      fs.rmSync(lockFile, { force: true });
    }
  }
  throw new DatabaseInUseError(`No se pudo tomar el candado ${lockFile}`);
}

function readOwner(lockFile: string): number | null {
  try {
    const owner = Number(fs.readFileSync(lockFile, "utf8").trim());
    return Number.isInteger(owner) && owner > 0 ? owner : null;
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

// One database per process. Kept on globalThis so the dev server's module reloads reuse it.
const holder = globalThis as typeof globalThis & { __forjaDatabase?: Database };

export function useDatabase(database: Database | undefined): void {
  holder.__forjaDatabase = database;
}

export function getDatabase(): Database {
  const database = holder.__forjaDatabase;
  if (!database) throw new Error("Database not initialised: call initDatabase() at start-up");
  return database;
}

/**
 * The database to query: inside `withTransaction` the scope's transaction, otherwise the process's
 * database. A domain command's own `getDb().transaction()` then nests as a savepoint of the scope.
 */
export function getDb(): Db {
  const scope = transactionScope.getStore();
  return scope?.open ? (scope.tx as unknown as Db) : getDatabase().db;
}

// ——— One transaction across several domain commands (docs/decisions/0015) ———

interface TransactionScope {
  tx: DbTransaction;
  /** False once the transaction has committed or rolled back: later timers fall back to the database. */
  open: boolean;
  afterCommit: (() => unknown)[];
  afterRollback: (() => unknown)[];
}

// On globalThis, like the database, so the dev server's module reloads share one store.
const scopeHolder = globalThis as typeof globalThis & { __forjaTransactionScope?: AsyncLocalStorage<TransactionScope> };
const transactionScope = (scopeHolder.__forjaTransactionScope ??= new AsyncLocalStorage<TransactionScope>());

/** Whether this code runs inside an open `withTransaction` scope. */
export function inTransactionScope(): boolean {
  return transactionScope.getStore()?.open === true;
}

/** How an outermost transaction runs (e.g. one snapshot for several reads: repeatable read, read only). Ignored inside a scope. */
export interface TransactionConfig {
  isolationLevel?: "read committed" | "repeatable read" | "serializable";
  accessMode?: "read only" | "read write";
}

/**
 * Runs `fn` in one database transaction that every `getDb()` call inside it (also in the domain
 * commands it calls) joins: all of it commits, or none does. The transaction rolls back when `fn`
 * throws or when its answer is a failed Result (`{ ok: false }`); either way the answer is returned
 * or the error rethrown. Inside an open scope it runs as a savepoint of that scope. Work registered
 * with `afterCommit` runs once the outermost transaction commits (and is dropped on a rollback);
 * `afterRollback` work runs when it rolls back (removing files written for it, say).
 */
export async function withTransaction<T>(fn: () => Promise<T>, config?: TransactionConfig): Promise<T> {
  const outer = transactionScope.getStore();
  if (outer?.open) {
    // A savepoint keeps its own lists: what it registered joins the outer transaction's if it is
    // released; if it rolls back (while the outer one may still commit), its after-rollback work
    // runs now and its after-commit work is dropped.
    const savepoint: TransactionScope = { tx: outer.tx, open: true, afterCommit: [], afterRollback: [] };
    try {
      const answer = await outer.tx.transaction(async (tx) => {
        savepoint.tx = tx;
        const value = await transactionScope.run(savepoint, fn);
        if (isFailedResult(value)) throw new RolledBack(value);
        return value;
      });
      outer.afterCommit.push(...savepoint.afterCommit);
      outer.afterRollback.push(...savepoint.afterRollback);
      return answer;
    } catch (error) {
      await runOutside(savepoint.afterRollback);
      return unwrapRolledBack<T>(error);
    } finally {
      savepoint.open = false;
    }
  }
  const scope: TransactionScope = { tx: undefined as unknown as DbTransaction, open: false, afterCommit: [], afterRollback: [] };
  let answer: T;
  try {
    answer = await getDatabase().db.transaction(async (tx) => {
      scope.tx = tx;
      scope.open = true;
      try {
        const value = await transactionScope.run(scope, fn);
        if (isFailedResult(value)) throw new RolledBack(value);
        return value;
      } finally {
        scope.open = false;
      }
    }, config);
  } catch (error) {
    await runOutside(scope.afterRollback);
    return unwrapRolledBack<T>(error);
  }
  await runOutside(scope.afterCommit);
  return answer;
}

/**
 * Runs `work` after the scope's transaction commits (dropped on a rollback); at once when no scope
 * is open. Resolves when the work is done, or at once when it waits for a commit.
 */
export function afterCommit(work: () => unknown): Promise<void> {
  const scope = transactionScope.getStore();
  if (!scope?.open) return runOutside([work]);
  scope.afterCommit.push(work);
  return Promise.resolve();
}

/** Runs `work` if the open scope's transaction rolls back; nothing when no scope is open. */
export function afterRollback(work: () => unknown): void {
  const scope = transactionScope.getStore();
  if (scope?.open) scope.afterRollback.push(work);
}

/** Runs work outside any scope (its timers and queries must not join a finished transaction), one by one; a failure is logged, never thrown. */
async function runOutside(work: (() => unknown)[]): Promise<void> {
  for (const item of work) {
    try {
      await transactionScope.exit(item);
    } catch (error) {
      logger.error({ err: error }, "work after a transaction failed");
    }
  }
}

class RolledBack {
  constructor(readonly answer: unknown) {}
}

function unwrapRolledBack<T>(error: unknown): T {
  if (error instanceof RolledBack) return error.answer as T;
  throw error;
}

function isFailedResult(value: unknown): boolean {
  return typeof value === "object" && value !== null && (value as { ok?: unknown }).ok === false && "kind" in value;
}
