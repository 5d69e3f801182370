import { and, eq, sql, type SQL } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import type { RecordFieldMap } from "~/db/record-filter.server";
import { user } from "~/db/schema/auth";
import type { RecordAuth, RecordData } from "~/services/records/collection.server";
import { tableCollection } from "~/services/records/table-collection.server";
import { AUTH_COLLECTIONS } from "~/services/records/tokens.server";
import { CUSTOMER_ROLE } from "./auth.server";
import { roleOfKind } from "./api-sessions.server";

// The accounts as the record API's auth collections (docs/decisions/0014 §4, 0018), read only:
// `users` are the customers, `_superusers` the staff; the two never overlap (the account's role).
// - `users`: a customer sees only their own record, staff every customer, a guest none (an empty
//   list and a 404, as PocketBase applies a rule as a filter).
// - `_superusers`: PocketBase's superuser-only collection — a guest or a customer gets its 403
//   (`superusersOnly`); a staff account sees only its own record here, not the other staff's.
// The record is PocketBase's auth record: `email` (always visible to whoever may see the record:
// its owner or staff), `emailVisibility` false, `name`, `verified`, `avatar` "" (Forja keeps no
// avatars). Nothing else of the account (company, phone, role, block) is a field or filterable.

/** Forja's account ids: better-auth's random ids (letters, digits, `-` and `_`). */
const isAccountId = (value: string) => /^[A-Za-z0-9_-]{1,64}$/.test(value);

const AUTH_FIELDS: RecordFieldMap = {
  id: { column: user.id, type: "text" },
  created: { column: user.createdAt, type: "date" },
  updated: { column: user.updatedAt, type: "date" },
  email: { column: user.email, type: "text" },
  emailVisibility: { column: sql`false`, type: "bool" },
  name: { column: user.name, type: "text" },
  verified: { column: user.emailVerified, type: "bool" },
  avatar: { column: sql`''::text`, type: "text" },
};

const recordColumns = {
  id: user.id,
  email: user.email,
  name: user.name,
  verified: user.emailVerified,
  created: user.createdAt,
  updated: user.updatedAt,
};

const selectRecords = () => getDb().select(recordColumns).from(user);
type AccountRecordRow = Awaited<ReturnType<typeof selectRecords>>[number];

function toRecord({ id, email, name, verified, created, updated }: AccountRecordRow): RecordData {
  return { id, email, emailVisibility: false, name, verified, avatar: "", created, updated };
}

/** Customers: a customer sees their own account, staff all customers, a guest none. */
function customersVisibleTo(auth: RecordAuth): SQL {
  const customers = eq(user.role, CUSTOMER_ROLE);
  if (auth?.collection === "_superusers") return customers;
  if (auth?.collection === "users") return and(customers, eq(user.id, auth.id))!;
  return sql`false`;
}

/** Staff accounts: each staff account sees its own (guests and customers never get this far: 403). */
function staffVisibleTo(auth: RecordAuth): SQL {
  if (auth?.collection === "_superusers") return and(roleOfKind("staff"), eq(user.id, auth.id))!;
  return sql`false`;
}

export const usersCollection = tableCollection<AccountRecordRow>({
  id: AUTH_COLLECTIONS.users.id,
  name: AUTH_COLLECTIONS.users.name,
  fields: AUTH_FIELDS,
  defaultSort: "-created",
  table: user,
  idColumn: user.id,
  isId: isAccountId,
  select: () => selectRecords().$dynamic(),
  rule: customersVisibleTo,
  toRecord,
});

export const superusersCollection = {
  ...tableCollection<AccountRecordRow>({
    id: AUTH_COLLECTIONS._superusers.id,
    name: AUTH_COLLECTIONS._superusers.name,
    fields: AUTH_FIELDS,
    defaultSort: "-created",
    table: user,
    idColumn: user.id,
    isId: isAccountId,
    select: () => selectRecords().$dynamic(),
    rule: staffVisibleTo,
    toRecord,
  }),
  superusersOnly: true as const,
};
