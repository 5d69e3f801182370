import fs from "node:fs";
import { afterAll, beforeAll } from "vitest";
import { closeTestDatabase, createTestDatabase } from "./test-database";

/**
 * The set-up of an integration test file: its own fresh, migrated database (PGlite, or PostgreSQL
 * with TEST_DATABASE_URL) for the file's tests, with `seed` run once it is ready; at the end the
 * database is closed and the file's DATA_DIR (from isolateTestEnv) removed.
 */
export function useTestFileDatabase(dataDir: string, seed?: () => Promise<void>): void {
  let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
    await seed?.();
  });
  afterAll(async () => {
    await closeTestDatabase(database);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
}
