import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";

// `expand` on the real database with the real collections: a related record appears only when the
// caller's own rule for the related collection lets them see it.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/feature-test-env")).isolateQuotesTestEnv("records-expand"));

import { getDb } from "~/db/client.server";
import { quotes } from "~/db/schema/quotes";
import { aCustomer, aSolicitud, createTestQuote, useQuoteTestDatabase } from "../../../tests/support/quote-fixtures";
import { TEST_STAFF } from "../../../tests/support/auth-requests";
import { expandRecords, parseExpandParam } from "./expand.server";
import { findRecordCollection, toRecordJson } from "./records.server";
import { recordCollections } from "./registry.server";

useQuoteTestDatabase(dataDir);

describe("parseExpandParam", () => {
  it("reads paths, drops blanks and repeats, and stops at six levels", () => {
    expect(parseExpandParam("cliente, cotizacion.cliente,,cliente")).toEqual([["cliente"], ["cotizacion", "cliente"]]);
    expect(parseExpandParam("a.b.c.d.e.f.g.h")).toEqual([["a", "b", "c", "d", "e", "f"]]);
    expect(parseExpandParam(null)).toEqual([]);
  });
});

describe("expandRecords", () => {
  it("expands a relation for whoever may see the related record, and leaves it out for whoever may not", async () => {
    const customer = await aCustomer("expand");
    // A request sent by a visitor who never signed in: staff see it, the customer does not.
    const solicitud = await aSolicitud({ userId: null });
    const quote = await createTestQuote({ name: customer.name, email: customer.email, userId: customer.id });
    await getDb().update(quotes).set({ solicitudId: solicitud.id }).where(eq(quotes.id, quote.id));

    const cotizaciones = findRecordCollection(recordCollections(), "cotizaciones")!;
    const as = async (auth: Parameters<typeof expandRecords>[4]) => {
      const record = await cotizaciones.view(quote.id, auth);
      const json = toRecordJson(cotizaciones, record!, null);
      await expandRecords(recordCollections(), cotizaciones, [json], parseExpandParam("solicitud,cliente"), auth);
      return json.expand as Record<string, { id: string }> | undefined;
    };

    const forCustomer = await as({ collection: "users", id: customer.id });
    expect(forCustomer?.cliente?.id).toBe(customer.id);
    expect(forCustomer?.solicitud).toBeUndefined();

    const forStaff = await as({ collection: "_superusers", id: TEST_STAFF.id });
    expect(forStaff?.solicitud?.id).toBe(solicitud.id);
    expect(forStaff?.cliente?.id).toBe(customer.id);
  });
});
