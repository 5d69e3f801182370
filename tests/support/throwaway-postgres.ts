import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

// A PostgreSQL server for a test that needs one even when TEST_DATABASE_URL is not set (several
// processes on one database): a throwaway PostgreSQL 15 cluster, as .ci/run makes, on a free
// loopback port, removed again by stop(). initdb and pg_ctl refuse to run as root, so as root they
// run as the `postgres` user (runuser), as in CI.

const PG_BIN = process.env.PG_BIN ?? "/usr/lib/postgresql/15/bin";

export interface PostgresServer {
  /** postgres://… of the server's `postgres` database: for CREATE DATABASE (test-server.ts adminUrl). */
  adminUrl: string;
  stop(): Promise<void>;
}

/** A cluster this test owns: it can also take the server away and bring it back, its data kept. */
export interface PostgresCluster extends PostgresServer {
  /** `pg_ctl stop -m fast`: sessions are ended (57P01) and the port refuses connections; the data stays. */
  halt(): void;
  /** Starts the halted cluster again on the same port. */
  resume(): void;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** TEST_DATABASE_URL's server when set; otherwise a new cluster (fails with a clear message if PostgreSQL 15 is missing). */
export async function usePostgresServer(): Promise<PostgresServer> {
  if (process.env.TEST_DATABASE_URL) return { adminUrl: process.env.TEST_DATABASE_URL, stop: async () => {} };
  return startPostgresCluster();
}

/** A new cluster whatever TEST_DATABASE_URL says: for a test that stops and starts the server itself. */
export async function startPostgresCluster(): Promise<PostgresCluster> {
  if (!fs.existsSync(path.join(PG_BIN, "initdb"))) {
    throw new Error(`PostgreSQL 15 is needed for this test: set TEST_DATABASE_URL, or install it (apt-get install postgresql-15) so ${PG_BIN}/initdb exists`);
  }
  const asRoot = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "forja-pg-"));
  if (asRoot) execFileSync("chown", ["postgres", dir]);
  const run = (bin: string, args: string[]) => {
    const command = asRoot ? "runuser" : path.join(PG_BIN, bin);
    const full = asRoot ? ["-u", "postgres", "--", path.join(PG_BIN, bin), ...args] : args;
    const result = spawnSync(command, full, { encoding: "utf8", timeout: 60_000 });
    if (result.status !== 0) throw new Error(`${bin} failed: ${result.stderr || result.stdout || result.error}`);
  };
  const port = await freePort();
  const data = path.join(dir, "data");
  const start = () => run("pg_ctl", ["-D", data, "-l", path.join(dir, "log"), "-w", "-o", `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c fsync=off`, "start"]);
  const halt = () => run("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]);
  let running = false;
  try {
    run("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8"]);
    start();
    running = true;
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: async () => {
      try {
        if (running) halt();
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
    halt: () => {
      halt();
      running = false;
    },
    resume: () => {
      start();
      running = true;
    },
  };
}
