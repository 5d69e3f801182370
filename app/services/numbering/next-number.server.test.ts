import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { counters } from "~/db/schema/numbering";
import { setupTestDatabase } from "../../../tests/support/test-database";
import { nextRecordNumber } from "./next-number.server";

// Yearly record numbers on the real database (PGlite, or PostgreSQL with TEST_DATABASE_URL):
// unique and gapless under concurrency and rollbacks. Each test uses its own year so they do not
// share a counter.

setupTestDatabase();

class Rollback extends Error {}

/** Takes a number in its own transaction; `rollback` undoes the transaction after taking it. */
async function take(prefix: "SOL" | "COT" | "PED", now: Date, options: { rollback?: boolean; holdMs?: number } = {}): Promise<string> {
  let number = "";
  try {
    await getDb().transaction(async (tx) => {
      number = await nextRecordNumber(tx, prefix, now);
      if (options.holdMs) await new Promise((resolve) => setTimeout(resolve, options.holdMs));
      if (options.rollback) throw new Rollback();
    });
  } catch (error) {
    if (!(error instanceof Rollback)) throw error;
  }
  return number;
}

const sequence = (prefix: string, year: number, count: number) => Array.from({ length: count }, (_, index) => `${prefix}-${year}-${String(index + 1).padStart(4, "0")}`);

async function counterValue(name: string, year: number): Promise<number | undefined> {
  const [row] = await getDb().select({ value: counters.value }).from(counters).where(and(eq(counters.name, name), eq(counters.year, year)));
  return row?.value;
}

describe("nextRecordNumber", () => {
  it("starts each series at 0001 and counts up, per prefix", async () => {
    const now = new Date("2031-05-20T18:00:00Z");
    expect(await take("SOL", now)).toBe("SOL-2031-0001");
    expect(await take("SOL", now)).toBe("SOL-2031-0002");
    expect(await take("SOL", now)).toBe("SOL-2031-0003");
    expect(await take("COT", now)).toBe("COT-2031-0001");
    expect(await take("PED", now)).toBe("PED-2031-0001");
    expect(await take("SOL", now)).toBe("SOL-2031-0004");
    expect(await counterValue("SOL", 2031)).toBe(4);
  });

  it("takes the year in America/Mexico_City, not in UTC", async () => {
    // 31 Dec 2032, 23:30 in Mexico City (UTC−6) is already 1 Jan 2033 in UTC.
    const newYearsEveLocal = new Date("2032-12-31T23:30:00-06:00");
    expect(newYearsEveLocal.getUTCFullYear()).toBe(2033);
    expect(await take("SOL", newYearsEveLocal)).toBe("SOL-2032-0001");
    // Half an hour later (00:30 local) the new year's series starts.
    expect(await take("SOL", new Date("2033-01-01T00:30:00-06:00"))).toBe("SOL-2033-0001");
    // 1 Jan 2033 05:59 UTC is still 31 Dec 2032 in Mexico City.
    expect(await take("SOL", new Date("2033-01-01T05:59:00Z"))).toBe("SOL-2032-0002");
    expect(await take("SOL", new Date("2033-01-01T06:00:00Z"))).toBe("SOL-2033-0002");
  });

  it("gives a rolled-back transaction's number back, so the series has no gaps", async () => {
    const now = new Date("2034-03-01T12:00:00Z");
    expect(await take("SOL", now)).toBe("SOL-2034-0001");
    expect(await take("SOL", now, { rollback: true })).toBe("SOL-2034-0002");
    expect(await take("SOL", now, { rollback: true })).toBe("SOL-2034-0002");
    expect(await counterValue("SOL", 2034)).toBe(1);
    expect(await take("SOL", now)).toBe("SOL-2034-0002");
    // The first number of a year rolled back leaves no counter behind.
    expect(await take("COT", now, { rollback: true })).toBe("COT-2034-0001");
    expect(await counterValue("COT", 2034)).toBeUndefined();
    expect(await take("COT", now)).toBe("COT-2034-0001");
  });

  it("gives 50 concurrent transactions 50 unique, gapless numbers", async () => {
    const now = new Date("2035-07-15T15:00:00Z");
    const numbers = await Promise.all(Array.from({ length: 50 }, (_, index) => take("SOL", now, { holdMs: index % 7 })));
    expect(new Set(numbers).size).toBe(50);
    expect([...numbers].sort()).toEqual(sequence("SOL", 2035, 50));
    expect(await counterValue("SOL", 2035)).toBe(50);
  });

  it("keeps the committed numbers gapless when some concurrent transactions roll back", async () => {
    const now = new Date("2036-09-01T15:00:00Z");
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, async (_, index) => {
        const rollback = index % 5 === 2;
        return { rollback, number: await take("SOL", now, { rollback, holdMs: index % 3 }) };
      }),
    );
    const committed = outcomes.filter((outcome) => !outcome.rollback).map((outcome) => outcome.number);
    expect(committed).toHaveLength(40);
    expect([...committed].sort()).toEqual(sequence("SOL", 2036, 40));
    expect(await counterValue("SOL", 2036)).toBe(40);
  });
});
