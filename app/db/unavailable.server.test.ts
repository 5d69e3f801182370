import net from "node:net";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPostgresCluster, type PostgresCluster } from "../../tests/support/throwaway-postgres";
import { getDb, openDatabase, useDatabase, withTransaction } from "./client.server";
import { databaseUnavailableReason, isDatabaseUnavailable } from "./unavailable.server";

// The errors are the real ones: node-postgres and drizzle against a real PostgreSQL 15 cluster
// (tests/support/throwaway-postgres.ts), a port nobody listens on, and fetch() to that port.

let cluster: PostgresCluster;

beforeAll(async () => {
  cluster = await startPostgresCluster();
}, 60_000);

afterAll(async () => {
  await cluster?.stop();
});

/** What `work` rejected with (it must reject). */
async function rejection(work: () => Promise<unknown>): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error("it did not fail");
}

async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function withPool<T>(options: pg.PoolConfig, work: (pool: pg.Pool) => Promise<T>): Promise<T> {
  const pool = new pg.Pool({ connectionString: cluster.adminUrl, ...options });
  pool.on("error", () => {});
  try {
    return await work(pool);
  } finally {
    await pool.end().catch(() => {});
  }
}

describe("isDatabaseUnavailable", { timeout: 30_000 }, () => {
  it("is true for a refused connection, raw from the pool and wrapped by drizzle", async () => {
    const url = `postgres://postgres@127.0.0.1:${await closedPort()}/postgres`;
    const pool = new pg.Pool({ connectionString: url, connectionTimeoutMillis: 2_000 });
    try {
      const raw = await rejection(() => pool.query("select 1"));
      expect((raw as { code?: string }).code).toBe("ECONNREFUSED");
      expect(isDatabaseUnavailable(raw)).toBe(true);
      const wrapped = await rejection(() => drizzle(pool).execute(sql`select 1`));
      expect(wrapped).not.toBe(raw);
      expect(isDatabaseUnavailable(wrapped)).toBe(true);
      // What the log says: the cause, never the query (its values may be personal data).
      expect(String((wrapped as Error).message)).toContain("select 1");
      expect(databaseUnavailableReason(wrapped)).toBe("ECONNREFUSED");
    } finally {
      await pool.end();
    }
  });

  it("is true for a session the server ends (57P01, as pg_ctl stop -m fast does)", async () => {
    await withPool({ max: 2 }, async (pool) => {
      const victim = await pool.connect();
      victim.on("error", () => {}); // a checked-out client reports its lost connection as an event too
      try {
        const { rows } = await victim.query<{ pid: number }>("select pg_backend_pid() as pid");
        const sleeping = rejection(() => victim.query("select pg_sleep(20)"));
        await new Promise((resolve) => setTimeout(resolve, 200));
        await pool.query("select pg_terminate_backend($1)", [rows[0]!.pid]);
        const error = await sleeping;
        expect(databaseUnavailableReason(error)).toBe("57P01");
        // The cut client is no longer usable: what the next query on it says counts too.
        expect(isDatabaseUnavailable(await rejection(() => victim.query("select 1")))).toBe(true);
      } finally {
        victim.release(true);
      }
    });
  });

  it("is true when no pooled connection is free within the pool's wait", async () => {
    await withPool({ max: 1, connectionTimeoutMillis: 300 }, async (pool) => {
      const holder = await pool.connect();
      try {
        const started = performance.now();
        const error = await rejection(() => drizzle(pool).execute(sql`select 1`));
        expect(performance.now() - started).toBeLessThan(2_000);
        expect(isDatabaseUnavailable(error)).toBe(true);
      } finally {
        holder.release();
      }
    });
  });

  it("is true for a transaction whose session the server ends between two queries, and the process goes on", async () => {
    const database = await openDatabase({ databaseUrl: cluster.adminUrl });
    useDatabase(database);
    try {
      const error = await rejection(() =>
        withTransaction(async () => {
          const { rows } = (await getDb().execute(sql`select pg_backend_pid() as pid`)) as unknown as { rows: { pid: number }[] };
          await withPool({ max: 1 }, (pool) => pool.query("select pg_terminate_backend($1)", [rows[0]!.pid]));
          // Idle inside the transaction while the connection is cut: the client reports it as an
          // 'error' event, which must not be an uncaught exception (Vitest fails the run on one).
          await new Promise((resolve) => setTimeout(resolve, 300));
          await getDb().execute(sql`select 1`);
        }),
      );
      expect(isDatabaseUnavailable(error)).toBe(true);
      // The pool dropped the dead client: the next query gets a fresh connection.
      expect(((await getDb().execute(sql`select 1 as one`)) as unknown as { rows: unknown[] }).rows).toEqual([{ one: 1 }]);
    } finally {
      useDatabase(undefined);
      await database.close();
    }
  });

  it("is false for errors of the query itself, of the data, and of another server", async () => {
    await withPool({ max: 1 }, async (pool) => {
      const db = drizzle(pool);
      expect(isDatabaseUnavailable(await rejection(() => db.execute(sql`selec 1`)))).toBe(false);
      expect(isDatabaseUnavailable(await rejection(() => db.execute(sql`select 1 / 0`)))).toBe(false);
      await db.execute(sql`create temporary table once (id int primary key)`);
      await db.execute(sql`insert into once values (1)`);
      expect(isDatabaseUnavailable(await rejection(() => db.execute(sql`insert into once values (1)`)))).toBe(false);
    });
    // fetch() to a closed port: a refused connection, but not the database's.
    const refusedFetch = await rejection(async () => fetch(`http://127.0.0.1:${await closedPort()}/`));
    expect(isDatabaseUnavailable(refusedFetch)).toBe(false);
    expect(isDatabaseUnavailable(new Error("boom"))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});
