import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";

// Integration tests of the quote lifecycle (send, revise, accept, reject, cancel) on a real
// database (PGlite, or PostgreSQL with TEST_DATABASE_URL), with the quotes kit: environment in
// tests/support/feature-test-env, clock, customers, drafts and outbox in
// tests/support/quote-fixtures.
const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/feature-test-env")).isolateQuotesTestEnv("quotes-lifecycle"));

import { getDb } from "~/db/client.server";
import { outbox } from "~/db/schema/outbox";
import { quoteRevisions } from "~/db/schema/quotes";
import { STAFF_TO, PUBLIC_URL, T0, at, staff, aCustomer, LINE_A, LINE_B, draft, TOTAL_AB, value, expectRefused, draftQuote, sentQuote, quoteRow, eventsOf, mails, expectUnchanged, aSolicitud, useQuoteTestDatabase } from "../../../tests/support/quote-fixtures";
import { createQuote } from "./create.server";
import { saveQuoteDraft } from "./draft.server";
import { expireDueQuotes } from "./expiry.server";
import { acceptQuote, cancelQuote, rejectQuote, reviseQuote, sendQuote } from "./lifecycle.server";
import { listQuotesForCustomer } from "./list.server";
import { addQuoteMessage } from "./messages.server";
import { getQuoteForCustomer, getQuoteForStaff } from "./read.server";

useQuoteTestDatabase(dataDir);

describe("sendQuote", () => {
  it("sends the draft: validity from now, sent revision, an event and an email with the link", async () => {
    const customer = await aCustomer();
    const { id, number } = await draftQuote(customer.email, { validityDays: "15" });
    const now = at(2);
    value(await sendQuote(id, staff, now));

    const row = await quoteRow(id);
    expect(row).toMatchObject({ status: "enviada", sentRevision: 1, currentRevision: 1, sentAt: now, validUntil: at(15, now), updatedAt: now });
    const [revision] = await getDb().select().from(quoteRevisions).where(eq(quoteRevisions.quoteId, id));
    expect(revision).toMatchObject({ sentAt: now, validUntil: at(15, now) });
    expect((await eventsOf(id)).at(-1)).toMatchObject({ kind: "enviada", revision: 1, fromStatus: "borrador", toStatus: "enviada", actorId: staff.id });

    const sent = await mails();
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ to: customer.email, subject: `Cotización ${number} de Forja`, status: "pending" });
    expect(sent[0]!.text).toContain(`${PUBLIC_URL}/quotes/${id}`);
    expect(sent[0]!.html).toContain(`${PUBLIC_URL}/quotes/${id}`);
    expect(sent[0]!.text).toContain("$339.29"); // TOTAL_AB, IVA included
  });

  it("refuses a quote without the customer's email, without lines, or with a line at $0, changing nothing", async () => {
    const blank = value(await createQuote({ actor: staff }, T0));
    await expectUnchanged(blank.id, () => sendQuote(blank.id, staff, T0), 400, "Falta el correo del cliente.");

    // A request without description gives a draft with an email and no lines.
    const noLines = value(await createQuote({ solicitudId: (await aSolicitud({ description: null })).id, actor: staff }, T0));
    await expectUnchanged(noLines.id, () => sendQuote(noLines.id, staff, T0), 400, "Agregue al menos una partida antes de enviar.");

    // A request with a description gives one line at $0 for staff to price.
    const unpriced = value(await createQuote({ solicitudId: (await aSolicitud()).id, actor: staff }, T0));
    await expectUnchanged(unpriced.id, () => sendQuote(unpriced.id, staff, T0), 400, "Todas las partidas necesitan un precio unitario mayor que cero.");

    const customer = await aCustomer();
    const partlyPriced = await draftQuote(customer.email, { lines: [LINE_A, { ...LINE_B, unitPrice: "0" }] });
    await expectUnchanged(partlyPriced.id, () => sendQuote(partlyPriced.id, staff, T0), 400, "Todas las partidas necesitan un precio unitario mayor que cero.");

    // A line at 100 % discount has a price and may be sent (a courtesy line).
    const courtesy = await draftQuote(customer.email, { lines: [LINE_A, { ...LINE_B, discount: "100" }] });
    value(await sendQuote(courtesy.id, staff, T0));

    expectRefused(await sendQuote(randomUUID(), staff, T0), 404, "No encontramos esa cotización.");
  });

  it("refuses to send the same revision twice", async () => {
    const customer = await aCustomer();
    const { id } = await sentQuote(customer.email);
    await expectUnchanged(id, () => sendQuote(id, staff, at(1)), 409, "Esta revisión ya se envió.");
  });
});

