import { and, eq, type SQL } from "drizzle-orm";
import type { PgColumn, PgSelect, PgTable } from "drizzle-orm/pg-core";
import { getDb } from "~/db/client.server";
import type { RecordAuth, RecordCollection, RecordData } from "./collection.server";

// A collection read from one table: the feature names its table, the select of a record's columns,
// its visibility rule and how a row reads as a record; list, count and view are the same for all.

export interface TableCollectionSpec<Row> extends Pick<RecordCollection, "id" | "name" | "fields" | "defaultSort"> {
  table: PgTable;
  idColumn: PgColumn;
  /** False for an id that cannot exist (malformed): answered as not found without a query. */
  isId(id: string): boolean;
  /** A dynamic select of the record's columns (`getDb().select(columns).from(table).$dynamic()`). */
  select(): PgSelect;
  /** The rows `auth` may see, as a condition (undefined: all). The feature's pages use the same one. */
  rule(auth: RecordAuth): SQL | undefined;
  toRecord(row: Row): RecordData;
}

export function tableCollection<Row>(spec: TableCollectionSpec<Row>): RecordCollection {
  const { id, name, fields, defaultSort } = spec;
  return {
    id,
    name,
    fields,
    defaultSort,
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
  };
}
