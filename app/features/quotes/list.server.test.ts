import { describe, expect, it, vi } from "vitest";

// Integration tests of the staff list of quotes on a real database (PGlite, or PostgreSQL with
// TEST_DATABASE_URL), with the quotes kit: environment in tests/support/feature-test-env, clock,
// customers, drafts and outbox in tests/support/quote-fixtures.
const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/feature-test-env")).isolateQuotesTestEnv("quotes-list"));

import { T0, aCustomer, draftQuote, sentQuote, useQuoteTestDatabase } from "../../../tests/support/quote-fixtures";
import { listQuotesForStaff } from "./list.server";

useQuoteTestDatabase(dataDir);

describe("listQuotesForStaff", () => {
  it("searches by number, customer and email, and filters by status", async () => {
    const customer = await aCustomer();
    const first = await sentQuote(customer.email, { customerName: "Industrias Querétaro" });
    await draftQuote("compras@otra.mx", { customerName: "Otra Empresa" });
    expect((await listQuotesForStaff({ q: "querétaro", page: 1 }, T0)).rows.map((row) => row.id)).toEqual([first.id]);
    expect((await listQuotesForStaff({ q: first.number, page: 1 }, T0)).rows.map((row) => row.id)).toEqual([first.id]);
    expect((await listQuotesForStaff({ q: "compras@otra", page: 1 }, T0)).total).toBe(1);
    expect((await listQuotesForStaff({ status: "borrador", page: 1 }, T0)).rows.map((row) => row.customerName)).toEqual(["Otra Empresa"]);
    expect((await listQuotesForStaff({ page: 1 }, T0)).total).toBe(2);
  });
});