describe("revisions", () => {
  it("never edits a sent revision in place; a revision is a new draft and the customer keeps seeing the sent one", async () => {
    const customer = await aCustomer();
    const { id } = await sentQuote(customer.email);

    await expectUnchanged(id, () => saveQuoteDraft(id, draft(customer.email, { lines: [LINE_A] }), staff, at(1)), 409, "Esta revisión ya se envió y no se puede editar. Cree una revisión nueva para cambiarla.");

    expect(value(await reviseQuote(id, staff, at(1)))).toEqual({ revision: 2 });
    expect(await quoteRow(id)).toMatchObject({ status: "enviada", currentRevision: 2, sentRevision: 1 });
    // Only one draft at a time.
    await expectUnchanged(id, () => reviseQuote(id, staff, at(1)), 409, "Ya hay una revisión en preparación; edítela y envíela.");

    // Revision 2: line A goes from 3 to 4 pieces, line B is removed, line C is added, lead time 10 → 15.
    const lineC = { description: "Tratamiento térmico T6", quantity: "1", unit: "servicio", unitPrice: "500", discount: "" };
    const revised = draft(customer.email, { lines: [{ ...LINE_A, quantity: "4" }, lineC], leadTimeDays: "15" });
    // A: 4 × 3333 × 0.925 = 12332.1 → 12332, IVA 1973.12 → 1973. C: 50000, IVA 8000.
    const total2 = 12_332 + 1_973 + 50_000 + 8_000;
    expect(value(await saveQuoteDraft(id, revised, staff, at(2)))).toEqual({ totalCentavos: total2, changed: true });

    // The customer still sees revision 1, its total and nothing of the draft.
    const seen = (await getQuoteForCustomer(id, customer.id, at(2)))!;
    expect(seen.revision).toMatchObject({ revision: 1, totalCentavos: TOTAL_AB, leadTimeDays: 10 });
    expect(seen.revisions).toEqual([{ revision: 1, sentAt: T0, totalCentavos: TOTAL_AB }]);
    expect(seen.comparisons).toEqual([]);
    expect((await listQuotesForCustomer(customer.id, at(2)))[0]).toMatchObject({ id, totalCentavos: TOTAL_AB, status: "enviada" });

    const sentAgain = at(3);
    value(await sendQuote(id, staff, sentAgain));
    expect(await quoteRow(id)).toMatchObject({ status: "enviada", currentRevision: 2, sentRevision: 2, validUntil: at(30, sentAgain) });

    const after = (await getQuoteForCustomer(id, customer.id, sentAgain))!;
    expect(after.revision).toMatchObject({ revision: 2, totalCentavos: total2, leadTimeDays: 15 });
    // Earlier revisions stay readable.
    expect(after.revisions).toEqual([
      { revision: 1, sentAt: T0, totalCentavos: TOTAL_AB },
      { revision: 2, sentAt: sentAgain, totalCentavos: total2 },
    ]);
    expect(after.comparisons).toHaveLength(1);
    const comparison = after.comparisons[0]!;
    expect(comparison).toMatchObject({ revision: 2, previous: 1, leadTime: { before: 10, after: 15 }, total: { before: TOTAL_AB, after: total2 } });
    expect(comparison.lines).toHaveLength(3);
    expect(comparison.lines).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: "cambiada", description: "Brida de aluminio 6061", before: expect.objectContaining({ quantityMilli: 3_000 }), after: expect.objectContaining({ quantityMilli: 4_000 }) }),
        expect.objectContaining({ kind: "agregada", description: "Tratamiento térmico T6", after: expect.objectContaining({ unitPriceCentavos: 50_000 }) }),
        expect.objectContaining({ kind: "eliminada", description: "Solera de acero 1018", before: expect.objectContaining({ unitPriceCentavos: 10_000 }) }),
      ]),
    );
    expect((await getQuoteForStaff(id, sentAgain))!.comparisons).toEqual(after.comparisons);

    // The second email says it is a revision.
    const sent = await mails(customer.email);
    expect(sent).toHaveLength(2);
    expect(sent[1]!.text).toContain("Actualizamos su cotización");
    expect(sent[1]!.text).toContain(`${PUBLIC_URL}/quotes/${id}`);
  });

  it("refuses to revise a draft, an accepted or a cancelled quote", async () => {
    const customer = await aCustomer();
    const neverSent = await draftQuote(customer.email);
    await expectUnchanged(neverSent.id, () => reviseQuote(neverSent.id, staff, T0), 409, "Ya hay una revisión en preparación; edítela y envíela.");

    const accepted = await sentQuote(customer.email);
    value(await acceptQuote(accepted.id, customer.actor, { fullName: "Ana Torres", ip: "203.0.113.7", userAgent: "Firefox" }, at(1)));
    await expectUnchanged(accepted.id, () => reviseQuote(accepted.id, staff, at(2)), 409, "Una cotización aceptada no se puede revisar.");

    const cancelled = await sentQuote(customer.email);
    value(await cancelQuote(cancelled.id, staff, at(1)));
    await expectUnchanged(cancelled.id, () => reviseQuote(cancelled.id, staff, at(2)), 409, "Una cotización cancelada no se puede revisar.");

    expectRefused(await reviseQuote(randomUUID(), staff, T0), 404, "No encontramos esa cotización.");
  });

  it("a rejected or expired quote can be revised and sent again, clearing the rejection", async () => {
    const customer = await aCustomer();
    const { id } = await sentQuote(customer.email);
    value(await rejectQuote(id, customer.actor, { reason: "precio", note: "Muy caro" }, at(1)));
    value(await reviseQuote(id, staff, at(2)));
    value(await saveQuoteDraft(id, draft(customer.email, { lines: [{ ...LINE_A, unitPrice: "30" }] }), staff, at(2)));
    value(await sendQuote(id, staff, at(3)));
    expect(await quoteRow(id)).toMatchObject({ status: "enviada", sentRevision: 2, rejectedReason: null, rejectedNote: null, rejectedAt: null, validUntil: at(33) });

    // Expired at read time (the job has not run): still revisable.
    value(await reviseQuote(id, staff, at(40)));
    value(await sendQuote(id, staff, at(41)));
    expect(await quoteRow(id)).toMatchObject({ status: "enviada", sentRevision: 3, validUntil: at(71) });
  });
});

