import type { PGlite, QueryOptions, Results, Transaction } from "@electric-sql/pglite";

// What drizzle-orm's PGlite driver sees of the client (docs/decisions/0075). The driver passes the
// same `parsers` option with every query: nine column types kept as PostgreSQL's text (timestamps,
// dates, intervals and their arrays; numeric[]). PGlite merges that option into its own table of
// parsers on every query, a copy of a few hundred entries (one per type and array type): about
// 90 µs of CPU per query, a third of a simple select through drizzle, and about 1 ms of each quote
// request's 15 statements. Here the nine are set once on the client's own table (so every query on
// this client, drizzle's or not, gets them as text), and a query whose `parsers` are exactly those
// nine goes without them: the same merged table, never copied again. Any other `parsers` option is
// passed on as given.

/** The types drizzle-orm's PGlite driver keeps as text: timestamp, timestamptz, interval, date, numeric[], timestamp[], timestamptz[], interval[], date[]. */
export const DRIVER_TEXT_TYPES: readonly number[] = [1114, 1184, 1186, 1082, 1231, 1115, 1185, 1187, 1182];

const asText = (value: string) => value;

/** True when `parsers` names exactly DRIVER_TEXT_TYPES (the driver's own option). */
function isDriverParsers(parsers: Record<number, unknown>): boolean {
  let count = 0;
  for (const key in parsers) {
    if (!DRIVER_TEXT_TYPES.includes(Number(key))) return false;
    count += 1;
  }
  return count === DRIVER_TEXT_TYPES.length;
}

/** `options` without the driver's parsers (already the client's own); anything else as it is. */
function withoutDriverParsers(options: QueryOptions | undefined): QueryOptions | undefined {
  if (!options?.parsers || !isDriverParsers(options.parsers)) return options;
  const { parsers: _merged, ...rest } = options;
  return rest;
}

type Queryable = Pick<Transaction, "query">;

function forwardQuery(target: Queryable): Queryable["query"] {
  return <T>(query: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> => target.query<T>(query, params, withoutDriverParsers(options));
}

/**
 * The client to hand to drizzle-orm: `client` itself (every other method and property), with its
 * parser table holding the driver's nine types as text, and `query` (also inside a transaction)
 * dropping the driver's per-query copy of them.
 */
export function pgliteDriverClient(client: PGlite): PGlite {
  client.parsers = { ...client.parsers, ...Object.fromEntries(DRIVER_TEXT_TYPES.map((type) => [type, asText])) };
  const query = forwardQuery(client);
  const transaction = <T>(callback: (tx: Transaction) => Promise<T>): Promise<T> =>
    client.transaction((tx) => callback(Object.assign(Object.create(tx) as Transaction, { query: forwardQuery(tx) })));
  return new Proxy(client, {
    get(target, property) {
      if (property === "query") return query;
      if (property === "transaction") return transaction;
      // Getters run on the client itself (PGlite keeps its state in private fields).
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
