import { eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { quoteMessages, quotes } from "~/db/schema/quotes";
import { nudgeMailWorker } from "~/services/mail/outbox.server";
import { isUuid } from "~/lib/uuid";
import { invalid, ok, type Result } from "~/lib/result";
import { getSiteFacts } from "~/features/site/index.server";
import { mailQuoteMessage } from "./quote-emails.server";
import { quoteNotFound } from "./records.server";
import type { Actor } from "./types";

// The customer ↔ staff conversation on a quote: each message is stored and announced by email to
// the other side (written to the outbox in the same transaction, so it is never lost).

export async function addQuoteMessage(quoteId: string, author: Actor, message: { body: string; fromStaff: boolean }, now = new Date()): Promise<Result> {
  const posted = await postQuoteMessage(quoteId, author, message, now);
  return posted.ok ? ok() : posted;
}

/** addQuoteMessage answering the new message's id (the record API answers the record it created). */
export async function postQuoteMessage(quoteId: string, author: Actor, message: { body: string; fromStaff: boolean }, now = new Date()): Promise<Result<{ id: string }>> {
  if (!isUuid(quoteId)) return quoteNotFound();
  const { body, fromStaff } = message;
  // Read before the transaction: on PGlite a read outside a running transaction waits for it.
  const facts = await getSiteFacts();
  const result = await getDb().transaction(async (tx): Promise<Result<{ id: string }>> => {
    const [quote] = await tx.select().from(quotes).where(eq(quotes.id, quoteId)).limit(1);
    if (!quote) return quoteNotFound();
    // A customer writes only on their own quote; anyone else learns nothing about it.
    if (!fromStaff && quote.customerUserId !== author.id) return quoteNotFound();
    if (fromStaff && !quote.customerEmail) return invalid("Falta el correo del cliente: guárdelo en la cotización antes de escribirle.");
    const [stored] = await tx.insert(quoteMessages).values({ quoteId, authorId: author.id, authorName: author.name, fromStaff, body, createdAt: now }).returning({ id: quoteMessages.id });
    await mailQuoteMessage(tx, facts, { ...quote, totalCentavos: 0, revision: quote.sentRevision ?? quote.currentRevision }, { fromStaff, author: author.name, body });
    return ok({ id: stored!.id });
  });
  if (result.ok) nudgeMailWorker();
  return result;
}
