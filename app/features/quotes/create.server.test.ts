import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";

// Integration tests of creating quotes (blank or from a request) on a real database (PGlite, or
// PostgreSQL with TEST_DATABASE_URL), with the quotes kit: environment in
// tests/support/feature-test-env, clock, customers, drafts and outbox in
// tests/support/quote-fixtures.
const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/feature-test-env")).isolateQuotesTestEnv("quotes-create"));

import { getDb } from "~/db/client.server";
import { quotes } from "~/db/schema/quotes";
import { solicitudEvents, solicitudes } from "~/db/schema/solicitudes";
import { T0, staff, aCustomer, value, expectRefused, quoteRow, aSolicitud, useQuoteTestDatabase } from "../../../tests/support/quote-fixtures";
import { ajustes } from "~/features/site/content-collections/ajustes";
import { publish } from "~/services/content/publish.server";
import { saveDraft } from "~/services/content/drafts.server";
import { seedContent } from "~/services/content/seed.server";
import { singleton } from "~/services/content/published.server";
import { createQuote } from "./create.server";
import { getQuoteForStaff } from "./read.server";

useQuoteTestDatabase(dataDir);

describe("createQuote", () => {
  it("creates a blank draft with the default terms and an event, numbered COT-{year}-0001 onwards", async () => {
    // A year no other test uses, at 23:30 of 31 Dec in Mexico City (05:30 UTC on 1 Jan): the year is
    // the local one.
    const first = value(await createQuote({ actor: staff }, new Date("2031-01-01T05:30:00Z")));
    const second = value(await createQuote({ actor: staff }, new Date("2031-01-01T06:30:00Z")));
    const third = value(await createQuote({ actor: staff }, new Date("2031-01-02T12:00:00Z")));
    expect([first.number, second.number, third.number]).toEqual(["COT-2030-0001", "COT-2031-0001", "COT-2031-0002"]);

    const loaded = (await getQuoteForStaff(first.id, T0))!;
    expect(loaded.quote).toMatchObject({ status: "borrador", customerEmail: "", customerName: "", customerUserId: null, solicitudId: null, createdById: staff.id, currentRevision: 1, sentRevision: null });
    expect(loaded.current).toMatchObject({ revision: 1, lines: [], leadTimeDays: 10, validityDays: 30, totalCentavos: 0, sentAt: null });
    expect(loaded.current.terms).toMatch(/^Precios en pesos mexicanos/);
    expect(loaded.events).toMatchObject([{ kind: "creada", revision: 1, toStatus: "borrador", actorId: staff.id, actorName: staff.name }]);
  });

  it("numbers without gaps: a refused creation does not use a number", async () => {
    const now = new Date("2032-06-01T12:00:00Z");
    expect(value(await createQuote({ actor: staff }, now)).number).toBe("COT-2032-0001");
    expectRefused(await createQuote({ solicitudId: randomUUID(), actor: staff }, now), 404, "No encontramos esa solicitud.");
    expectRefused(await createQuote({ solicitudId: "no-es-un-id", actor: staff }, now), 404, "No encontramos esa solicitud.");
    expect(value(await createQuote({ actor: staff }, now)).number).toBe("COT-2032-0002");
    expect(await getDb().select().from(quotes)).toHaveLength(2);
  });

  it("prefills a draft from a request, links back to it and moves the request to cotizado with an event", async () => {
    const solicitud = await aSolicitud();
    const created = value(await createQuote({ solicitudId: solicitud.id, actor: staff }, T0));
    expect(created.number).toMatch(/^COT-2026-\d{4}$/);

    const loaded = (await getQuoteForStaff(created.id, T0))!;
    expect(loaded.quote).toMatchObject({
      solicitudId: solicitud.id,
      customerName: "Roberto Salinas",
      customerEmail: solicitud.email,
      customerCompany: "Autopartes Salinas",
      customerUserId: null,
      status: "borrador",
    });
    expect(loaded.current.lines).toEqual([
      { description: solicitud.description, quantityMilli: 25_000, unit: "pieza", unitPriceCentavos: 0, discountBp: 0, netCentavos: 0, ivaCentavos: 0 },
    ]);
    expect(loaded.events).toMatchObject([{ kind: "creada", detail: `Desde la solicitud ${solicitud.number}` }]);

    const [after] = await getDb().select().from(solicitudes).where(eq(solicitudes.id, solicitud.id));
    expect(after!.status).toBe("cotizado");
    const events = await getDb().select().from(solicitudEvents).where(eq(solicitudEvents.solicitudId, solicitud.id));
    expect(events).toMatchObject([{ kind: "estado", fromStatus: "nuevo", toStatus: "cotizado", actorId: staff.id, actorName: staff.name }]);
  });

  it("gives the quote to the request's account, or to the verified account with that email", async () => {
    const owner = await aCustomer("duena");
    const fromAccount = value(await createQuote({ solicitudId: (await aSolicitud({ userId: owner.id, email: "otra@ejemplo.mx" })).id, actor: staff }, T0));
    expect((await quoteRow(fromAccount.id)).customerUserId).toBe(owner.id);

    const verified = await aCustomer("verificada");
    const byEmail = value(await createQuote({ solicitudId: (await aSolicitud({ email: verified.email.toUpperCase() })).id, actor: staff }, T0));
    expect((await quoteRow(byEmail.id)).customerUserId).toBe(verified.id);

    // An account that never confirmed the email does not get the quote.
    const unverified = await aCustomer("sin-confirmar", { verified: false });
    const notLinked = value(await createQuote({ solicitudId: (await aSolicitud({ email: unverified.email })).id, actor: staff }, T0));
    expect((await quoteRow(notLinked.id)).customerUserId).toBeNull();
  });

  it("leaves a request that is already closed where it is", async () => {
    const solicitud = await aSolicitud({ status: "cerrado" });
    value(await createQuote({ solicitudId: solicitud.id, actor: staff }, T0));
    const [after] = await getDb().select().from(solicitudes).where(eq(solicitudes.id, solicitud.id));
    expect(after!.status).toBe("cerrado");
    expect(await getDb().select().from(solicitudEvents).where(eq(solicitudEvents.solicitudId, solicitud.id))).toHaveLength(0);
  });

  // Last: it changes the business facts of this file's database (docs/decisions/0047).
  it("starts a new quote from the terms and validity of the published ajustes record", async () => {
    await seedContent();
    const record = (await singleton(ajustes))!;
    const terms = `${record.data.condiciones_cotizacion} Precios sujetos a disponibilidad de material.`;
    const admin = { id: "00000000-0000-4000-8000-0000000000a1", name: staff.name };
    expect((await saveDraft(ajustes, { id: record.id, data: { ...record.data, condiciones_cotizacion: terms, vigencia_dias: 15 } }, admin)).ok).toBe(true);
    // A draft of ajustes changes nothing yet.
    const before = (await getQuoteForStaff(value(await createQuote({ actor: staff }, T0)).id, T0))!;
    expect(before.current).toMatchObject({ validityDays: 30, terms: record.data.condiciones_cotizacion });
    expect((await publish(ajustes, record.id, admin)).ok).toBe(true);
    const after = (await getQuoteForStaff(value(await createQuote({ actor: staff }, T0)).id, T0))!;
    expect(after.current).toMatchObject({ validityDays: 15, terms });
  });
});
