import { eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { quoteRevisions, quotes } from "~/db/schema/quotes";
import { isUuid } from "~/lib/uuid";
import { conflict, ok, type Result } from "~/lib/result";
import type { QuoteDraftInput } from "./forms";
import { findAccountId, lockQuoteWithNewestRevision, quoteNotFound, recordQuoteEvent } from "./records.server";
import { checkQuoteAction, effectiveStatus } from "./states";
import { computeTotals } from "./totals";
import type { Actor, QuoteLine } from "./types";

// Saving the draft revision of a quote. Totals are always computed here: whatever the browser
// showed (or posted) is recalculated, so the stored figures are the server's.

function pricedLines(input: QuoteDraftInput["lines"]): { lines: QuoteLine[]; subtotalCentavos: number; ivaCentavos: number; totalCentavos: number } {
  const raw = input.map((line) => ({
    description: line.description,
    unit: line.unit,
    quantityMilli: line.quantity,
    unitPriceCentavos: line.unitPrice,
    discountBp: line.discount,
  }));
  const { lines: amounts, totals } = computeTotals(raw);
  return { lines: raw.map((line, index) => ({ ...line, ...amounts[index]! })), ...totals };
}

/** Saves the draft revision; a sent revision is never edited in place. */
export async function saveQuoteDraft(quoteId: string, input: QuoteDraftInput, actor: Actor, now = new Date()): Promise<Result<{ totalCentavos: number }>> {
  if (!isUuid(quoteId)) return quoteNotFound();
  return getDb().transaction(async (tx): Promise<Result<{ totalCentavos: number }>> => {
    const found = await lockQuoteWithNewestRevision(tx, quoteId);
    if (!found) return quoteNotFound();
    const { quote, revision } = found;
    const check = checkQuoteAction({ action: "guardar", who: "staff", status: effectiveStatus(quote.status, quote.validUntil, now), newestSent: Boolean(revision.sentAt) });
    if (!check.allowed) return conflict("Esta revisión ya se envió y no se puede editar. Cree una revisión nueva para cambiarla.");
    const priced = pricedLines(input.lines);
    await tx
      .update(quoteRevisions)
      .set({
        lines: priced.lines,
        leadTimeDays: input.leadTimeDays,
        validityDays: input.validityDays,
        terms: input.terms,
        notes: input.notes,
        subtotalCentavos: priced.subtotalCentavos,
        ivaCentavos: priced.ivaCentavos,
        totalCentavos: priced.totalCentavos,
        updatedAt: now,
      })
      .where(eq(quoteRevisions.id, revision.id));
    // A corrected email moves the quote to that email's account (or to none yet).
    const customerUserId =
      quote.customerEmail.toLowerCase() === input.customerEmail.toLowerCase() && quote.customerUserId
        ? quote.customerUserId
        : await findAccountId(tx, input.customerEmail);
    await tx
      .update(quotes)
      .set({ customerName: input.customerName, customerEmail: input.customerEmail, customerCompany: input.customerCompany || null, customerUserId, updatedAt: now })
      .where(eq(quotes.id, quoteId));
    await recordQuoteEvent(tx, { quoteId, actor, now, kind: "guardada", revision: revision.revision, detail: `Total ${priced.totalCentavos} centavos` });
    return ok({ totalCentavos: priced.totalCentavos });
  });
}
