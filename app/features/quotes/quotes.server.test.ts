import fs from "node:fs";
import { randomUUID } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

// Integration tests of the quote lifecycle on a real database (PGlite, or PostgreSQL with
// TEST_DATABASE_URL). Every call gets its clock (`now`) explicitly, so validity and expiry are
// tested by moving the clock, never by sleeping. Mail is only written to the outbox (no worker
// runs), so the tests read the outbox table.

// Set before ~/lib/env.server is first read (getEnv() caches it).
const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("quotes", { unset: ["PORT", "GOOGLE_CLIENT_ID", "MICROSOFT_CLIENT_ID", "OIDC_ISSUER"], set: { MAIL_STAFF_TO: "ventas@forja.test, direccion@forja.test" } }));

import { getDb } from "~/db/client.server";
import { user } from "~/db/schema/auth";
import { outbox } from "~/db/schema/outbox";
import { quoteEvents, quoteMessages, quoteRevisions, quotes } from "~/db/schema/quotes";
import { solicitudEvents, solicitudes } from "~/db/schema/solicitudes";
import { confirmEmail, registerCustomer } from "~/features/accounts/accounts.server";
import { nextTestIp, requestMeta } from "../../../tests/support/auth-requests";
import { closeTestDatabase, createTestDatabase } from "../../../tests/support/test-database";
import { linkQuotesToUser } from "./link.server";
import {
  acceptQuote,
  addQuoteMessage,
  cancelQuote,
  createQuote,
  effectiveStatus,
  expireDueQuotes,
  getQuoteForCustomer,
  getQuoteForStaff,
  listQuotesForCustomer,
  listQuotesForStaff,
  rejectQuote,
  reviseQuote,
  saveQuoteDraft,
  sendQuote,
  type Actor,
  type QuoteResult,
} from "./quotes.server";
import { QuoteDraftSchema, type QuoteDraftInput } from "./forms";

const STAFF_TO = "ventas@forja.test, direccion@forja.test";
const PUBLIC_URL = "http://localhost:3000";
const DAY_MS = 24 * 60 * 60 * 1000;
const T0 = new Date("2026-03-10T16:00:00.000Z");
const at = (days: number, base = T0) => new Date(base.getTime() + days * DAY_MS);

let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
const staff: Actor = { id: `staff-${process.pid}`, name: "Laura Méndez" };

beforeAll(async () => {
  database = await createTestDatabase();
  await getDb().insert(user).values({ id: staff.id!, name: staff.name, email: `laura-${process.pid}@forja.mx`, role: "admin", emailVerified: true });
});

