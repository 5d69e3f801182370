import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "./client.server";
import { isUniqueViolation, uniqueViolationOf } from "./errors.server";

// The errors come from a real PostgreSQL (PGlite in memory) through drizzle-orm, which wraps the
// driver's error in its own: the helpers must find the SQLSTATE underneath.

let database: Database;

beforeAll(async () => {
  database = await openDatabase({});
  await database.db.execute(sql`create table probe (sku text not null constraint probe_sku_key unique)`);
  await database.db.execute(sql`insert into probe (sku) values ('A-1')`);
});

afterAll(async () => {
  await database.close();
});

async function failureOf(statement: ReturnType<typeof sql>): Promise<unknown> {
  try {
    await database.db.execute(statement);
  } catch (error) {
    return error;
  }
  throw new Error("la sentencia no falló");
}

describe("isUniqueViolation / uniqueViolationOf", () => {
  it("finds PostgreSQL's unique violation inside drizzle's error, with its constraint", async () => {
    const error = await failureOf(sql`insert into probe (sku) values ('A-1')`);
    expect((error as { code?: string }).code).not.toBe("23505"); // drizzle's wrapper, not the driver's error
    expect(isUniqueViolation(error)).toBe(true);
    expect(uniqueViolationOf(error)).toEqual({ constraint: "probe_sku_key", message: expect.stringContaining("probe_sku_key") });
  });

  it("answers no for another constraint's failure and for anything that is not a database error", async () => {
    const notNull = await failureOf(sql`insert into probe (sku) values (null)`);
    expect(isUniqueViolation(notNull)).toBe(false);
    expect(uniqueViolationOf(notNull)).toBeNull();
    for (const other of [new Error("otro"), null, undefined, "23505", { code: 23505 }]) expect(isUniqueViolation(other)).toBe(false);
  });
});
