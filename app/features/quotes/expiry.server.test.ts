import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";

// Integration tests of expiry (the job and the effective status everywhere) on a real database
// (PGlite, or PostgreSQL with TEST_DATABASE_URL), with the quotes kit: environment in
// tests/support/feature-test-env, clock, customers, drafts and outbox in
// tests/support/quote-fixtures.
const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/feature-test-env")).isolateQuotesTestEnv("quotes-expiry"));

import { getDb } from "~/db/client.server";
import { quoteEvents } from "~/db/schema/quotes";
import { T0, at, aCustomer, TOTAL_AB, value, draftQuote, sentQuote, quoteRow, eventsOf, useQuoteTestDatabase } from "../../../tests/support/quote-fixtures";
import { expireDueQuotes } from "./expiry.server";
import { acceptQuote } from "./lifecycle.server";
import { listQuotesForCustomer, listQuotesForStaff } from "./list.server";
import { getQuoteForCustomer, getQuoteForStaff } from "./read.server";

useQuoteTestDatabase(dataDir);

describe("expiry", () => {
  it("expireDueQuotes marks sent quotes past their date as vencida with an event, once", async () => {
    const customer = await aCustomer();
    const due = await sentQuote(customer.email, { validityDays: "10" });
    const dueToo = await sentQuote(customer.email, { validityDays: "20" });
    const notYet = await sentQuote(customer.email, { validityDays: "60" });
    const neverSent = await draftQuote(customer.email);
    const accepted = await sentQuote(customer.email, { validityDays: "1" });
    value(await acceptQuote(accepted.id, customer.actor, { fullName: "Ana Torres", ip: "", userAgent: "" }, T0));

    const now = at(25);
    expect(await expireDueQuotes(now)).toBe(2);
    for (const id of [due.id, dueToo.id]) {
      expect(await quoteRow(id)).toMatchObject({ status: "vencida", expiredAt: now, updatedAt: now });
      expect((await eventsOf(id)).at(-1)).toMatchObject({ kind: "vencida", revision: 1, fromStatus: "enviada", toStatus: "vencida", actorId: null, actorName: "Sistema" });
    }
    expect((await quoteRow(notYet.id)).status).toBe("enviada");
    expect((await quoteRow(neverSent.id)).status).toBe("borrador");
    expect((await quoteRow(accepted.id)).status).toBe("aceptada");

    // A second run finds nothing and writes nothing.
    const events = (await getDb().select().from(quoteEvents)).length;
    expect(await expireDueQuotes(now)).toBe(0);
    expect(await getDb().select().from(quoteEvents)).toHaveLength(events);
    // The exact instant of validity is not past it.
    expect(await expireDueQuotes(at(60))).toBe(0);
    expect(await expireDueQuotes(new Date(at(60).getTime() + 1))).toBe(1);
  });

  it("two runs at once expire each quote once", async () => {
    const customer = await aCustomer();
    for (let index = 0; index < 4; index += 1) await sentQuote(customer.email, { validityDays: "5" });
    const counts = await Promise.all([expireDueQuotes(at(6)), expireDueQuotes(at(6))]);
    expect(counts[0] + counts[1]).toBe(4);
    expect((await getDb().select().from(quoteEvents).where(eq(quoteEvents.kind, "vencida"))).length).toBe(4);
  });

  it("reads a sent quote past its date as vencida everywhere, before the job runs", async () => {
    const customer = await aCustomer();
    const expiring = await sentQuote(customer.email, { validityDays: "10", customerName: "Expira Pronto" });
    const valid = await sentQuote(customer.email, { validityDays: "60", customerName: "Sigue Vigente" });
    const before = at(10);
    const after = new Date(at(10).getTime() + 1);

    expect((await getQuoteForCustomer(expiring.id, customer.id, before))!.quote.status).toBe("enviada");
    expect((await getQuoteForCustomer(expiring.id, customer.id, after))!.quote.status).toBe("vencida");
    expect((await getQuoteForStaff(expiring.id, after))!.quote.status).toBe("vencida");
    expect((await quoteRow(expiring.id)).status).toBe("enviada");

    const list = await listQuotesForCustomer(customer.id, after);
    expect(Object.fromEntries(list.map((row) => [row.id, row.status]))).toEqual({ [expiring.id]: "vencida", [valid.id]: "enviada" });

    const idsWith = async (status: string, now: Date) => (await listQuotesForStaff({ status, page: 1 }, now)).rows.map((row) => row.id);
    expect(await idsWith("vencida", before)).toEqual([]);
    expect((await idsWith("enviada", before)).sort()).toEqual([expiring.id, valid.id].sort());
    expect(await idsWith("vencida", after)).toEqual([expiring.id]);
    expect(await idsWith("enviada", after)).toEqual([valid.id]);
    const filtered = await listQuotesForStaff({ status: "vencida", page: 1 }, after);
    expect(filtered.total).toBe(1);
    expect(filtered.rows[0]).toMatchObject({ status: "vencida", customerName: "Expira Pronto", totalCentavos: TOTAL_AB });

    // Once the job has run, the same filters give the same answer.
    expect(await expireDueQuotes(after)).toBe(1);
    expect(await idsWith("vencida", after)).toEqual([expiring.id]);
    expect(await idsWith("enviada", after)).toEqual([valid.id]);
  });
});