afterAll(async () => {
  await closeTestDatabase(database);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

beforeEach(async () => {
  // Revisions, events and messages go with their quote (ON DELETE CASCADE).
  await getDb().delete(quotes);
  await getDb().delete(outbox);
});

// ——— Helpers ———

let sequence = 0;

interface Customer {
  id: string;
  name: string;
  email: string;
  actor: Actor;
}

/** A customer account inserted directly (verified unless told otherwise). */
async function aCustomer(label = "cliente", options: { verified?: boolean } = {}): Promise<Customer> {
  sequence += 1;
  const id = `cust-${process.pid}-${sequence}`;
  const name = `Ana Torres ${sequence}`;
  const email = `${label}-${sequence}-${process.pid}@ejemplo.mx`;
  await getDb().insert(user).values({ id, name, email, role: "customer", emailVerified: options.verified ?? true });
  return { id, name, email, actor: { id, name } };
}

const LINE_A = { description: "Brida de aluminio 6061", quantity: "3", unit: "pieza", unitPrice: "33.33", discount: "7.5" };
const LINE_B = { description: "Solera de acero 1018", quantity: "2", unit: "metro", unitPrice: "100", discount: "" };

/** A draft as the builder posts it, parsed by the same schema the route uses. */
function draft(email: string, overrides: Record<string, unknown> = {}): QuoteDraftInput {
  return QuoteDraftSchema.parse({
    customerName: "Ana Torres",
    customerEmail: email,
    customerCompany: "Metalmecánica del Bajío",
    lines: [LINE_A, LINE_B],
    leadTimeDays: "10",
    validityDays: "30",
    terms: "50 % de anticipo.",
    notes: "",
    ...overrides,
  });
}
// LINE_A: 3 × 3333 × 0.925 = 9249.075 → 9249, IVA 1479.84 → 1480. LINE_B: 2 × 10000 = 20000, IVA 3200.
const TOTAL_AB = 9_249 + 1_480 + 20_000 + 3_200; // 33929

function value<T>(result: QuoteResult<T>): T {
  if (!result.ok) throw new Error(`expected success, got ${result.status}: ${result.message}`);
  return result.value;
}

function expectRefused(result: QuoteResult<unknown>, status: number, message: string | RegExp) {
  expect(result.ok).toBe(false);
  if (result.ok) return;
  expect(result.status).toBe(status);
  if (typeof message === "string") expect(result.message).toBe(message);
  else expect(result.message).toMatch(message);
}

async function draftQuote(email: string, overrides: Record<string, unknown> = {}, now = T0): Promise<{ id: string; number: string }> {
  const created = value(await createQuote({ actor: staff }, now));
  value(await saveQuoteDraft(created.id, draft(email, overrides), staff, now));
  return created;
}

async function sentQuote(email: string, overrides: Record<string, unknown> = {}, now = T0): Promise<{ id: string; number: string }> {
  const created = await draftQuote(email, overrides, now);
  value(await sendQuote(created.id, staff, now));
  return created;
}

async function quoteRow(id: string) {
  const [row] = await getDb().select().from(quotes).where(eq(quotes.id, id));
  return row!;
}

async function eventsOf(id: string) {
  return getDb().select().from(quoteEvents).where(eq(quoteEvents.quoteId, id)).orderBy(asc(quoteEvents.createdAt));
}

async function mails(to?: string) {
  const rows = await getDb().select().from(outbox).orderBy(asc(outbox.createdAt));
  return to ? rows.filter((row) => row.to === to) : rows;
}

/** Everything a refused command must leave untouched. */
async function snapshot(id: string) {
  const db = getDb();
  return {
    quote: await quoteRow(id),
    revisions: await db.select().from(quoteRevisions).where(eq(quoteRevisions.quoteId, id)).orderBy(asc(quoteRevisions.revision)),
    events: (await eventsOf(id)).map((event) => event.id),
    messages: (await db.select().from(quoteMessages).where(eq(quoteMessages.quoteId, id))).length,
    outbox: (await mails()).length,
  };
}

async function expectUnchanged(id: string, run: () => Promise<QuoteResult<unknown>>, status: number, message: string | RegExp) {
  const before = await snapshot(id);
  expectRefused(await run(), status, message);
  expect(await snapshot(id)).toEqual(before);
}

let solicitudSequence = 0;

async function aSolicitud(overrides: Partial<typeof solicitudes.$inferInsert> = {}) {
  solicitudSequence += 1;
  const [row] = await getDb()
    .insert(solicitudes)
    .values({
      number: `SOL-2026-${String(9000 + solicitudSequence).padStart(4, "0")}`,
      type: "cotizacion",
      name: "Roberto Salinas",
      email: `roberto-${solicitudSequence}-${process.pid}@ejemplo.mx`,
      company: "Autopartes Salinas",
      description: "Maquinado de 25 soportes en aluminio 6061 según plano adjunto",
      quantity: 25,
      privacyAcceptedAt: new Date("2026-03-01T12:00:00Z"),
      formToken: `quote-test-${process.pid}-${solicitudSequence}`,
      ...overrides,
    })
    .returning();
  return row!;
}

// ——— Tests ———

describe("effectiveStatus", () => {
  it("reads a sent quote past its date as vencida; at the exact instant it is still valid", () => {
    const validUntil = at(30);
    expect(effectiveStatus("enviada", validUntil, validUntil)).toBe("enviada");
    expect(effectiveStatus("enviada", validUntil, new Date(validUntil.getTime() + 1))).toBe("vencida");
    expect(effectiveStatus("aceptada", validUntil, at(60))).toBe("aceptada");
    expect(effectiveStatus("borrador", null, at(60))).toBe("borrador");
  });
});

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
});

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

    expect(value(await saveQuoteDraft(id, tampered, staff, at(1)))).toEqual({ totalCentavos: TOTAL_AB });

    const [revision] = await getDb().select().from(quoteRevisions).where(eq(quoteRevisions.quoteId, id));
    expect(revision).toMatchObject({ subtotalCentavos: 29_249, ivaCentavos: 4_680, totalCentavos: TOTAL_AB, leadTimeDays: 10, validityDays: 30, terms: "50 % de anticipo.", updatedAt: at(1) });
    expect(revision!.lines).toEqual([
      { description: "Brida de aluminio 6061", unit: "pieza", quantityMilli: 3_000, unitPriceCentavos: 3_333, discountBp: 750, netCentavos: 9_249, ivaCentavos: 1_480 },
      { description: "Solera de acero 1018", unit: "metro", quantityMilli: 2_000, unitPriceCentavos: 10_000, discountBp: 0, netCentavos: 20_000, ivaCentavos: 3_200 },
    ]);
    expect(await quoteRow(id)).toMatchObject({ customerName: "Ana Torres", customerEmail: customer.email, customerCompany: "Metalmecánica del Bajío", customerUserId: customer.id, updatedAt: at(1) });
    expect((await eventsOf(id)).map((event) => event.kind)).toEqual(["creada", "guardada"]);
  });

  it("does not give the quote to an account whose email is not confirmed", async () => {
    const unverified = await aCustomer("sin-confirmar", { verified: false });
    const { id } = await draftQuote(unverified.email);
    expect((await quoteRow(id)).customerUserId).toBeNull();
  });

  it("refuses an unknown quote", async () => {
    expectRefused(await saveQuoteDraft(randomUUID(), draft("x@ejemplo.mx"), staff, T0), 404, "No encontramos esa cotización.");
  });

  // BUG (quotes.server.ts, saveQuoteDraft): `customerUserId = quote.customerUserId ?? findAccountId(…)`
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
    expect(result.ok || result.status === 400).toBe(true);
  });
});

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
    expect(value(await saveQuoteDraft(id, revised, staff, at(2)))).toEqual({ totalCentavos: total2 });

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
    await expectUnchanged(id, () => addQuoteMessage(id, stranger.actor, "¿Me la pueden mandar a mí?", false, at(1)), 404, "No encontramos esa cotización.");
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

