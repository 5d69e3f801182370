import { and, inArray, lt, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { quotes } from "~/db/schema/quotes";
import { recordQuoteEvent } from "./records.server";
import { actionTarget, statusesAllowing } from "./states";

// The expiry job writes down what readers already see (a sent quote past its date reads as
// "vencida" everywhere, see effectiveStatus): the stored status, expiredAt and an event.

export const EXPIRY_LOCK_KEY = 7_302_026;

const SYSTEM = { id: null, name: "Sistema" };

/**
 * Marks sent quotes past their date as "vencida". Safe with several processes: a transaction-level
 * advisory lock lets one of them do it at a time; the others skip this round.
 */
export async function expireDueQuotes(now = new Date()): Promise<number> {
  // One row in the table: enviada → vencida.
  const from = statusesAllowing("vencer", "system");
  const to = actionTarget("vencer");
  return getDb().transaction(async (tx) => {
    const result = await tx.execute(sql`select pg_try_advisory_xact_lock(${EXPIRY_LOCK_KEY}) as locked`);
    const [lock] = (result as unknown as { rows: { locked: boolean }[] }).rows;
    if (!lock?.locked) return 0;
    const expired = await tx
      .update(quotes)
      .set({ status: to, expiredAt: now, updatedAt: now })
      .where(and(inArray(quotes.status, from), lt(quotes.validUntil, now)))
      .returning({ id: quotes.id, revision: quotes.sentRevision });
    for (const quote of expired) {
      await recordQuoteEvent(tx, { quoteId: quote.id, actor: SYSTEM, now, kind: to, revision: quote.revision ?? undefined, fromStatus: from[0], toStatus: to });
    }
    return expired.length;
  });
}
