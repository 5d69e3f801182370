import { and, eq, sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgSelect, PgTable } from "drizzle-orm/pg-core";
import { getDb } from "~/db/client.server";
import type { RecordAuth, RecordCollection, RecordData, RecordEventAccess } from "./collection.server";

// A collection read from one table: the feature names its table, the select of a record's columns,
// its visibility rule and how a row reads as a record; list, count, view and the realtime checks
// are the same for all.

export interface TableCollectionSpec<Row> extends Pick<RecordCollection, "id" | "name" | "fields" | "defaultSort" | "relations"> {
  table: PgTable;
  idColumn: PgColumn;
  /** False for an id that cannot exist (malformed): answered as not found without a query. */
  isId(id: string): boolean;
  /** A dynamic select of the record's columns (`getDb().select(columns).from(table).$dynamic()`). */
  select(): PgSelect;
  /**
   * The rows `auth` may see, as a condition (undefined: all). The feature's pages use the same one.
   * `auth.id` may be an SQL expression instead of a text (realtime checks many accounts in one
   * query): build the condition with drizzle's operators, which take either.
   */
  rule(auth: RecordAuth): SQL | undefined;
  toRecord(row: Row): RecordData;
}

const TRUE = sql`true`;

/** Checks the rule for many accounts at once: each row of `candidates` has the account's id in `uid`. */
function authAt(collection: NonNullable<RecordAuth>["collection"]): RecordAuth {
  return { collection, id: sql`candidate.uid` as unknown as string };
}

function eventAccess<Row>(spec: TableCollectionSpec<Row>): RecordEventAccess {
  return {
    async read(recordId) {
      if (!spec.isId(recordId)) return null;
      const [row] = (await spec.select().where(eq(spec.idColumn, recordId)).limit(1)) as Row[];
      return row ? spec.toRecord(row) : null;
    },

    async whoMayView(target, auths, guest) {
      const none = { guest: false, auths: auths.map(() => false) };
      let source: SQL;
      if ("id" in target) {
        if (!spec.isId(target.id)) return none;
        source = sql`${spec.table} where ${spec.idColumn} = ${target.id}`;
      } else {
        // The deleted row, read back as a row of its own table under the table's name, so the
        // rule's column references resolve to it.
        source = sql`jsonb_populate_record(null::${spec.table}, ${JSON.stringify(target.deletedRow)}::jsonb) as ${spec.table} where true`;
      }
      const visible = (auth: RecordAuth) => sql`exists (select 1 from ${source} and ${spec.rule(auth) ?? TRUE})`;
      const columns: SQL[] = [guest ? sql`${visible(null)} as guest` : sql`false as guest`];
      for (const kind of ["users", "_superusers"] as const) {
        const positions = auths.flatMap((auth, index) => (auth.collection === kind ? [index] : []));
        if (positions.length === 0) {
          columns.push(sql`'{}'::int[] as ${sql.identifier(kind)}`);
          continue;
        }
        const list = (values: SQL[]) => sql.join(values, sql`, `);
        columns.push(sql`array(
          select candidate.position from unnest(
            array[${list(positions.map((position) => sql`${position}`))}]::int[],
            array[${list(positions.map((position) => sql`${auths[position]!.id}`))}]::text[]
          ) as candidate(position, uid)
          where ${visible(authAt(kind))}
        ) as ${sql.identifier(kind)}`);
      }
      const result = await getDb().execute<{ guest: boolean; users: number[]; _superusers: number[] }>(sql`select ${sql.join(columns, sql`, `)}`);
      const row = (result as unknown as { rows: { guest: boolean; users: number[]; _superusers: number[] }[] }).rows[0]!;
      const allowed = new Set([...row.users, ...row._superusers].map(Number));
      return { guest: row.guest, auths: auths.map((_, index) => allowed.has(index)) };
    },
  };
}

export function tableCollection<Row>(spec: TableCollectionSpec<Row>): RecordCollection {
  const { id, name, fields, defaultSort, relations } = spec;
  return {
    id,
    name,
    fields,
    defaultSort,
    relations,
    async list({ where, orderBy, limit, offset, auth }) {
      const rows = (await spec.select().where(and(spec.rule(auth), where)).orderBy(...orderBy).limit(limit).offset(offset)) as Row[];
      return rows.map((row) => spec.toRecord(row));
    },
    count({ where, auth }) {
      return getDb().$count(spec.table, and(spec.rule(auth), where));
    },
    async view(recordId, auth) {
      if (!spec.isId(recordId)) return null;
      const [row] = (await spec.select().where(and(eq(spec.idColumn, recordId), spec.rule(auth))).limit(1)) as Row[];
      return row ? spec.toRecord(row) : null;
    },
    events: eventAccess(spec),
  };
}