describe("acceptQuote", () => {
  it("refuses to accept or reject a revision older than the one sent since, changing nothing", async () => {
    const customer = await aCustomer("revisiones");
    const { id } = await sentQuote(customer.email);
    value(await reviseQuote(id, staff, at(1)));
    value(await sendQuote(id, staff, at(1)));
    await expectUnchanged(id, () => acceptQuote(id, customer.actor, { fullName: "Ana Torres Ruiz", ip: "", userAgent: "", revision: 1 }, at(2)), 409, /revisión 2/);
    await expectUnchanged(id, () => rejectQuote(id, customer.actor, { reason: "precio", revision: 1 }, at(2)), 409, /revisión 2/);
    value(await acceptQuote(id, customer.actor, { fullName: "Ana Torres Ruiz", ip: "", userAgent: "", revision: 2 }, at(2)));
  });

  it("lets only the quote's own customer accept, reject or write on it", async () => {
    const owner = await aCustomer("duena");
    const stranger = await aCustomer("ajeno");
    const { id } = await sentQuote(owner.email);
    await expectUnchanged(id, () => acceptQuote(id, stranger.actor, { fullName: "Persona Ajena", ip: "", userAgent: "" }, at(1)), 404, "No encontramos esa cotización.");
    await expectUnchanged(id, () => rejectQuote(id, stranger.actor, { reason: "precio" }, at(1)), 404, "No encontramos esa cotización.");
    await expectUnchanged(id, () => addQuoteMessage(id, stranger.actor, { body: "¿Me la pueden mandar a mí?", fromStaff: false }, at(1)), 404, "No encontramos esa cotización.");
  });

  it("records the signature, time, IP and user agent, and emails staff and the customer", async () => {
    const customer = await aCustomer();
    const { id, number } = await sentQuote(customer.email);
    const now = at(5);
    value(await acceptQuote(id, customer.actor, { fullName: "Ana Torres Ruiz", ip: "203.0.113.7", userAgent: "Mozilla/5.0 (X11; Linux) Firefox/140.0" }, now));

    expect(await quoteRow(id)).toMatchObject({
      status: "aceptada",
      acceptedName: "Ana Torres Ruiz",
      acceptedAt: now,
      acceptedIp: "203.0.113.7",
      acceptedUserAgent: "Mozilla/5.0 (X11; Linux) Firefox/140.0",
      updatedAt: now,
    });
    expect((await eventsOf(id)).at(-1)).toMatchObject({ kind: "aceptada", revision: 1, fromStatus: "enviada", toStatus: "aceptada", actorId: customer.id, actorName: customer.name });

    const [toStaff] = await mails(STAFF_TO);
    expect(toStaff).toMatchObject({ subject: `[${number}] Aceptada por Ana Torres`, replyTo: customer.email });
    expect(toStaff!.text).toContain("Ana Torres Ruiz");
    expect(toStaff!.text).toContain(`${PUBLIC_URL}/admin/cotizaciones/${id}`);
    const toCustomer = (await mails(customer.email)).filter((mail) => mail.subject === `Aceptación registrada: cotización ${number}`);
    expect(toCustomer).toHaveLength(1);
    expect(toCustomer[0]!.text).toContain("$339.29");
    expect(toCustomer[0]!.text).toContain(`${PUBLIC_URL}/quotes/${id}`);

    // Staff see the whole record; the customer's view hides IP, user agent and who created it.
    expect((await getQuoteForStaff(id, now))!.quote).toMatchObject({ status: "aceptada", acceptedIp: "203.0.113.7", createdById: staff.id });
    const seen = (await getQuoteForCustomer(id, customer.id, now))!;
    expect(seen.quote).toMatchObject({ status: "aceptada", acceptedName: "Ana Torres Ruiz", acceptedAt: now });
    expect(seen.quote).not.toHaveProperty("acceptedIp");
    expect(seen.quote).not.toHaveProperty("acceptedUserAgent");
    expect(seen.quote).not.toHaveProperty("createdById");
    expect(JSON.stringify(seen.quote)).not.toContain("203.0.113.7");
    expect(seen.history.map((event) => event.kind)).toEqual(["enviada", "aceptada"]);
  });

  it("accepts the sent revision while a new one is still a draft", async () => {
    const customer = await aCustomer();
    const { id } = await sentQuote(customer.email);
    value(await reviseQuote(id, staff, at(1)));
    value(await acceptQuote(id, customer.actor, { fullName: "Ana Torres", ip: "", userAgent: "" }, at(2)));
    expect(await quoteRow(id)).toMatchObject({ status: "aceptada", sentRevision: 1, currentRevision: 2, acceptedIp: null, acceptedUserAgent: null });
    // The draft cannot be sent over an accepted quote, nor edited.
    await expectUnchanged(id, () => sendQuote(id, staff, at(3)), 409, "Una cotización aceptada no se puede enviar.");
    await expectUnchanged(id, () => saveQuoteDraft(id, draft(customer.email), staff, at(3)), 409, /no se puede editar/);
  });

  it("refuses a draft (which the customer cannot even see), a second acceptance and a late one, changing nothing", async () => {
    const customer = await aCustomer();
    const signature = { fullName: "Ana Torres", ip: "203.0.113.7", userAgent: "Firefox" };

    const neverSent = await draftQuote(customer.email);
    expect((await quoteRow(neverSent.id)).customerUserId).toBe(customer.id);
    expect(await getQuoteForCustomer(neverSent.id, customer.id, T0)).toBeNull();
    expect(await listQuotesForCustomer(customer.id, T0)).toEqual([]);
    await expectUnchanged(neverSent.id, () => acceptQuote(neverSent.id, customer.actor, signature, T0), 409, "La cotización todavía no se ha enviado.");

    const twice = await sentQuote(customer.email);
    value(await acceptQuote(twice.id, customer.actor, signature, at(1)));
    await expectUnchanged(twice.id, () => acceptQuote(twice.id, customer.actor, { ...signature, fullName: "Otra Persona" }, at(2)), 409, "La cotización ya está aceptada.");

    // Past its date and before the expiry job has run: refused all the same.
    const late = await sentQuote(customer.email);
    expect((await quoteRow(late.id)).status).toBe("enviada");
    const afterExpiry = new Date(at(30).getTime() + 1);
    await expectUnchanged(late.id, () => acceptQuote(late.id, customer.actor, signature, afterExpiry), 409, "La cotización venció. Pídanos una revisión con precios vigentes.");
    await expectUnchanged(late.id, () => rejectQuote(late.id, customer.actor, { reason: "precio" }, afterExpiry), 409, "La cotización venció. Pídanos una revisión con precios vigentes.");
    // …and after the job, too.
    expect(await expireDueQuotes(afterExpiry)).toBe(1);
    await expectUnchanged(late.id, () => acceptQuote(late.id, customer.actor, signature, afterExpiry), 409, "La cotización venció. Pídanos una revisión con precios vigentes.");
  });

  it("accepts up to the last instant of validity", async () => {
    const customer = await aCustomer();
    const { id } = await sentQuote(customer.email);
    value(await acceptQuote(id, customer.actor, { fullName: "Ana Torres", ip: "203.0.113.7", userAgent: "Firefox" }, at(30)));
    expect((await quoteRow(id)).status).toBe("aceptada");
  });

  it("five simultaneous acceptances: exactly one wins, one event, one pair of emails", async () => {
    const customer = await aCustomer();
    const { id } = await sentQuote(customer.email);
    await getDb().delete(outbox);
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, index) => acceptQuote(id, customer.actor, { fullName: `Firma número ${index}`, ip: `203.0.113.${index}`, userAgent: "Firefox" }, at(1))),
    );
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    for (const result of results.filter((result) => !result.ok)) expectRefused(result, 409, "La cotización ya está aceptada.");
    const winner = results.findIndex((result) => result.ok);
    expect(await quoteRow(id)).toMatchObject({ status: "aceptada", acceptedName: `Firma número ${winner}`, acceptedIp: `203.0.113.${winner}` });
    expect((await eventsOf(id)).filter((event) => event.kind === "aceptada")).toHaveLength(1);
    expect(await mails()).toHaveLength(2);
  });

  it("refuses an unknown quote with a Spanish message", async () => {
    const customer = await aCustomer();
    const result = await acceptQuote(randomUUID(), customer.actor, { fullName: "Ana Torres", ip: "", userAgent: "" }, T0);
    expect(result).toMatchObject({ ok: false, message: "No encontramos esa cotización." });
  });
});