describe("messages", () => {
  it("a customer's message is stored and emailed to staff; a staff message to the customer", async () => {
    const customer = await aCustomer();
    const { id, number } = await sentQuote(customer.email);
    await getDb().delete(outbox);

    value(await addQuoteMessage(id, customer.actor, "¿El precio incluye el anodizado?", false));
    const [toStaff] = await mails();
    expect(toStaff).toMatchObject({ to: STAFF_TO, replyTo: customer.email, subject: `[${number}] Mensaje de Ana Torres` });
    expect(toStaff!.text).toContain("¿El precio incluye el anodizado?");
    expect(toStaff!.text).toContain(`${PUBLIC_URL}/admin/cotizaciones/${id}`);

    value(await addQuoteMessage(id, staff, "Sí, anodizado natural incluido.", true));
    const toCustomer = (await mails(customer.email)).at(-1);
    expect(toCustomer).toMatchObject({ subject: `Mensaje sobre su cotización ${number}` });
    expect(toCustomer!.text).toContain("Sí, anodizado natural incluido.");
    expect(toCustomer!.text).toContain(`${PUBLIC_URL}/quotes/${id}`);
    expect(await mails()).toHaveLength(2);

    const seen = (await getQuoteForCustomer(id, customer.id, at(1)))!;
    expect(seen.messages).toMatchObject([
      { authorName: customer.name, fromStaff: false, body: "¿El precio incluye el anodizado?" },
      { authorName: staff.name, fromStaff: true, body: "Sí, anodizado natural incluido." },
    ]);
    // The customer's view carries no user ids of staff (or anyone).
    for (const message of seen.messages) expect(message).not.toHaveProperty("authorId");
  });

  // BUG (quotes.server.ts, addQuoteMessage): a staff message on a draft that has no customer email yet
  // (a blank quote) calls enqueueMail with to: "", whose schema throws a ZodError (a 500) instead of
  // a Spanish refusal. Flip to it() when fixed.
  it("refuses in Spanish a staff message on a quote without a customer email", async () => {
    const blank = value(await createQuote({ actor: staff }, T0));
    const result = await addQuoteMessage(blank.id, staff, "Hola", true);
    expect(result.ok).toBe(false);
  });

  it("refuses a message on an unknown quote", async () => {
    expectRefused(await addQuoteMessage(randomUUID(), staff, "Hola", true), 404, "No encontramos esa cotización.");
    expect(await mails()).toHaveLength(0);
  });
});

