import { randomBytes } from "node:crypto";
import { afterAll, beforeAll } from "vitest";
import { startChangeFeed } from "~/db/change-feed.server";
import { getDatabase, openDatabase, useDatabase, type Database } from "~/db/client.server";
import { registerFeatureHooks } from "~/hooks.server";
import { createDatabaseFromTemplate, databaseUrlFor, pgliteTemplateArchive, quoteIdent, withAdminClient } from "./database-template";

export { withAdminClient };

// A fresh, migrated, real database for one test file: in-memory PGlite by default, or a new
// database on the PostgreSQL server named by TEST_DATABASE_URL (dropped again on close).

async function openPostgresTestDatabase(adminUrl: string): Promise<Database> {
  const name = `forja_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  await createDatabaseFromTemplate(adminUrl, name);
  let inner: Database;
  try {
    inner = await openDatabase({ databaseUrl: databaseUrlFor(adminUrl, name) });
  } catch (error) {
    await dropDatabase(adminUrl, name);
    throw error;
  }
  let closing: Promise<void> | undefined;
  return {
    ...inner,
    // Once only: end the pool, then drop the database (FORCE ends any connection still open).
    close: () =>
      (closing ??= (async () => {
        try {
          await inner.close();
        } finally {
          await dropDatabase(adminUrl, name);
        }
      })()),
  };
}

async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  await withAdminClient(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`));
}

/** Opens a fresh database, applies the migrations and installs it as the process database. */
export async function createTestDatabase(): Promise<Database> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  const database = adminUrl ? await openPostgresTestDatabase(adminUrl) : await openDatabase({ loadDataDir: pgliteTemplateArchive() });
  try {
    await database.migrate();
  } catch (error) {
    await database.close();
    throw error;
  }
  useDatabase(database);
  // The same cross-feature wiring the server sets up at start (app/hooks.server.ts).
  registerFeatureHooks();
  return database;
}

/** Closes the database (dropping it on PostgreSQL) and uninstalls it if it is still installed. */
export async function closeTestDatabase(database: Database | undefined): Promise<void> {
  if (!database) return;
  try {
    await database.close();
  } finally {
    let installed: Database | undefined;
    try {
      installed = getDatabase();
    } catch {
      installed = undefined;
    }
    if (installed === database) useDatabase(undefined);
  }
}

/**
 * Registers beforeAll/afterAll hooks that give the calling test file its own database.
 * Returns a getter, since the database exists only once beforeAll has run.
 */
export function setupTestDatabase(): () => Database {
  let database: Database | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await closeTestDatabase(database);
    database = undefined;
  });
  return () => {
    if (!database) throw new Error("The test database is only available inside tests (after beforeAll)");
    return database;
  };
}

/** A test database with the change feed listening, as on the server (live caches follow changes). */
export function setupTestDatabaseWithChangeFeed(): () => Database {
  const getTestDatabase = setupTestDatabase();
  let feed: { stop: () => Promise<void> } | undefined;
  beforeAll(async () => {
    feed = await startChangeFeed(getTestDatabase());
  });
  afterAll(async () => {
    await feed?.stop();
  });
  return getTestDatabase;
}
