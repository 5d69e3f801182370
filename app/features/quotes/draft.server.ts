import { isDeepStrictEqual } from "node:util";
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

export interface SavedDraft {
  totalCentavos: number;
  /** False when the draft already held exactly this: nothing was written and no history entry added. */
  changed: boolean;
}

/** Saves the draft revision; a sent revision is never edited in place. Saving what is already stored changes nothing. */
export async function saveQuoteDraft(quoteId: string, input: QuoteDraftInput, actor: Actor, now = new Date()): Promise<Result<SavedDraft>> {
  if (!isUuid(quoteId)) return quoteNotFound();
  return getDb().transaction(async (tx): Promise<Result<SavedDraft>> => {
    const found = await lockQuoteWithNewestRevision(tx, quoteId);
    if (!found) return quoteNotFound();
    const { quote, revision } = found;
    const check = checkQuoteAction({ action: "guardar", who: "staff", status: effectiveStatus(quote.status, quote.validUntil, now), newestSent: Boolean(revision.sentAt) });
    if (!check.allowed) return conflict("Esta revisión ya se envió y no se puede editar. Cree una revisión nueva para cambiarla.");
    const priced = pricedLines(input.lines);
    // A corrected email moves the quote to that email's account (or to none yet).
    const customerUserId =
      quote.customerEmail.toLowerCase() === input.customerEmail.toLowerCase() && quote.customerUserId
        ? quote.customerUserId
        : await findAccountId(tx, input.customerEmail);
    const customerCompany = input.customerCompany || null;
    const unchanged =
      // Key order does not matter: the lines come back from jsonb with their keys reordered.
      isDeepStrictEqual(revision.lines, priced.lines) &&
      revision.leadTimeDays === input.leadTimeDays &&
      (input.validityDays === undefined || revision.validityDays === input.validityDays) &&
      revision.terms === input.terms &&
      revision.notes === input.notes &&
      quote.customerName === input.customerName &&
      quote.customerEmail === input.customerEmail &&
      quote.customerCompany === customerCompany &&
      quote.customerUserId === customerUserId;
    // "Guardar borrador" twice in a row: the second is not a new version, so no second history entry.
    if (unchanged) return ok({ totalCentavos: revision.totalCentavos, changed: false });
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
    await tx
      .update(quotes)
      .set({ customerName: input.customerName, customerEmail: input.customerEmail, customerCompany, customerUserId, updatedAt: now })
      .where(eq(quotes.id, quoteId));
    await recordQuoteEvent(tx, { quoteId, actor, now, kind: "guardada", revision: revision.revision, detail: `Total ${priced.totalCentavos} centavos` });
    return ok({ totalCentavos: priced.totalCentavos, changed: true });
  });
}
