import { PGlite, type QueryOptions } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/pglite";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DRIVER_TEXT_TYPES, pgliteDriverClient } from "./pglite-driver-client.server";

// The client drizzle-orm gets on PGlite (docs/decisions/0075): the same rows as the plain client,
// for every type the driver keeps as text and in a transaction, without the per-query copy of
// PGlite's parser table; a query with other parsers keeps them.

const ROWS = sql`select
  timestamp '2026-11-30 10:15:00' as ts,
  timestamptz '2026-11-30 10:15:00+00' as tstz,
  date '2026-11-30' as day,
  interval '1 day 2 hours' as span,
  array[1.50, 2.25]::numeric[] as amounts,
  array[timestamp '2026-01-01 00:00:00']::timestamp[] as tss,
  array[timestamptz '2026-01-01 00:00:00+00']::timestamptz[] as tstzs,
  array[interval '3 minutes']::interval[] as spans,
  array[date '2026-01-02']::date[] as days,
  12::int4 as count,
  true as flag,
  '{"a": 1}'::jsonb as data`;

/** Every `options` PGlite's own `query` receives (the client's and a transaction's). */
function recordOptions(client: PGlite): (QueryOptions | undefined)[] {
  const seen: (QueryOptions | undefined)[] = [];
  const query = client.query.bind(client);
  client.query = ((text: string, params?: unknown[], options?: QueryOptions) => {
    seen.push(options);
    return query(text, params, options);
  }) as PGlite["query"];
  const transaction = client.transaction.bind(client);
  client.transaction = ((callback) =>
    transaction((tx) => {
      const txQuery = tx.query.bind(tx);
      tx.query = ((text: string, params?: unknown[], options?: QueryOptions) => {
        seen.push(options);
        return txQuery(text, params, options);
      }) as typeof tx.query;
      return callback(tx);
    })) as PGlite["transaction"];
  return seen;
}

describe("pgliteDriverClient", () => {
  let plain: PGlite;
  let wrapped: PGlite;

  beforeEach(async () => {
    plain = await PGlite.create();
    wrapped = await PGlite.create();
  });
  afterEach(async () => {
    await plain.close();
    await wrapped.close();
  });

  it("gives drizzle the same rows as the plain client, outside and inside a transaction", async () => {
    const before = drizzle(plain);
    const after = drizzle(pgliteDriverClient(wrapped));
    const expected = await before.execute(ROWS);
    expect(expected.rows[0]).toMatchObject({ ts: "2026-11-30 10:15:00", day: "2026-11-30", amounts: "{1.50,2.25}", count: 12, flag: true, data: { a: 1 } });
    expect((await after.execute(ROWS)).rows).toEqual(expected.rows);
    expect(await after.transaction((tx) => tx.execute(ROWS))).toEqual(await before.transaction((tx) => tx.execute(ROWS)));
  });

  it("sends drizzle's queries without their copy of the driver's parsers, and other parsers as given", async () => {
    const seen = recordOptions(wrapped);
    const db = drizzle(pgliteDriverClient(wrapped));
    await db.execute(sql`select 1 as one`);
    await db.transaction((tx) => tx.execute(sql`select 2 as two`));
    expect(seen).toHaveLength(2);
    for (const options of seen) {
      expect(options).toBeDefined();
      expect(options).not.toHaveProperty("parsers");
    }

    const client = pgliteDriverClient(wrapped);
    const custom = await client.query<{ n: string }>("select 7::int4 as n", [], { parsers: { 23: (value: string) => `n=${value}` } });
    expect(custom.rows[0]!.n).toBe("n=7");
    expect(seen.at(-1)?.parsers).toBeDefined();
  });

  it("knows the parsers drizzle-orm's driver sends (a new version with others fails here, not in production)", async () => {
    const seen = recordOptions(plain);
    await drizzle(plain).execute(sql`select 1`);
    const keys = Object.keys(seen[0]?.parsers ?? {}).map(Number);
    expect(keys.sort((a, b) => a - b)).toEqual([...DRIVER_TEXT_TYPES].sort((a, b) => a - b));
  });

  it("leaves the rest of the client as it is: exec, listen, closed", async () => {
    const client = pgliteDriverClient(wrapped);
    expect(client.closed).toBe(false);
    await client.exec("create table notes (body text)");
    const heard: string[] = [];
    const stop = await client.listen("canal", (payload) => heard.push(payload));
    await drizzle(client).execute(sql`select pg_notify('canal', 'hola')`);
    expect(heard).toEqual(["hola"]);
    await stop();
  });
});
