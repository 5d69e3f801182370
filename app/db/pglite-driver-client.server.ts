import { parse, protocol, type PGlite, type QueryOptions, type Results, type Transaction } from "@electric-sql/pglite";

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

// Each statement drizzle sends is also kept prepared, by name, on PGlite's one connection
// (docs/decisions/0075). PGlite's own `query` parses, plans and describes every statement anew, in
// six calls into its WebAssembly: an insert of twelve values cost 150–230 µs of CPU. A statement
// prepared once runs as Bind, Describe, Execute and Sync in one call: 75–80 µs. Only SELECT,
// INSERT, UPDATE, DELETE and WITH are kept (not DDL, SET or transaction control), at most
// MAX_PREPARED of them, the least recently used closed first. Values are serialized as PGlite's
// `query` does (by the parameter types PostgreSQL described), rows parsed by PGlite's own parser,
// errors are PostgreSQL's own. A statement PostgreSQL no longer has, or whose plan no longer fits
// its result (a table changed under it), is prepared again and, outside a transaction, run once more.

/** Statements kept prepared per client. */
export const MAX_PREPARED = 500;

const PREPARABLE = /^\s*(select|insert|update|delete|with)\b/i;
/**
 * SQLSTATEs after which a kept statement is prepared again: its result type changed under its plan
 * (0A000, "cached plan must not change result type"), or the connection no longer has it (26000).
 * Both come at Bind, before anything ran.
 */
const STALE_STATEMENT = new Set(["0A000", "26000"]);

/** Names unique in the process, so two wrappers of one client never prepare the same name. */
let statementCounter = 0;

interface PreparedStatement {
  name: string;
  paramTypes: number[];
}

function isStale(error: unknown): boolean {
  return typeof error === "object" && error !== null && STALE_STATEMENT.has((error as { code?: string }).code ?? "");
}

/** The statements prepared on one client, by their text, in order of use (a Map keeps insertion order). */
class PreparedStatements {
  private readonly byText = new Map<string, PreparedStatement>();
  /** Statements to close with the next call (evicted, or gone stale). */
  private closing: string[] = [];
  private readonly client: PGlite;
  private readonly max: number;

  constructor(client: PGlite, max: number) {
    this.client = client;
    this.max = Math.max(1, max);
  }

  /**
   * Runs `text` as a prepared statement, preparing it first when it is new. Inside PGlite's lock for
   * one query (and, outside a transaction, its transaction lock too), as PGlite's `query` runs.
   */
  async query<T>(text: string, params: unknown[], options: QueryOptions | undefined, inTransaction: boolean): Promise<Results<T>> {
    const client = this.client;
    await client._checkReady();
    const run = () =>
      client._runExclusiveQuery(async () => {
        try {
          return await this.run<T>(text, params, options, inTransaction);
        } catch (error) {
          // Inside a transaction the error aborted it: the caller sees it. Outside, nothing ran.
          if (!isStale(error) || inTransaction) throw error;
          return this.run<T>(text, params, options, inTransaction);
        }
      });
    return inTransaction ? run() : client._runExclusiveTransaction(run);
  }

  private async run<T>(text: string, params: unknown[], options: QueryOptions | undefined, inTransaction: boolean): Promise<Results<T>> {
    const client = this.client;
    // The caller knows: no call into PGlite's WebAssembly to ask (these statements never open or close a transaction).
    const syncToFs = !inTransaction;
    const statement = this.byText.get(text) ?? (await this.prepare(text));
    const values = params.map((value, index) => {
      if (value === null || value === undefined) return null;
      const type = statement.paramTypes[index]!;
      const serializer = options?.serializers?.[type] ?? client.serializers[type];
      return serializer ? serializer(value) : String(value);
    });
    try {
      const messages = await client.execProtocolStream(
        Buffer.concat([...this.takeClosing(), protocol.serialize.bind({ statement: statement.name, values }), protocol.serialize.describe({ type: "P" }), protocol.serialize.execute({}), protocol.serialize.sync()]),
        { syncToFs },
      );
      return parse.parseResults(messages, client.parsers, options)[0] as Results<T>;
    } catch (error) {
      if (isStale(error)) this.forget(text, statement);
      throw error;
    }
  }

  private async prepare(text: string): Promise<PreparedStatement> {
    const name = `forja_${(statementCounter += 1)}`;
    const messages = await this.client.execProtocolStream(
      Buffer.concat([...this.takeClosing(), protocol.serialize.parse({ name, text, types: [] }), protocol.serialize.describe({ type: "S", name }), protocol.serialize.sync()]),
      { syncToFs: false },
    );
    const statement = { name, paramTypes: parse.parseDescribeStatementResults(messages) };
    // Most recently used last: the first key is the one to close.
    this.byText.set(text, statement);
    while (this.byText.size > this.max) {
      const [oldest] = this.byText.entries();
      this.forget(oldest![0], oldest![1]);
    }
    return statement;
  }

  /** Closes `statement` with the next call, if it is still the one kept for `text`. */
  private forget(text: string, statement: PreparedStatement): void {
    if (this.byText.get(text) !== statement) return;
    this.byText.delete(text);
    this.closing.push(statement.name);
  }

  private takeClosing(): Uint8Array[] {
    const names = this.closing;
    this.closing = [];
    return names.map((name) => protocol.serialize.close({ type: "S", name }));
  }

  /** Marks `text` as the most recently used. */
  touch(text: string): void {
    const statement = this.byText.get(text);
    if (!statement) return;
    this.byText.delete(text);
    this.byText.set(text, statement);
  }
}

type Queryable = Pick<Transaction, "query">;

function forwardQuery(target: Queryable, prepared: PreparedStatements, inTransaction: boolean): Queryable["query"] {
  return <T>(query: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> => {
    const sent = withoutDriverParsers(options);
    // The ordinary way: what is not kept prepared, options this path does not implement, and a
    // transaction already over (PGlite's own query says so).
    if (!PREPARABLE.test(query) || sent?.blob || sent?.paramTypes || sent?.onNotice || (inTransaction && (target as Transaction).closed)) {
      return target.query<T>(query, params, sent);
    }
    prepared.touch(query);
    return prepared.query<T>(query, params ?? [], sent, inTransaction);
  };
}

/**
 * The client to hand to drizzle-orm: `client` itself (every other method and property), with its
 * parser table holding the driver's nine types as text, and `query` (also inside a transaction)
 * dropping the driver's per-query copy of them and running each statement prepared.
 */
export function pgliteDriverClient(client: PGlite, maxPrepared = MAX_PREPARED): PGlite {
  client.parsers = { ...client.parsers, ...Object.fromEntries(DRIVER_TEXT_TYPES.map((type) => [type, asText])) };
  const prepared = new PreparedStatements(client, maxPrepared);
  const query = forwardQuery(client, prepared, false);
  const transaction = <T>(callback: (tx: Transaction) => Promise<T>): Promise<T> =>
    client.transaction((tx) => callback(Object.assign(Object.create(tx) as Transaction, { query: forwardQuery(tx, prepared, true) })));
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