describe("getQuoteForCustomer and listQuotesForCustomer", () => {
  it("returns nothing for another customer's quote or a malformed id", async () => {
    const owner = await aCustomer("duena");
    const other = await aCustomer("otra");
    const { id } = await sentQuote(owner.email);
    expect(await getQuoteForCustomer(id, owner.id, T0)).not.toBeNull();
    expect(await getQuoteForCustomer(id, other.id, T0)).toBeNull();
    expect(await listQuotesForCustomer(other.id, T0)).toEqual([]);
    expect(await getQuoteForCustomer(randomUUID(), owner.id, T0)).toBeNull();
    for (const malformed of ["", "no-es-un-id", "123", `${id}x`, id.slice(0, -1), "../admin", `${id}' or '1'='1`]) {
      expect(await getQuoteForCustomer(malformed, owner.id, T0)).toBeNull();
    }
  });

  // BUG (quotes.server.ts, loadQuote): the id check /^[0-9a-f-]{36}$/i lets through 36-character
  // strings that are not UUIDs (36 hyphens, 36 hex digits), and PostgreSQL then throws
  // "invalid input syntax for type uuid" — a 500 instead of a 404. Flip to it() when fixed.
  it("returns nothing (rather than throwing) for 36-character ids that are not UUIDs", async () => {
    const owner = await aCustomer();
    for (const malformed of ["-".repeat(36), "a".repeat(36), "0123456789abcdef0123456789abcdef0123"]) {
      expect(await getQuoteForCustomer(malformed, owner.id, T0)).toBeNull();
    }
  });

  it("lists the customer's sent quotes, newest first, with the sent revision's total", async () => {
    const customer = await aCustomer();
    const older = await sentQuote(customer.email, {}, T0);
    const newer = await sentQuote(customer.email, { lines: [LINE_A] }, at(1));
    await draftQuote(customer.email);
    const list = await listQuotesForCustomer(customer.id, at(2));
    expect(list.map((row) => row.id)).toEqual([newer.id, older.id]);
    expect(list[0]).toMatchObject({ number: newer.number, status: "enviada", totalCentavos: 10_729, ivaCentavos: 1_480, validUntil: at(31), sentAt: at(1) });
  });
});

describe("linking quotes to accounts", () => {
  it("linkQuotesToUser links quotes by email, whatever the case, and only those not linked yet", async () => {
    const customer = await aCustomer("enlace");
    const someoneElse = await aCustomer("alguien");
    const mixedCase = value(await createQuote({ actor: staff }, T0));
    await getDb().update(quotes).set({ customerEmail: customer.email.toUpperCase() }).where(eq(quotes.id, mixedCase.id));
    const lower = value(await createQuote({ actor: staff }, T0));
    await getDb().update(quotes).set({ customerEmail: customer.email }).where(eq(quotes.id, lower.id));
    const alreadyLinked = value(await createQuote({ actor: staff }, T0));
    await getDb().update(quotes).set({ customerEmail: customer.email, customerUserId: someoneElse.id }).where(eq(quotes.id, alreadyLinked.id));
    const otherEmail = value(await createQuote({ actor: staff }, T0));
    await getDb().update(quotes).set({ customerEmail: "nadie@ejemplo.mx" }).where(eq(quotes.id, otherEmail.id));

    expect(await linkQuotesToUser(customer.id, customer.email.replace(/^./, (c) => c.toUpperCase()))).toBe(2);
    expect((await quoteRow(mixedCase.id)).customerUserId).toBe(customer.id);
    expect((await quoteRow(lower.id)).customerUserId).toBe(customer.id);
    expect((await quoteRow(alreadyLinked.id)).customerUserId).toBe(someoneElse.id);
    expect((await quoteRow(otherEmail.id)).customerUserId).toBeNull();
    expect(await linkQuotesToUser(customer.id, customer.email)).toBe(0);
  });

  it("a visitor who registers with the quote's email sees it once the email is confirmed", async () => {
    const email = `visitante-${process.pid}@ejemplo.mx`;
    const { id, number } = await sentQuote(email);
    expect((await quoteRow(id)).customerUserId).toBeNull();

    const registered = await registerCustomer(requestMeta("/cuenta/registro", { ip: nextTestIp(), method: "POST" }), {
      name: "Visitante Nuevo",
      email: email.toUpperCase(),
      password: "Fresadora-CNC-42",
    });
    if (!registered.ok) throw new Error(registered.message);
    const userId = registered.value.id;

    // Not confirmed yet: an account with that email must not see the quote.
    expect((await quoteRow(id)).customerUserId).toBeNull();
    expect(await listQuotesForCustomer(userId, T0)).toEqual([]);
    expect(await getQuoteForCustomer(id, userId, T0)).toBeNull();

    const [confirmation] = (await mails(email)).filter((mail) => mail.subject === "Confirme su correo en Forja");
    const token = decodeURIComponent(confirmation!.text.match(/\/cuenta\/confirmar\?token=([^\s"'<>&]+)/)![1]!);
    const confirmed = await confirmEmail(requestMeta(`/cuenta/confirmar?token=${encodeURIComponent(token)}`, { ip: nextTestIp() }), token);
    expect(confirmed.ok).toBe(true);

    expect((await quoteRow(id)).customerUserId).toBe(userId);
    expect((await listQuotesForCustomer(userId, T0)).map((row) => row.number)).toEqual([number]);
    expect((await getQuoteForCustomer(id, userId, T0))!.quote).toMatchObject({ id, number, status: "enviada" });

    // Later quotes to that email join the account as soon as staff save them.
    const later = await draftQuote(email);
    expect((await quoteRow(later.id)).customerUserId).toBe(userId);
  });
});
