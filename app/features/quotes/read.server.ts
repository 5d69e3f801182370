import { and, asc, eq, type SQL } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { quoteEvents, quoteMessages, quoteRevisions, quotes } from "~/db/schema/quotes";
import { isUuid } from "~/lib/uuid";
import { compareSentRevisions } from "./compare-revisions";
import { effectiveStatus } from "./states";
import { quoteVisibleToCustomer } from "./visibility.server";

// One quote as staff and as its customer see it. Both read the effective status (a sent quote
// past its date is "vencida" before the job writes it). An unknown quote reads as null.

/** The quote with everything it holds, if it exists and matches `visible` (who may read it). */
async function loadQuote(quoteId: string, visible?: SQL) {
  if (!isUuid(quoteId)) return null;
  const db = getDb();
  const [quote] = await db
    .select()
    .from(quotes)
    .where(and(eq(quotes.id, quoteId), visible))
    .limit(1);
  if (!quote) return null;
  const [revisions, events, messages] = await Promise.all([
    db.select().from(quoteRevisions).where(eq(quoteRevisions.quoteId, quoteId)).orderBy(asc(quoteRevisions.revision)),
    db.select().from(quoteEvents).where(eq(quoteEvents.quoteId, quoteId)).orderBy(asc(quoteEvents.createdAt)),
    db.select().from(quoteMessages).where(eq(quoteMessages.quoteId, quoteId)).orderBy(asc(quoteMessages.createdAt)),
  ]);
  return { quote, revisions, events, messages };
}

function withoutNotes<T extends { notes: string }>(revision: T): Omit<T, "notes"> {
  const { notes: _notes, ...rest } = revision;
  return rest;
}

/** The customer's view: only their own quotes, only what was sent. Anything else is "not found". */
export async function getQuoteForCustomer(quoteId: string, userId: string, now = new Date()) {
  const loaded = await loadQuote(quoteId, quoteVisibleToCustomer(userId));
  if (!loaded) return null;
  const { quote, revisions, messages, events } = loaded;
  const visible = revisions.filter((revision) => revision.sentAt);
  const current = visible.find((revision) => revision.revision === quote.sentRevision)!;
  // Only what the customer should see: no staff ids, no internal revision in preparation.
  const { createdById: _createdBy, acceptedIp: _ip, acceptedUserAgent: _ua, currentRevision: _draft, ...visibleQuote } = quote;
  return {
    quote: { ...visibleQuote, status: effectiveStatus(quote.status, quote.validUntil, now) },
    // Internal notes are for staff only.
    revision: withoutNotes(current),
    revisions: visible.map(({ revision, sentAt, totalCentavos }) => ({ revision, sentAt, totalCentavos })),
    comparisons: compareSentRevisions(visible),
    messages: messages.map(({ authorId: _author, ...message }) => message),
    history: events
      .filter((item) => ["enviada", "aceptada", "rechazada", "vencida", "cancelada"].includes(item.kind))
      .map(({ actorId: _actor, ...item }) => item),
  };
}

export async function getQuoteForStaff(quoteId: string, now = new Date()) {
  const loaded = await loadQuote(quoteId);
  if (!loaded) return null;
  const { quote, revisions } = loaded;
  return {
    ...loaded,
    quote: { ...quote, status: effectiveStatus(quote.status, quote.validUntil, now) },
    current: revisions.find((revision) => revision.revision === quote.currentRevision)!,
    comparisons: compareSentRevisions(revisions),
  };
}
