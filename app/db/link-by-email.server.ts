import { sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { getDb } from "./client.server";

/**
 * Records made without an account (a quote request, a guest order, a quote issued to an email) join
 * the account that proves it owns their email: every row of `table` whose `email` matches, in any
 * case, and that no account owns yet gets `owner` = `userId`. Returns how many rows joined.
 */
export async function linkRowsByEmail(table: PgTable, columns: { owner: PgColumn; email: PgColumn }, userId: string, email: string): Promise<number> {
  const result = await getDb().execute(sql`
    update ${table} set ${sql.identifier(columns.owner.name)} = ${userId}
    where ${columns.owner} is null and lower(${columns.email}) = ${email.toLowerCase()}
    returning 1`);
  return (result as unknown as { rows: unknown[] }).rows.length;
}
