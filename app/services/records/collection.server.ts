import { sql, type SQL } from "drizzle-orm";
import type { RecordFieldMap } from "~/db/record-filter.server";
import type { Failure, Result } from "~/lib/result";
import type { UploadedFile } from "~/services/files/multipart.server";

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

/** Who writes: the signed-in account with the name the domain records for it, or a guest (null). */
export type RecordWriter = { auth: NonNullable<RecordAuth>; name: string } | null;

/** A create/update body: its fields (modifiers such as `imagenes+` kept in the key) and its files by field. */
export interface RecordWriteInput {
  data: Record<string, unknown>;
  files: Record<string, UploadedFile[]>;
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
  /** Relation fields (`expand`): field → the collection its ids belong to, e.g. `{cliente: "users"}`. */
  relations?: Readonly<Record<string, string>>;
  /** PocketBase's superuser-only collection (no list/view rule): anyone but staff gets its 403. */
  superusersOnly?: boolean;
  /**
   * A read refused before it runs, from the request's query (e.g. `?draft=true` asked by a guest):
   * the engine answers the failure's status with PocketBase's body. Absent: none.
   */
  refuseRead?(params: URLSearchParams, auth: RecordAuth): Failure | null | Promise<Failure | null>;
  /** A page of the records `auth` may list, matching `where` (the visibility rule is the collection's). */
  list(query: RecordListQuery): Promise<RecordData[]>;
  /** How many records `auth` may list match `where`. */
  count(query: Pick<RecordListQuery, "where" | "auth">): Promise<number>;
  /** One record `auth` may view, or null (unknown id, malformed id, or not visible to them). */
  view(id: string, auth: RecordAuth): Promise<RecordData | null>;
  /**
   * Writes, through the feature's domain commands (docs/decisions/0015; engine in writes.server.ts).
   * Absent: nobody may. Each answers the record's id or a Failure the engine turns into
   * PocketBase's body (writeFailureAnswer there).
   */
  create?(input: RecordWriteInput, writer: RecordWriter): Promise<Result<string>>;
  update?(id: string, input: RecordWriteInput, writer: RecordWriter): Promise<Result<string>>;
  remove?(id: string, writer: RecordWriter): Promise<Result>;
  /**
   * For realtime events (app/services/realtime): the record as it is now, read without a rule
   * (null when it is gone), and which of `auths` its view rule lets see it — checked in one query
   * against the stored row, or against `deletedRow` (the row a delete left in deleted_records).
   */
  events?: RecordEventAccess;
}

export interface RecordEventAccess {
  read(id: string): Promise<RecordData | null>;
  whoMayView(target: { id: string } | { deletedRow: unknown }, auths: readonly NonNullable<RecordAuth>[], guest: boolean): Promise<{ guest: boolean; auths: boolean[] }>;
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
