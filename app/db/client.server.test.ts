import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeTestDatabase, createTestDatabase } from "../../tests/support/test-database";
import { getDatabase, getDb, useDatabase, type Database } from "./client.server";
import { pages } from "./schema/pages";

// Every query goes through the same real database the app uses (PGlite, or PostgreSQL when
// TEST_DATABASE_URL is set).

const journal = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, "../../drizzle/meta/_journal.json"), "utf8")) as {
  entries: { tag: string }[];
};

async function rows<T>(database: Database, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await database.db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

async function appliedMigrations(database: Database): Promise<number> {
  const [row] = await rows<{ count: number | string }>(database, sql`select count(*) as count from drizzle.__drizzle_migrations`);
  return Number(row.count);
}

describe("database client", () => {
  let database: Database;

  beforeAll(async () => {
    database = await createTestDatabase();
  });

  afterAll(async () => {
    await closeTestDatabase(database);
  });

  it("applies the migrations on a fresh database", async () => {
    const [table] = await rows<{ name: string | null }>(database, sql`select to_regclass('public.pages')::text as name`);
    expect(table.name).toBe("pages");
    const columns = await rows<{ column_name: string }>(
      database,
      sql`select column_name from information_schema.columns where table_schema = 'public' and table_name = 'pages' order by column_name`,
    );
    expect(columns.map((c) => c.column_name)).toEqual(["body", "created_at", "description", "id", "published", "slug", "title", "updated_at"]);
    expect(await appliedMigrations(database)).toBe(journal.entries.length);
  });

  it("treats applying the migrations again as a no-op that keeps the data", async () => {
    await database.db.insert(pages).values({ slug: "migracion-doble", title: "Prueba", body: "Cuerpo" });
    await database.migrate();
    await database.migrate();
    expect(await appliedMigrations(database)).toBe(journal.entries.length);
    const kept = await database.db.select().from(pages);
    expect(kept.map((p) => p.slug)).toContain("migracion-doble");
  });

  it("fills the column defaults of the pages table", async () => {
    const [page] = await database.db.insert(pages).values({ slug: "con-defaults", title: "Defaults", body: "x" }).returning();
    expect(page.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(page.published).toBe(true);
    expect(page.description).toBe("");
    expect(page.createdAt).toBeInstanceOf(Date);
    expect(Math.abs(page.createdAt.getTime() - Date.now())).toBeLessThan(60_000);
  });

  it("enforces unique slugs", async () => {
    await database.db.insert(pages).values({ slug: "unica", title: "Uno", body: "x" });
    await expect(database.db.insert(pages).values({ slug: "unica", title: "Dos", body: "y" })).rejects.toThrow();
  });

  it("is the process database while installed", () => {
    expect(getDatabase()).toBe(database);
    expect(getDb()).toBe(database.db);
    expect(["pglite", "postgres"]).toContain(database.kind);
    expect(database.kind).toBe(process.env.TEST_DATABASE_URL ? "postgres" : "pglite");
  });

  it("answers ping() while open", async () => {
    await expect(database.ping()).resolves.toBeUndefined();
  });

  it("rejects ping() after close(), and closing twice is harmless", async () => {
    await database.close();
    await expect(database.ping()).rejects.toThrow();
    await expect(database.close()).resolves.toBeUndefined();
  });
});

describe("getDatabase without a database", () => {
  it("throws a clear error when none is installed", () => {
    useDatabase(undefined);
    expect(() => getDatabase()).toThrow(/not initialised/);
    expect(() => getDb()).toThrow(/not initialised/);
  });
});