describe("rejectQuote", () => {
  it("stores the reason's label and the note, and emails staff only", async () => {
    const customer = await aCustomer();
    const { id, number } = await sentQuote(customer.email);
    const now = at(3);
    value(await rejectQuote(id, customer.actor, { reason: "plazo", note: "Necesitamos las piezas en 5 días." }, now));

    expect(await quoteRow(id)).toMatchObject({
      status: "rechazada",
      rejectedReason: "El plazo de entrega no nos funciona",
      rejectedNote: "Necesitamos las piezas en 5 días.",
      rejectedAt: now,
    });
    expect((await eventsOf(id)).at(-1)).toMatchObject({ kind: "rechazada", fromStatus: "enviada", toStatus: "rechazada", detail: "El plazo de entrega no nos funciona", actorId: customer.id });

    const [toStaff] = await mails(STAFF_TO);
    expect(toStaff).toMatchObject({ subject: `[${number}] Rechazada por Ana Torres`, replyTo: customer.email });
    expect(toStaff!.text).toContain("El plazo de entrega no nos funciona — Necesitamos las piezas en 5 días.");
    expect((await mails(customer.email)).map((mail) => mail.subject)).toEqual([`Cotización ${number} de Forja`]);
    expect((await getQuoteForCustomer(id, customer.id, now))!.quote).toMatchObject({ status: "rechazada", rejectedReason: "El plazo de entrega no nos funciona" });
  });

  it("stores no note when none is given", async () => {
    const customer = await aCustomer();
    const { id } = await sentQuote(customer.email);
    value(await rejectQuote(id, customer.actor, { reason: "otro-proveedor" }, at(1)));
    expect(await quoteRow(id)).toMatchObject({ rejectedReason: "Elegimos otro proveedor", rejectedNote: null });
  });

  it("refuses to reject an accepted or a draft quote, changing nothing", async () => {
    const customer = await aCustomer();
    const { id } = await sentQuote(customer.email);
    value(await acceptQuote(id, customer.actor, { fullName: "Ana Torres", ip: "203.0.113.7", userAgent: "Firefox" }, at(1)));
    await expectUnchanged(id, () => rejectQuote(id, customer.actor, { reason: "precio" }, at(2)), 409, "Una cotización aceptada no puede pasar a rechazada.");

    const neverSent = await draftQuote(customer.email);
    await expectUnchanged(neverSent.id, () => rejectQuote(neverSent.id, customer.actor, { reason: "precio" }, at(2)), 409, "La cotización todavía no se ha enviado.");
  });

  it("refuses to accept a rejected quote or reject it twice", async () => {
    const customer = await aCustomer();
    const { id } = await sentQuote(customer.email);
    value(await rejectQuote(id, customer.actor, { reason: "precio" }, at(1)));
    await expectUnchanged(id, () => acceptQuote(id, customer.actor, { fullName: "Ana Torres", ip: "", userAgent: "" }, at(2)), 409, "Una cotización rechazada no puede pasar a aceptada.");
    await expectUnchanged(id, () => rejectQuote(id, customer.actor, { reason: "plazo" }, at(2)), 409, "La cotización ya está rechazada.");
  });
});

