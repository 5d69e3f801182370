import { PGlite, type QueryOptions } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/pglite";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DRIVER_TEXT_TYPES, pgliteDriverClient } from "./pglite-driver-client.server";

/** The named statements prepared on `client`'s connection. */
async function preparedNames(client: PGlite): Promise<string[]> {
  const result = await client.query<{ name: string }>("select name from pg_prepared_statements order by name");
  return result.rows.map((row) => row.name);
}

// The client drizzle-orm gets on PGlite (docs/decisions/0075): the same rows as the plain client,
// for every type the driver keeps as text and in a transaction, without the per-query copy of
// PGlite's parser table; a query with other parsers keeps them; statements kept prepared, with
// PostgreSQL's own values, errors and notifications.

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

  it("sends drizzle's statements that are not kept prepared without the driver's parsers, and other parsers as given", async () => {
    const seen = recordOptions(wrapped);
    const db = drizzle(pgliteDriverClient(wrapped));
    await db.execute(sql`create table first_table (n int)`);
    await db.transaction((tx) => tx.execute(sql`create table second_table (n int)`));
    expect(seen).toHaveLength(2);
    for (const options of seen) {
      expect(options).toBeDefined();
      expect(options).not.toHaveProperty("parsers");
    }

    const client = pgliteDriverClient(wrapped);
    const custom = await client.query<{ n: string }>("select 7::int4 as n", [], { parsers: { 23: (value: string) => `n=${value}` } });
    expect(custom.rows[0]!.n).toBe("n=7");
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

  it("runs drizzle's statements prepared: the same values of every type, in and out of a transaction, each statement prepared once", async () => {
    const setup = `create table things (
      id uuid primary key default gen_random_uuid(), label text not null, n int, big bigint, price numeric(12, 2),
      active boolean, data jsonb, list jsonb, tags text[], at timestamptz, day date, raw bytea, unique (label))`;
    await plain.exec(setup);
    await wrapped.exec(setup);
    const insert = sql`insert into things (label, n, big, price, active, data, list, tags, at, day, raw) values (${"uno"}, ${7}, ${"9007199254740993"}, ${"1234.50"}, ${true}, ${JSON.stringify({ a: 1, b: "dos" })}::jsonb, ${JSON.stringify([1, 2])}::jsonb, ${sql.param(["x", "y z", 'co"mi,lla'])}, ${new Date("2026-11-30T10:15:00Z")}, ${"2026-11-30"}, ${new Uint8Array([0, 1, 255])}) returning label, n, big, price, active, data, list, tags, at, day, raw`;
    const select = (label: string | null) => sql`select label, n, big, price, active, data, list, tags, at, day, raw from things where label = ${label} or ${label}::text is null order by label`;
    const before = drizzle(plain);
    const after = drizzle(pgliteDriverClient(wrapped));
    expect((await after.execute(insert)).rows).toEqual((await before.execute(insert)).rows);
    expect((await after.execute(select("uno"))).rows).toEqual((await before.execute(select("uno"))).rows);
    expect((await after.execute(select(null))).rows).toEqual((await before.execute(select(null))).rows);
    const inTransaction = await after.transaction((tx) => tx.execute(select("uno")));
    expect(inTransaction.rows).toEqual((await before.execute(select("uno"))).rows);
    expect((await after.execute(select("uno"))).rows[0]).toMatchObject({ label: "uno", n: 7, price: "1234.50", active: true, data: { a: 1, b: "dos" }, list: [1, 2], tags: ["x", "y z", 'co"mi,lla'], day: "2026-11-30" });
    // The insert and the select (one text for both values of `label`), each prepared once.
    expect(await preparedNames(wrapped)).toHaveLength(2);
    expect(await preparedNames(plain)).toHaveLength(0);
  });

  it("answers with PostgreSQL's own errors, and a transaction that fails rolls back; the connection goes on", async () => {
    const db = drizzle(pgliteDriverClient(wrapped));
    await db.execute(sql`create table uniques (code text primary key)`);
    const add = (code: string) => db.execute(sql`insert into uniques (code) values (${code})`);
    await add("A");
    const duplicate = await add("A").catch((error: unknown) => error);
    expect(duplicate).toBeInstanceOf(Error);
    let cause: unknown = duplicate;
    while (cause && typeof cause === "object" && !(cause as { code?: string }).code) cause = (cause as { cause?: unknown }).cause;
    expect((cause as { code?: string }).code).toBe("23505");

    await expect(
      db.transaction(async (tx) => {
        await tx.execute(sql`insert into uniques (code) values (${"B"})`);
        await tx.execute(sql`insert into uniques (code) values (${"A"})`);
      }),
    ).rejects.toThrow();
    expect((await db.execute(sql`select code from uniques order by code`)).rows).toEqual([{ code: "A" }]);
    const syntax = await db.execute(sql`select from where`).catch((error: unknown) => error);
    expect(String((syntax as { cause?: Error }).cause?.message ?? syntax)).toMatch(/syntax error/);
    await add("C");
    expect((await db.execute(sql`select count(*)::int as n from uniques`)).rows).toEqual([{ n: 2 }]);
  });

  it("delivers notifications sent by a prepared statement", async () => {
    const client = pgliteDriverClient(wrapped);
    const heard: string[] = [];
    const stop = await client.listen("avisos", (payload) => heard.push(payload));
    const db = drizzle(client);
    await db.execute(sql`select pg_notify('avisos', ${"uno"})`);
    await db.execute(sql`select pg_notify('avisos', ${"dos"})`);
    await db.transaction((tx) => tx.execute(sql`select pg_notify('avisos', ${"tres"})`));
    await expect.poll(() => heard).toEqual(["uno", "dos", "tres"]);
    await stop();
  });

  it("keeps at most the given number of statements, closing the least recently used", async () => {
    const db = drizzle(pgliteDriverClient(wrapped, 3));
    for (let n = 1; n <= 6; n += 1) await db.execute(sql.raw(`select ${n} as n`));
    expect(await preparedNames(wrapped)).toHaveLength(3);
    // Used again, the first text is prepared anew and still answers.
    expect((await db.execute(sql.raw("select 1 as n"))).rows).toEqual([{ n: 1 }]);
    expect(await preparedNames(wrapped)).toHaveLength(3);
  });

  it("runs a statement again the ordinary way when its table changed under it", async () => {
    const db = drizzle(pgliteDriverClient(wrapped));
    await db.execute(sql`create table shapes (a int)`);
    await db.execute(sql`insert into shapes values (1)`);
    expect((await db.execute(sql`select * from shapes`)).rows).toEqual([{ a: 1 }]);
    await db.execute(sql`alter table shapes add column b int default 2`);
    expect((await db.execute(sql`select * from shapes`)).rows).toEqual([{ a: 1, b: 2 }]);
    expect((await db.execute(sql`select * from shapes`)).rows).toEqual([{ a: 1, b: 2 }]);
  });

  it("keeps answering many statements sent at once, each with its own values", async () => {
    const db = drizzle(pgliteDriverClient(wrapped));
    const answers = await Promise.all(Array.from({ length: 60 }, (_, n) => (n % 2 ? db.execute(sql`select ${n}::int as n`) : db.transaction((tx) => tx.execute(sql`select ${n}::int as n`)))));
    expect(answers.map((answer) => answer.rows[0])).toEqual(Array.from({ length: 60 }, (_, n) => ({ n })));
  });

  it("prepares again a statement the connection lost (DEALLOCATE ALL), and two wrappers of one client never share a name", async () => {
    const first = drizzle(pgliteDriverClient(wrapped));
    const second = drizzle(pgliteDriverClient(wrapped));
    const ask = (db: typeof first, n: number) => db.execute(sql`select ${n}::int as n`);
    expect((await ask(first, 1)).rows).toEqual([{ n: 1 }]);
    expect((await ask(second, 2)).rows).toEqual([{ n: 2 }]);
    expect(await preparedNames(wrapped)).toHaveLength(2);
    await wrapped.exec("deallocate all");
    expect((await ask(first, 3)).rows).toEqual([{ n: 3 }]);
    expect((await ask(second, 4)).rows).toEqual([{ n: 4 }]);
    expect(await preparedNames(wrapped)).toHaveLength(2);
  });

  it("refuses a statement on a transaction that is already over, as PGlite does", async () => {
    const db = drizzle(pgliteDriverClient(wrapped));
    let kept: Parameters<Parameters<typeof db.transaction>[0]>[0] | undefined;
    await db.transaction(async (tx) => {
      kept = tx;
      await tx.execute(sql`select ${1}::int as n`);
    });
    const late = await kept!.execute(sql`select ${1}::int as n`).catch((error: unknown) => error);
    expect(String((late as { cause?: Error }).cause?.message ?? late)).toMatch(/Transaction is closed/);
  });

  it("answers a value PostgreSQL cannot read (an error at Bind) with its own error, and goes on", async () => {
    const db = drizzle(pgliteDriverClient(wrapped));
    const bad = await db.execute(sql`select ${"abc"}::int as n`).catch((error: unknown) => error);
    expect((bad as { cause?: { code?: string } }).cause?.code).toBe("22P02");
    expect((await db.execute(sql`select ${"12"}::int as n`)).rows).toEqual([{ n: 12 }]);
    await expect(db.transaction((tx) => tx.execute(sql`select ${"abc"}::int as n`))).rejects.toThrow();
    expect((await db.transaction((tx) => tx.execute(sql`select ${"13"}::int as n`))).rows).toEqual([{ n: 13 }]);
  });
});
