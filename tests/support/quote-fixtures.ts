import { asc, eq } from "drizzle-orm";
import { beforeEach, expect } from "vitest";
import { getDb } from "~/db/client.server";
import { user } from "~/db/schema/auth";
import { outbox } from "~/db/schema/outbox";
import { renderedMail } from "~/services/mail/outbox.server";
import { quoteEvents, quoteMessages, quoteRevisions, quotes } from "~/db/schema/quotes";
import { solicitudes } from "~/db/schema/solicitudes";
import { createQuote } from "~/features/quotes/create.server";
import { saveQuoteDraft } from "~/features/quotes/draft.server";
import { QuoteDraftSchema, type QuoteDraftInput } from "~/features/quotes/forms";
import { quoteDefaults } from "~/services/site-config/site-config";
import { sendQuote } from "~/features/quotes/lifecycle.server";
import { linkQuotesToUser } from "~/features/quotes/link.server";
import type { Actor } from "~/features/quotes/types";
import { failureMessages, failureStatus, type Result } from "~/lib/result";
import { insertTestStaff, TEST_STAFF } from "./auth-requests";
import { QUOTES_STAFF_TO } from "./feature-test-env";
import { useTestFileDatabase } from "./test-file-database";

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
    terms: quoteDefaults.terms,
    notes: INTERNAL_NOTE,
    ...overrides,
  };
}

function must<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(failureMessages(result).formErrors.join(" "));
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

// ——— The kit of the domain tests (app/features/quotes/*.server.test.ts) ———
// Every call gets its clock (`now`) explicitly, so validity and expiry are tested by moving the
// clock, never by sleeping. Mail is only written to the outbox (no worker runs), so the tests read
// the outbox table.

export const STAFF_TO = QUOTES_STAFF_TO;
export const PUBLIC_URL = "http://localhost:3000";
export const DAY_MS = 24 * 60 * 60 * 1000;
export const T0 = new Date("2026-03-10T16:00:00.000Z");
export const at = (days: number, base = T0) => new Date(base.getTime() + days * DAY_MS);

/** A staff member with an account row, so events and quotes can point at them. */
export const staff: Actor = TEST_STAFF;

/**
 * A fresh database for the test file, with the staff account; each test starts with no quotes and
 * an empty outbox. `dataDir` (from isolateTestEnv) is removed at the end.
 */
export function useQuoteTestDatabase(dataDir: string): void {
  useTestFileDatabase(dataDir, insertTestStaff);
  beforeEach(async () => {
    // Revisions, events and messages go with their quote (ON DELETE CASCADE).
    await getDb().delete(quotes);
    await getDb().delete(outbox);
  });
}

let sequence = 0;

export interface Customer {
  id: string;
  name: string;
  email: string;
  actor: Actor;
}

/** A customer account inserted directly (verified unless told otherwise). */
export async function aCustomer(label = "cliente", options: { verified?: boolean } = {}): Promise<Customer> {
  sequence += 1;
  const id = `cust-${process.pid}-${sequence}`;
  const name = `Ana Torres ${sequence}`;
  const email = `${label}-${sequence}-${process.pid}@ejemplo.mx`;
  await getDb().insert(user).values({ id, name, email, role: "customer", emailVerified: options.verified ?? true });
  return { id, name, email, actor: { id, name } };
}

export const LINE_A = { description: "Brida de aluminio 6061", quantity: "3", unit: "pieza", unitPrice: "33.33", discount: "7.5" };
export const LINE_B = { description: "Solera de acero 1018", quantity: "2", unit: "metro", unitPrice: "100", discount: "" };

/** A draft as the builder posts it, parsed by the same schema the route uses. */
export function draft(email: string, overrides: Record<string, unknown> = {}): QuoteDraftInput {
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
export const TOTAL_AB = 9_249 + 1_480 + 20_000 + 3_200; // 33929

/** The message a refusal shows: the form-level one (an "invalid" refusal carries it there). */
export function refusalText(result: Result<unknown>): string | undefined {
  return result.ok ? undefined : failureMessages(result).formErrors[0];
}

export function value<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`expected success, got ${failureStatus(result)}: ${refusalText(result)}`);
  return result.value;
}

export function expectRefused(result: Result<unknown>, status: number, message: string | RegExp) {
  expect(result.ok).toBe(false);
  if (result.ok) return;
  expect(failureStatus(result)).toBe(status);
  if (typeof message === "string") expect(refusalText(result)).toBe(message);
  else expect(refusalText(result)).toMatch(message);
}

export async function draftQuote(email: string, overrides: Record<string, unknown> = {}, now = T0): Promise<{ id: string; number: string }> {
  const created = value(await createQuote({ actor: staff }, now));
  value(await saveQuoteDraft(created.id, draft(email, overrides), staff, now));
  return created;
}

export async function sentQuote(email: string, overrides: Record<string, unknown> = {}, now = T0): Promise<{ id: string; number: string }> {
  const created = await draftQuote(email, overrides, now);
  value(await sendQuote(created.id, staff, now));
  return created;
}

export async function quoteRow(id: string) {
  const [row] = await getDb().select().from(quotes).where(eq(quotes.id, id));
  return row!;
}

export async function eventsOf(id: string) {
  return getDb().select().from(quoteEvents).where(eq(quoteEvents.quoteId, id)).orderBy(asc(quoteEvents.createdAt));
}

/** Mail queued (for `to`, or all), oldest first, as it will be sent (rendered). */
export async function mails(to?: string) {
  const rows = (await getDb().select().from(outbox).orderBy(asc(outbox.createdAt))).map(renderedMail);
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

export async function expectUnchanged(id: string, run: () => Promise<Result<unknown>>, status: number, message: string | RegExp) {
  const before = await snapshot(id);
  expectRefused(await run(), status, message);
  expect(await snapshot(id)).toEqual(before);
}

let solicitudSequence = 0;

export async function aSolicitud(overrides: Partial<typeof solicitudes.$inferInsert> = {}) {
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
