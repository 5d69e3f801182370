import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
// @ts-expect-error -- a plain .mjs script without type declarations
import { startServer } from "../../scripts/start-server.mjs";
import { openDatabase, useDatabase } from "~/db/client.server";
import { createDatabaseFromTemplate, databaseTemplate, databaseUrlFor, withAdminClient } from "./database-template";

// The real production server over real HTTP, for contract tests: built when the sources are newer
// than build/ (scripts/ensure-build.mjs), run by scripts/start-server.mjs from a private copy of
// the build on an ephemeral loopback port, with its own database — PGlite in a temporary DATA_DIR,
// or a fresh database on the server named by TEST_DATABASE_URL — which `prepare` may fill first
// (migrated, and installed as this process's database while it runs). stop() ends that process
// and removes everything it made.

const ROOT = path.resolve(import.meta.dirname, "../..");
const BIN = path.join(ROOT, "node_modules/.bin");
const STOP_TIMEOUT_MS = 20_000;

export interface TestServer {
  url: string;
  /** The PostgreSQL database it runs on (absent on PGlite): give it to another test server to share it. */
  databaseUrl?: string;
  stop(): Promise<void>;
  /** Stops the server process and starts it again on the same port and data (a deploy or a crash-restart). */
  restart(): Promise<void>;
  /** Kills the server process with SIGKILL (no shutdown at all, as in a crash), then starts it again on the same port and data. */
  crash(): Promise<void>;
}

/** The environment of a child process without what Vitest adds (VITEST drops the React Router plugin from the build). */
export function childEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || key.startsWith("VITEST") || ["NODE_ENV", "MODE", "DEV", "PROD", "SSR", "BASE_URL", "TEST"].includes(key)) continue;
    env[key] = value;
  }
  env.PATH = `${BIN}${path.delimiter}${process.env.PATH ?? ""}`;
  return env;
}

/** Opens the server's future database here, migrates it, runs `prepare` on it and closes it again. */
async function prepareDatabase(options: { databaseUrl?: string; dataDir?: string }, prepare: () => Promise<void>): Promise<void> {
  const database = await openDatabase(options);
  try {
    await database.migrate();
    useDatabase(database);
    await prepare();
  } finally {
    useDatabase(undefined);
    await database.close();
  }
}

/** Builds the site when its sources are newer than the build (one build at a time, under a lock). */
export function ensureBuilt(): void {
  execFileSync(path.join(BIN, "node"), [path.join(ROOT, "scripts/ensure-build.mjs")], { cwd: ROOT, env: childEnv(), stdio: "inherit", timeout: 300_000 });
}

export async function startTestServer(
  options: {
    prepare?: () => Promise<void>;
    env?: Record<string, string>;
    /** Receives everything the server writes to stdout and stderr (its JSON log lines), e.g. to assert on errors. */
    onOutput?: (text: string) => void;
    /**
     * The server's DATA_DIR (default: a fresh one it removes). Give the test file's own (isolateTestEnv)
     * so the files `prepare` stores on disk and the auth secret are the server's too; it is left in place.
     */
    dataDir?: string;
    /** The PostgreSQL server to create the database on (default TEST_DATABASE_URL; none, or "": PGlite). */
    adminUrl?: string;
    /** An existing PostgreSQL database to run on as it is (another test server's): neither created nor dropped here. */
    databaseUrl?: string;
  } = {},
): Promise<TestServer> {
  ensureBuilt();

  // A private copy of the build, so a rebuild by someone else during the run cannot pull files away.
  const serverRoot = fs.mkdtempSync(path.join(os.tmpdir(), "forja-test-server-"));
  const dataDir = options.dataDir ?? path.join(serverRoot, "data");
  let postgres: { adminUrl: string; name: string } | undefined;
  const cleanUp = async () => {
    fs.rmSync(serverRoot, { recursive: true, force: true });
    if (postgres) {
      const { adminUrl, name } = postgres;
      await withAdminClient(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    }
  };

  try {
    fs.cpSync(path.join(ROOT, "build"), path.join(serverRoot, "build"), { recursive: true });
    for (const entry of ["node_modules", "server", "drizzle"]) fs.symlinkSync(path.join(ROOT, entry), path.join(serverRoot, entry), "dir");

    const env: Record<string, string> = { TRUST_PROXY: "loopback", DATABASE_URL: "", SMTP_URL: "", LOG_LEVEL: "error", ...options.env };
    const adminUrl = options.adminUrl ?? process.env.TEST_DATABASE_URL;
    if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl;
    else if (adminUrl) {
      const name = `forja_http_${process.pid}_${randomBytes(4).toString("hex")}`;
      await createDatabaseFromTemplate(adminUrl, name);
      postgres = { adminUrl, name };
      env.DATABASE_URL = databaseUrlFor(adminUrl, name);
    }
    // A PGlite server starting on an empty DATA_DIR would spend seconds on initdb and the migrations:
    // it starts from a copy of the run's migrated template instead (tests/support/database-template.ts).
    const pgliteTemplate = databaseTemplate().pgliteDir;
    if (!env.DATABASE_URL && pgliteTemplate && !fs.existsSync(path.join(dataDir, "db"))) {
      fs.cpSync(pgliteTemplate, path.join(dataDir, "db"), { recursive: true });
    }
    if (options.prepare) {
      await prepareDatabase(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : { dataDir: path.join(dataDir, "db") }, options.prepare);
    }

    // start-server.mjs runs server/index.ts from the working directory, which serves ./build.
    const launch = async (extraEnv: Record<string, string> = {}) => {
      const previous = process.cwd();
      process.chdir(serverRoot);
      try {
        return (await startServer({ env: { ...env, ...extraEnv }, dataDir, timeoutMs: 60_000, onOutput: options.onOutput })) as {
          url: string;
          stop(): Promise<void>;
          kill(signal: NodeJS.Signals): Promise<void>;
        };
      } finally {
        process.chdir(previous);
      }
    };
    // A server that already died never reports its exit again: do not wait forever for it.
    const end = (running: { stop(): Promise<void> }) => Promise.race([running.stop(), new Promise((resolve) => setTimeout(resolve, STOP_TIMEOUT_MS).unref())]);
    let server = await launch();
    const url = server.url;
    return {
      url,
      ...(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : {}),
      stop: async () => {
        await end(server);
        await cleanUp();
      },
      restart: async () => {
        await end(server);
        server = await launch({ PORT: new URL(url).port, PUBLIC_URL: url });
      },
      crash: async () => {
        await server.kill("SIGKILL");
        server = await launch({ PORT: new URL(url).port, PUBLIC_URL: url });
      },
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}
