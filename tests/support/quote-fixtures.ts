import { linkQuotesToUser } from "~/features/quotes/link.server";
import { createQuote, saveQuoteDraft, sendQuote, type Actor } from "~/features/quotes/quotes.server";
import { DEFAULT_TERMS, type QuoteDraftInput } from "~/features/quotes/forms";

// Quotes for integration tests, made only through the domain functions staff use (create → save
// draft → send), so they are exactly what the portal would hold.

export const STAFF_ACTOR: Actor = { id: null, name: "Laura Méndez" };

/** Accents on purpose (the PDF must keep them), and an awkward price: 3 × $33.33 with 7.5 % off. */
export const SAMPLE_LINES: QuoteDraftInput["lines"] = [
  { description: "Diseño de ménsula para línea de ensamble", quantity: 1_000, unit: "servicio", unitPrice: 1_250_000, discount: 0 },
  { description: "Maquinado CNC en aluminio 6061, acabado anodizado", quantity: 3_000, unit: "pieza", unitPrice: 3_333, discount: 750 },
];

export const INTERNAL_NOTE = "Nota interna: margen 35 %, proveedor de anodizado en Celaya";

export function draftInput(customer: { name: string; email: string; company?: string }, overrides: Partial<QuoteDraftInput> = {}): QuoteDraftInput {
  return {
    intent: "guardar",
    customerName: customer.name,
    customerEmail: customer.email,
    customerCompany: customer.company,
    lines: SAMPLE_LINES,
    leadTimeDays: 12,
    validityDays: 30,
    terms: DEFAULT_TERMS,
    notes: INTERNAL_NOTE,
    ...overrides,
  };
}

function must<T>(result: { ok: true; value: T } | { ok: false; message: string }): T {
  if (!result.ok) throw new Error(result.message);
  return result.value;
}

/**
 * A quote saved (and, unless `send: false`, sent) to this customer. With `userId` it is linked to
 * that account the way confirming the email links it, so an unconfirmed test account owns it too.
 */
export async function createTestQuote(
  customer: { name: string; email: string; company?: string; userId?: string },
  options: { send?: boolean; now?: Date; overrides?: Partial<QuoteDraftInput> } = {},
): Promise<{ id: string; number: string; totalCentavos: number }> {
  const now = options.now ?? new Date();
  const { id, number } = must(await createQuote({ actor: STAFF_ACTOR }, now));
  const { totalCentavos } = must(await saveQuoteDraft(id, draftInput(customer, options.overrides), STAFF_ACTOR, now));
  if (options.send !== false) must(await sendQuote(id, STAFF_ACTOR, now));
  if (customer.userId) await linkQuotesToUser(customer.userId, customer.email);
  return { id, number, totalCentavos };
}
