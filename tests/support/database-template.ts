import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import type { TestProject } from "vitest/node";
import { inject } from "vitest";
import { openDatabase } from "~/db/client.server";
import pg from "pg";

// One migrated database made before the test files run, which every test file and test server
// copies instead of creating a cluster and applying every migration again (Vitest globalSetup).
// On PGlite, `initdb` alone costs seconds of WebAssembly per database; on PostgreSQL, CREATE
// DATABASE … TEMPLATE copies the migrated schema in one statement.

export interface DatabaseTemplate {
  /** PGlite: the migrated data directory (copied into a test server's DATA_DIR/db). */
  pgliteDir?: string;
  /** PGlite: the same directory as a `dumpDataDir` archive (loaded by in-memory test databases). */
  pgliteArchive?: string;
  /** PostgreSQL: the migrated database on TEST_DATABASE_URL's server to create test databases from. */
  postgresName?: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    forjaDatabaseTemplate: DatabaseTemplate;
  }
}

const ADMIN_TIMEOUT_MS = 10_000;

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Runs `run` on a short-lived connection to the PostgreSQL server (for CREATE/DROP DATABASE). */
export async function withAdminClient<T>(adminUrl: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: ADMIN_TIMEOUT_MS });
  // A dropped connection is reported by the query that uses it; it must not crash the worker.
  client.on("error", () => {});
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end().catch(() => {});
  }
}

/** The URL of database `name` on the server of `adminUrl`. */
export function databaseUrlFor(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Creates database `name` on the server of `adminUrl`: from the run's migrated template when it lives there. */
export async function createDatabaseFromTemplate(adminUrl: string, name: string): Promise<void> {
  const template = adminUrl === process.env.TEST_DATABASE_URL ? databaseTemplate().postgresName : undefined;
  await withAdminClient(adminUrl, (client) => client.query(`CREATE DATABASE ${quoteIdent(name)}${template ? ` TEMPLATE ${quoteIdent(template)}` : ""}`));
}

const migrationsFolder = path.resolve(import.meta.dirname, "../../drizzle");

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    const name = `forja_template_${process.pid}`;
    await withAdminClient(adminUrl, async (client) => {
      await client.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
      await client.query(`CREATE DATABASE ${quoteIdent(name)}`);
    });
    const database = await openDatabase({ databaseUrl: databaseUrlFor(adminUrl, name) });
    try {
      await database.migrate();
    } finally {
      await database.close();
    }
    project.provide("forjaDatabaseTemplate", { postgresName: name });
    return async () => {
      await withAdminClient(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`));
    };
  }
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "forja-db-template-"));
  const pgliteDir = path.join(root, "db");
  const pgliteArchive = path.join(root, "db.tar");
  const client = await PGlite.create(pgliteDir);
  try {
    await migrate(drizzle(client), { migrationsFolder });
    const archive = await client.dumpDataDir("none");
    fs.writeFileSync(pgliteArchive, Buffer.from(await archive.arrayBuffer()));
  } finally {
    await client.close();
  }
  project.provide("forjaDatabaseTemplate", { pgliteDir, pgliteArchive });
  return async () => fs.rmSync(root, { recursive: true, force: true });
}

/** The template this run made (empty outside a Vitest run, or when the file runs on its own pool). */
export function databaseTemplate(): DatabaseTemplate {
  try {
    return inject("forjaDatabaseTemplate") ?? {};
  } catch {
    return {};
  }
}

let archive: Blob | undefined;
/** The migrated PGlite archive for an in-memory test database, read once per test process. */
export function pgliteTemplateArchive(): Blob | undefined {
  const file = databaseTemplate().pgliteArchive;
  if (!file || !fs.existsSync(file)) return undefined;
  return (archive ??= new Blob([fs.readFileSync(file)]));
}