describe("cancelQuote", () => {
  it("cancels a draft and a sent quote, with an event", async () => {
    const customer = await aCustomer();
    const neverSent = await draftQuote(customer.email);
    value(await cancelQuote(neverSent.id, staff, at(1)));
    expect(await quoteRow(neverSent.id)).toMatchObject({ status: "cancelada", cancelledAt: at(1) });
    expect((await eventsOf(neverSent.id)).at(-1)).toMatchObject({ kind: "cancelada", toStatus: "cancelada", actorId: staff.id });

    const sent = await sentQuote(customer.email);
    value(await cancelQuote(sent.id, staff, at(2)));
    expect(await quoteRow(sent.id)).toMatchObject({ status: "cancelada", cancelledAt: at(2) });
    // The customer sees it cancelled, and can no longer accept it.
    expect((await getQuoteForCustomer(sent.id, customer.id, at(2)))!.quote.status).toBe("cancelada");
    await expectUnchanged(sent.id, () => acceptQuote(sent.id, customer.actor, { fullName: "Ana Torres", ip: "", userAgent: "" }, at(3)), 409, "Una cotización cancelada no puede pasar a aceptada.");
    // A cancelled quote is not edited, sent or cancelled again.
    await expectUnchanged(neverSent.id, () => saveQuoteDraft(neverSent.id, draft(customer.email), staff, at(3)), 409, /no se puede editar/);
    await expectUnchanged(neverSent.id, () => sendQuote(neverSent.id, staff, at(3)), 409, "Una cotización cancelada no se puede enviar.");
    await expectUnchanged(sent.id, () => cancelQuote(sent.id, staff, at(3)), 409, "La cotización ya está cancelada.");
  });

  it("refuses to cancel an accepted or rejected quote, changing nothing; an expired one can be cancelled", async () => {
    const customer = await aCustomer();
    const accepted = await sentQuote(customer.email);
    value(await acceptQuote(accepted.id, customer.actor, { fullName: "Ana Torres", ip: "", userAgent: "" }, at(1)));
    await expectUnchanged(accepted.id, () => cancelQuote(accepted.id, staff, at(2)), 409, "Una cotización aceptada no puede pasar a cancelada.");

    const rejected = await sentQuote(customer.email);
    value(await rejectQuote(rejected.id, customer.actor, { reason: "precio" }, at(1)));
    await expectUnchanged(rejected.id, () => cancelQuote(rejected.id, staff, at(2)), 409, "Una cotización rechazada no puede pasar a cancelada.");

    // Staff may still cancel a sent quote whose date passed, before or after the expiry job ran.
    const expired = await sentQuote(customer.email);
    expect(await expireDueQuotes(at(31))).toBe(1);
    value(await cancelQuote(expired.id, staff, at(32)));
    expect(await quoteRow(expired.id)).toMatchObject({ status: "cancelada", cancelledAt: at(32) });
    expect((await eventsOf(expired.id)).at(-1)).toMatchObject({ kind: "cancelada", fromStatus: "vencida", toStatus: "cancelada", actorId: staff.id });
  });
});
