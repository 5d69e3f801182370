import { and, eq, isNull, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { quotes } from "~/db/schema/quotes";

/** Quotes issued to an email join the account that confirms that email. */
export async function linkQuotesToUser(userId: string, email: string): Promise<number> {
  const linked = await getDb()
    .update(quotes)
    .set({ customerUserId: userId })
    .where(and(isNull(quotes.customerUserId), eq(sql`lower(${quotes.customerEmail})`, email.toLowerCase())))
    .returning({ id: quotes.id });
  return linked.length;
}
