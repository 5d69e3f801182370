import { describe, expect, it, vi } from "vitest";

// Integration tests of the staff list of quotes on a real database (PGlite, or PostgreSQL with
// TEST_DATABASE_URL), with the quotes kit: environment in tests/support/feature-test-env, clock,
// customers, drafts and outbox in tests/support/quote-fixtures.
const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/feature-test-env")).isolateQuotesTestEnv("quotes-list"));

import { T0, aCustomer, aSolicitud, at, draft, draftQuote, sentQuote, staff, useQuoteTestDatabase, value } from "../../../tests/support/quote-fixtures";
import { createQuote } from "./create.server";
import { saveQuoteDraft } from "./draft.server";
import { cancelQuote, sendQuote } from "./lifecycle.server";
import { listQuotesForSolicitud, listQuotesForStaff } from "./list.server";

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

describe("listQuotesForSolicitud", () => {
  it("lists the quotes made from one request, oldest first, with their effective status", async () => {
    const solicitud = await aSolicitud();
    const other = await aSolicitud();
    expect(await listQuotesForSolicitud(solicitud.id, T0)).toEqual([]);

    const first = value(await createQuote({ solicitudId: solicitud.id, actor: staff }, T0));
    value(await saveQuoteDraft(first.id, draft(solicitud.email, { validityDays: "5" }), staff, T0));
    value(await sendQuote(first.id, staff, T0));
    value(await createQuote({ solicitudId: other.id, actor: staff }, T0));
    await draftQuote("sin-solicitud@ejemplo.mx");
    expect(await listQuotesForSolicitud(solicitud.id, at(1))).toEqual([{ id: first.id, number: first.number, status: "enviada" }]);
    // Past its validity a sent quote reads as «vencida» before the job writes it.
    expect(await listQuotesForSolicitud(solicitud.id, at(30))).toEqual([{ id: first.id, number: first.number, status: "vencida" }]);

    // Once it is cancelled, a second quote can be made from the same request: both are listed.
    value(await cancelQuote(first.id, staff, at(1)));
    const second = value(await createQuote({ solicitudId: solicitud.id, actor: staff }, at(2)));
    expect(await listQuotesForSolicitud(solicitud.id, at(3))).toEqual([
      { id: first.id, number: first.number, status: "cancelada" },
      { id: second.id, number: second.number, status: "borrador" },
    ]);
    expect(await listQuotesForSolicitud("no-es-un-id", T0)).toEqual([]);
  });
});
