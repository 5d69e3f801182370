import { and, eq, sql } from "drizzle-orm";
import type { DbTransaction } from "~/db/client.server";
import { user } from "~/db/schema/auth";
import { quoteEvents, quoteRevisions, quotes } from "~/db/schema/quotes";
import { notFoundResult } from "~/lib/result";
import type { Actor } from "./types";

// Row helpers shared by the quote commands (create, draft, lifecycle, expiry, messages): the
// history entry, the account an email belongs to, the locked quote with its newest revision.

export const QUOTE_NOT_FOUND = "No encontramos esa cotización.";

/** "No such quote", also for a quote this person may not know exists. */
export const quoteNotFound = () => notFoundResult(QUOTE_NOT_FOUND);

export type QuoteRow = typeof quotes.$inferSelect;
export type QuoteRevisionRow = typeof quoteRevisions.$inferSelect;

export async function recordQuoteEvent(
  tx: DbTransaction,
  entry: { quoteId: string; actor: Actor; now: Date; kind: string; revision?: number; fromStatus?: string; toStatus?: string; detail?: string },
): Promise<void> {
  const { quoteId, actor, now, ...values } = entry;
  await tx.insert(quoteEvents).values({ quoteId, actorId: actor.id, actorName: actor.name, createdAt: now, ...values });
}

/** The account that confirmed this email, if any: a quote is only ever given to a verified owner. */
export async function findAccountId(tx: DbTransaction, email: string): Promise<string | null> {
  const [row] = await tx.select({ id: user.id }).from(user).where(and(eq(sql`lower(${user.email})`, email.toLowerCase()), eq(user.emailVerified, true))).limit(1);
  return row?.id ?? null;
}

/** The quote locked for update (concurrent commands on it wait their turn) and its newest revision. */
export async function lockQuoteWithNewestRevision(tx: DbTransaction, quoteId: string): Promise<{ quote: QuoteRow; revision: QuoteRevisionRow } | null> {
  const [quote] = await tx.select().from(quotes).where(eq(quotes.id, quoteId)).for("update").limit(1);
  if (!quote) return null;
  const [revision] = await tx
    .select()
    .from(quoteRevisions)
    .where(and(eq(quoteRevisions.quoteId, quoteId), eq(quoteRevisions.revision, quote.currentRevision)))
    .limit(1);
  return { quote, revision: revision! };
}

export async function revisionTotal(tx: DbTransaction, quoteId: string, revision: number): Promise<number> {
  const [row] = await tx
    .select({ total: quoteRevisions.totalCentavos })
    .from(quoteRevisions)
    .where(and(eq(quoteRevisions.quoteId, quoteId), eq(quoteRevisions.revision, revision)))
    .limit(1);
  return row?.total ?? 0;
}
