import { and, eq, inArray, isNotNull, sql, type SQL } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { quoteMessages, quotes } from "~/db/schema/quotes";

// Who sees which quote, written once: the customer's pages (/quotes, /quotes/:id, the PDF) and the
// record API's `cotizaciones` and `mensajes` collections all filter through these conditions.

/**
 * The quotes a customer sees: their own, and only once sent (a draft that was never sent does not
 * exist for them, exactly as on /quotes).
 */
export function quoteVisibleToCustomer(userId: string): SQL {
  return and(eq(quotes.customerUserId, userId), isNotNull(quotes.sentRevision))!;
}

/** The messages a customer sees: those of the quotes they see. */
export function quoteMessageVisibleToCustomer(userId: string): SQL {
  return inArray(quoteMessages.quoteId, getDb().select({ id: quotes.id }).from(quotes).where(quoteVisibleToCustomer(userId)));
}

/**
 * effectiveStatus (states.ts) in SQL, for filters and sorts: a sent quote past its date reads
 * "vencida" before the expiry job writes it.
 */
export const effectiveStatusSql = sql<string>`(case when ${quotes.status} = 'enviada' and ${quotes.validUntil} < now() then 'vencida' else ${quotes.status} end)`;
