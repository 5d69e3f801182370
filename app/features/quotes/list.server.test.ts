import { describe, expect, it, vi } from "vitest";

// Integration tests of the staff list of quotes on a real database (PGlite, or PostgreSQL with
// TEST_DATABASE_URL). The shared kit (clock, customers, drafts, outbox) is in
// tests/support/quote-fixtures: every call gets its clock (`now`) explicitly, and mail is only
// written to the outbox (no worker runs), so the tests read the outbox table.

// Set before ~/lib/env.server is first read (getEnv() caches it).
const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("quotes-list", { unset: ["PORT", "GOOGLE_CLIENT_ID", "MICROSOFT_CLIENT_ID", "OIDC_ISSUER"], set: { MAIL_STAFF_TO: "ventas@forja.test, direccion@forja.test" } }));

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
