import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";

// Integration tests of saving a draft revision on a real database (PGlite, or PostgreSQL with
// TEST_DATABASE_URL), with the quotes kit: environment in tests/support/feature-test-env, clock,
// customers, drafts and outbox in tests/support/quote-fixtures.
const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/feature-test-env")).isolateQuotesTestEnv("quotes-draft"));

import { getDb } from "~/db/client.server";
import { quoteRevisions } from "~/db/schema/quotes";
import { failureStatus } from "~/lib/result";
import { LINE_A, T0, at, staff, aCustomer, draft, TOTAL_AB, value, expectRefused, draftQuote, quoteRow, eventsOf, useQuoteTestDatabase } from "../../../tests/support/quote-fixtures";
import { createQuote } from "./create.server";
import { saveQuoteDraft } from "./draft.server";
import type { QuoteDraftInput } from "./forms";
import { sendQuote } from "./lifecycle.server";
import { getQuoteForCustomer } from "./read.server";

useQuoteTestDatabase(dataDir);

describe("saveQuoteDraft", () => {
  it("stores the lines with the server's own totals and ignores any total sent by the client", async () => {
    const customer = await aCustomer();
    const { id } = value(await createQuote({ actor: staff }, T0));
    const input = draft(customer.email);
    const tampered = {
      ...input,
      totalCentavos: 1,
      subtotalCentavos: 1,
      lines: input.lines.map((line) => ({ ...line, netCentavos: 1, ivaCentavos: 1 })),
    } as unknown as QuoteDraftInput;

    expect(value(await saveQuoteDraft(id, tampered, staff, at(1)))).toEqual({ totalCentavos: TOTAL_AB, changed: true });

    const [revision] = await getDb().select().from(quoteRevisions).where(eq(quoteRevisions.quoteId, id));
    expect(revision).toMatchObject({ subtotalCentavos: 29_249, ivaCentavos: 4_680, totalCentavos: TOTAL_AB, leadTimeDays: 10, validityDays: 30, terms: "50 % de anticipo.", updatedAt: at(1) });
    expect(revision!.lines).toEqual([
      { description: "Brida de aluminio 6061", unit: "pieza", quantityMilli: 3_000, unitPriceCentavos: 3_333, discountBp: 750, netCentavos: 9_249, ivaCentavos: 1_480 },
      { description: "Solera de acero 1018", unit: "metro", quantityMilli: 2_000, unitPriceCentavos: 10_000, discountBp: 0, netCentavos: 20_000, ivaCentavos: 3_200 },
    ]);
    expect(await quoteRow(id)).toMatchObject({ customerName: "Ana Torres", customerEmail: customer.email, customerCompany: "Metalmecánica del Bajío", customerUserId: customer.id, updatedAt: at(1) });
    expect((await eventsOf(id)).map((event) => event.kind)).toEqual(["creada", "guardada"]);
  });

  it("saving the same draft again writes nothing and adds no second history entry", async () => {
    const customer = await aCustomer();
    const { id } = value(await createQuote({ actor: staff }, T0));
    expect(value(await saveQuoteDraft(id, draft(customer.email), staff, at(1)))).toEqual({ totalCentavos: TOTAL_AB, changed: true });
    const [before] = await getDb().select().from(quoteRevisions).where(eq(quoteRevisions.quoteId, id));

    // The same form posted again (the stored lines come back from jsonb with their keys reordered).
    expect(value(await saveQuoteDraft(id, draft(customer.email), staff, at(2)))).toEqual({ totalCentavos: TOTAL_AB, changed: false });
    expect((await eventsOf(id)).map((event) => event.kind)).toEqual(["creada", "guardada"]);
    const [after] = await getDb().select().from(quoteRevisions).where(eq(quoteRevisions.quoteId, id));
    expect(after).toEqual(before);
    expect((await quoteRow(id)).updatedAt).toEqual(at(1));

    // Any real change is saved, with its entry: the terms, the internal notes, the customer, a line.
    const steps: Record<string, unknown>[] = [{ terms: "Pago de contado." }, { notes: "Proveedor nuevo." }, { customerName: "Ana Torres Ruiz" }, { lines: [LINE_A] }];
    let overrides: Record<string, unknown> = {};
    for (const [index, step] of steps.entries()) {
      overrides = { ...overrides, ...step };
      expect(value(await saveQuoteDraft(id, draft(customer.email, overrides), staff, at(3 + index))).changed, JSON.stringify(step)).toBe(true);
    }
    expect((await eventsOf(id)).map((event) => event.kind)).toEqual(["creada", "guardada", "guardada", "guardada", "guardada", "guardada"]);
    expect(value(await saveQuoteDraft(id, draft(customer.email, overrides), staff, at(9))).changed).toBe(false);
    expect(await eventsOf(id)).toHaveLength(6);
  });

  it("does not give the quote to an account whose email is not confirmed", async () => {
    const unverified = await aCustomer("sin-confirmar", { verified: false });
    const { id } = await draftQuote(unverified.email);
    expect((await quoteRow(id)).customerUserId).toBeNull();
  });

  it("refuses an unknown quote", async () => {
    expectRefused(await saveQuoteDraft(randomUUID(), draft("x@ejemplo.mx"), staff, T0), 404, "No encontramos esa cotización.");
  });

  // BUG (draft.server.ts, saveQuoteDraft): `customerUserId = quote.customerUserId ?? findAccountId(…)`
  // keeps the account found for the previous email when staff correct the customer's email, so the
  // first customer keeps (and, once sent, sees) a quote addressed to someone else. Flip to it() when fixed.
  it("moves the quote to the new customer when staff correct the email of a draft", async () => {
    const wrong = await aCustomer("equivocada");
    const right = await aCustomer("correcta");
    const { id } = await draftQuote(wrong.email);
    expect((await quoteRow(id)).customerUserId).toBe(wrong.id);
    value(await saveQuoteDraft(id, draft(right.email), staff, T0));
    value(await sendQuote(id, staff, T0));
    expect(await getQuoteForCustomer(id, wrong.id, T0)).toBeNull();
    expect((await quoteRow(id)).customerUserId).toBe(right.id);
  });

  // BUG (db/schema/quotes.ts + totals/schema): totals are stored in `integer` columns (max
  // 2,147,483,647 centavos = $21,474,836.47) while parseMoney accepts up to $999,999,999.99 and
  // parseQuantity up to 9,999,999.999; a large quote makes PostgreSQL throw "integer out of range"
  // (a 500) instead of a Spanish refusal. Flip to it() when fixed.
  it("saves (or refuses in Spanish) a quote above $21.4 million", async () => {
    const customer = await aCustomer();
    const { id } = value(await createQuote({ actor: staff }, T0));
    const result = await saveQuoteDraft(id, draft(customer.email, { lines: [{ ...LINE_A, quantity: "1", unitPrice: "25,000,000", discount: "" }] }), staff, T0);
    expect(result.ok || failureStatus(result) === 400).toBe(true);
  });
});
