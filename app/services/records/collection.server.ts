import { sql, type SQL } from "drizzle-orm";
import type { RecordFieldMap } from "~/db/record-filter.server";

// What the record API engine (records.server.ts) needs from a collection. The feature that owns
// the data defines it (its table, its allow-list of fields, who sees which rows, how a row reads as
// a record) and exports it through its index.server.ts; the engine never imports a feature.

/** Who is asking: a guest (null), a customer (`users`) or a staff account (`_superusers`). */
export type RecordAuth = { collection: "users" | "_superusers"; id: string } | null;

/** A record as the collection reads it; the engine adds collectionId/collectionName and formats dates. */
export interface RecordData {
  id: string;
  created: Date;
  updated: Date;
  /** The other fields, by their API names; Date values are sent in PocketBase's date format. */
  [field: string]: unknown;
}

export interface RecordListQuery {
  /** The caller's compiled filter (parameterized SQL), or undefined for none. */
  where: SQL | undefined;
  /** ORDER BY terms, compiled from the caller's sort over the allow-list; never empty. */
  orderBy: SQL[];
  limit: number;
  offset: number;
  auth: RecordAuth;
}

export interface RecordCollection {
  /** PocketBase's collection id (`collectionId` in every record). */
  id: string;
  /** The collection's name in URLs and `collectionName`. */
  name: string;
  /**
   * The fields `filter` and `sort` may name: each an allow-listed column or SQL expression with
   * its type. Must hold `id`, `created` and `updated`.
   */
  fields: RecordFieldMap;
  /** The sort used when the caller gives none (PocketBase's syntax, e.g. "-created"). */
  defaultSort: string;
  /** A page of the records `auth` may list, matching `where` (the visibility rule is the collection's). */
  list(query: RecordListQuery): Promise<RecordData[]>;
  /** How many records `auth` may list match `where`. */
  count(query: Pick<RecordListQuery, "where" | "auth">): Promise<number>;
  /** One record `auth` may view, or null (unknown id, malformed id, or not visible to them). */
  view(id: string, auth: RecordAuth): Promise<RecordData | null>;
}

/**
 * The rule most collections share, as a WHERE condition: staff see every row, a customer the rows
 * `customer(id)` allows (the same condition the feature's pages use), a guest none.
 */
export function staffOrCustomerRule(auth: RecordAuth, customer: (userId: string) => SQL): SQL | undefined {
  if (auth?.collection === "_superusers") return undefined;
  if (auth?.collection === "users") return customer(auth.id);
  return sql`false`;
}
