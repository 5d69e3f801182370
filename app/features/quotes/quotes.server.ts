import { and, asc, count, desc, eq, ilike, lt, or, sql, type SQL } from "drizzle-orm";
import { getDb, type DbTransaction } from "~/db/client.server";
import { user } from "~/db/schema/auth";
import { quoteEvents, quoteMessages, quoteRevisions, quotes, type QuoteLine, type QuoteStatus } from "~/db/schema/quotes";
import { nudgeMailWorker } from "~/services/mail/outbox.server";
import { nextRecordNumber } from "~/services/numbering/next-number.server";
import { getSolicitudForQuote, markSolicitudQuoted } from "~/features/solicitudes/index.server";
import { containsPattern } from "~/lib/sql-like";
import { isUuid } from "~/lib/uuid";
import { mailQuoteDecision, mailQuoteMessage, mailQuoteSent } from "./quote-emails.server";
import { DEFAULT_TERMS, REJECTION_REASONS, type QuoteDraftInput } from "./forms";
import { computeTotals } from "./totals";

// The quote lifecycle. Every rule is enforced here, on the server:
//   borrador → enviada → aceptada | rechazada | vencida;  borrador | enviada → cancelada.
// A sent quote changes only through a new revision; earlier revisions stay readable.
// Transitions are conditional updates ("… where status = 'enviada'"), so two clicks, two tabs or
// two processes can never accept twice or accept what was just cancelled.

export interface Actor {
  id: string | null;
  name: string;
}

export type QuoteResult<T = undefined> = { ok: true; value: T } | { ok: false; status: number; message: string };

const refused = (message: string, status = 409): { ok: false; status: number; message: string } => ({ ok: false, status, message });

const DAY_MS = 24 * 60 * 60 * 1000;

/** What a reader sees: a sent quote past its date is "vencida" even before the job marks it. */
export function effectiveStatus(status: QuoteStatus, validUntil: Date | null, now: Date): QuoteStatus {
  return status === "enviada" && validUntil && validUntil.getTime() < now.getTime() ? "vencida" : status;
}

function pricedLines(input: QuoteDraftInput["lines"]): { lines: QuoteLine[]; subtotalCentavos: number; ivaCentavos: number; totalCentavos: number } {
  const raw = input.map((line) => ({
    description: line.description,
    unit: line.unit,
    quantityMilli: line.quantity,
    unitPriceCentavos: line.unitPrice,
    discountBp: line.discount,
  }));
  const { lines: amounts, totals } = computeTotals(raw);
  return { lines: raw.map((line, index) => ({ ...line, ...amounts[index]! })), ...totals };
}

async function event(
  tx: DbTransaction,
  quoteId: string,
  actor: Actor,
  now: Date,
  values: { kind: string; revision?: number; fromStatus?: string; toStatus?: string; detail?: string },
) {
  await tx.insert(quoteEvents).values({ quoteId, actorId: actor.id, actorName: actor.name, createdAt: now, ...values });
}

const NOT_FOUND = { ok: false as const, status: 404, message: "No encontramos esa cotización." };

async function findAccountId(tx: DbTransaction, email: string): Promise<string | null> {
  const [row] = await tx.select({ id: user.id }).from(user).where(and(eq(sql`lower(${user.email})`, email.toLowerCase()), eq(user.emailVerified, true))).limit(1);
  return row?.id ?? null;
}

/** A new draft, blank or prefilled from a request (which moves to "cotizado"). */
export async function createQuote(input: { solicitudId?: string | null; actor: Actor }, now = new Date()): Promise<QuoteResult<{ id: string; number: string }>> {
  const solicitud = input.solicitudId ? await getSolicitudForQuote(input.solicitudId) : null;
  if (input.solicitudId && !solicitud) return refused("No encontramos esa solicitud.", 404);
  // One live quote per request: a second click on "Crear cotización" opens the one that exists.
  if (solicitud) {
    const [existing] = await getDb()
      .select({ id: quotes.id, number: quotes.number })
      .from(quotes)
      .where(and(eq(quotes.solicitudId, solicitud.id), sql`${quotes.status} <> 'cancelada'`))
      .limit(1);
    if (existing) return { ok: true, value: existing };
  }
  const id = await getDb().transaction(async (tx) => {
    const number = await nextRecordNumber(tx, "COT", now);
    const email = solicitud?.email ?? "";
    const [quote] = await tx
      .insert(quotes)
      .values({
        number,
        solicitudId: solicitud?.id ?? null,
        customerEmail: email,
        customerName: solicitud?.name ?? "",
        customerCompany: solicitud?.company ?? null,
        customerUserId: solicitud?.userId ?? (email ? await findAccountId(tx, email) : null),
        createdById: input.actor.id,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: quotes.id });
    const firstLine: QuoteLine[] = solicitud?.description
      ? [
          {
            description: solicitud.description.slice(0, 500),
            quantityMilli: (solicitud.quantity ?? 1) * 1000,
            unit: "pieza",
            unitPriceCentavos: 0,
            discountBp: 0,
            netCentavos: 0,
            ivaCentavos: 0,
          },
        ]
      : [];
    await tx.insert(quoteRevisions).values({
      quoteId: quote!.id,
      revision: 1,
      lines: firstLine,
      leadTimeDays: 10,
      terms: DEFAULT_TERMS,
      subtotalCentavos: 0,
      ivaCentavos: 0,
      totalCentavos: 0,
    });
    await event(tx, quote!.id, input.actor, now, {
      kind: "creada",
      revision: 1,
      toStatus: "borrador",
      detail: solicitud ? `Desde la solicitud ${solicitud.number}` : undefined,
    });
    return { id: quote!.id, number };
  });
  if (solicitud) await markSolicitudQuoted(solicitud.id, input.actor);
  return { ok: true, value: id };
}

async function draftRevision(tx: DbTransaction, quoteId: string) {
  const [quote] = await tx.select().from(quotes).where(eq(quotes.id, quoteId)).for("update").limit(1);
  if (!quote) return null;
  const [revision] = await tx
    .select()
    .from(quoteRevisions)
    .where(and(eq(quoteRevisions.quoteId, quoteId), eq(quoteRevisions.revision, quote.currentRevision)))
    .limit(1);
  return { quote, revision: revision! };
}

/** Saves the draft revision; a sent revision is never edited in place. */
export async function saveQuoteDraft(quoteId: string, input: QuoteDraftInput, actor: Actor, now = new Date()): Promise<QuoteResult<{ totalCentavos: number }>> {
  if (!isUuid(quoteId)) return NOT_FOUND;
  return getDb().transaction(async (tx) => {
    const found = await draftRevision(tx, quoteId);
    if (!found) return refused("No encontramos esa cotización.", 404);
    const { quote, revision } = found;
    if (revision.sentAt || quote.status === "aceptada" || quote.status === "cancelada") {
      return refused("Esta revisión ya se envió y no se puede editar. Cree una revisión nueva para cambiarla.");
    }
    const priced = pricedLines(input.lines);
    await tx
      .update(quoteRevisions)
      .set({
        lines: priced.lines,
        leadTimeDays: input.leadTimeDays,
        validityDays: input.validityDays,
        terms: input.terms,
        notes: input.notes,
        subtotalCentavos: priced.subtotalCentavos,
        ivaCentavos: priced.ivaCentavos,
        totalCentavos: priced.totalCentavos,
        updatedAt: now,
      })
      .where(eq(quoteRevisions.id, revision.id));
    // A corrected email moves the quote to that email's account (or to none yet).
    const customerUserId =
      quote.customerEmail.toLowerCase() === input.customerEmail.toLowerCase() && quote.customerUserId
        ? quote.customerUserId
        : await findAccountId(tx, input.customerEmail);
    await tx
      .update(quotes)
      .set({ customerName: input.customerName, customerEmail: input.customerEmail, customerCompany: input.customerCompany || null, customerUserId, updatedAt: now })
      .where(eq(quotes.id, quoteId));
    await event(tx, quoteId, actor, now, { kind: "guardada", revision: revision.revision, detail: `Total ${priced.totalCentavos} centavos` });
    return { ok: true as const, value: { totalCentavos: priced.totalCentavos } };
  });
}

/** Sends the draft revision to the customer: validity starts now, an email goes out. */
export async function sendQuote(quoteId: string, actor: Actor, now = new Date()): Promise<QuoteResult> {
  if (!isUuid(quoteId)) return NOT_FOUND;
  const result = await getDb().transaction(async (tx): Promise<QuoteResult> => {
    const found = await draftRevision(tx, quoteId);
    if (!found) return refused("No encontramos esa cotización.", 404);
    const { quote, revision } = found;
    if (revision.sentAt) return refused("Esta revisión ya se envió.");
    if (!["borrador", "enviada", "rechazada", "vencida"].includes(quote.status)) return refused(`Una cotización ${quote.status} no se puede enviar.`);
    if (!quote.customerEmail) return refused("Falta el correo del cliente.", 400);
    if (revision.lines.length === 0) return refused("Agregue al menos una partida antes de enviar.", 400);
    if (revision.lines.some((line) => line.unitPriceCentavos <= 0)) return refused("Todas las partidas necesitan un precio unitario mayor que cero.", 400);
    const validUntil = new Date(now.getTime() + revision.validityDays * DAY_MS);
    await tx.update(quoteRevisions).set({ sentAt: now, validUntil, updatedAt: now }).where(eq(quoteRevisions.id, revision.id));
    await tx
      .update(quotes)
      .set({ status: "enviada", sentRevision: revision.revision, validUntil, sentAt: now, updatedAt: now, rejectedAt: null, rejectedReason: null, rejectedNote: null, expiredAt: null })
      .where(eq(quotes.id, quoteId));
    await event(tx, quoteId, actor, now, { kind: "enviada", revision: revision.revision, fromStatus: quote.status, toStatus: "enviada" });
    await mailQuoteSent(tx, { ...quote, totalCentavos: revision.totalCentavos, validUntil, revision: revision.revision });
    return { ok: true, value: undefined };
  });
  if (result.ok) nudgeMailWorker();
  return result;
}

/** A new draft revision of a sent (or rejected, or expired) quote, starting from the last one. */
export async function reviseQuote(quoteId: string, actor: Actor, now = new Date()): Promise<QuoteResult<{ revision: number }>> {
  if (!isUuid(quoteId)) return NOT_FOUND;
  return getDb().transaction(async (tx) => {
    const found = await draftRevision(tx, quoteId);
    if (!found) return refused("No encontramos esa cotización.", 404);
    const { quote, revision } = found;
    if (!revision.sentAt) return refused("Ya hay una revisión en preparación; edítela y envíela.");
    if (!["enviada", "rechazada", "vencida"].includes(effectiveStatus(quote.status, quote.validUntil, now))) {
      return refused(`Una cotización ${quote.status} no se puede revisar.`);
    }
    const next = revision.revision + 1;
    await tx.insert(quoteRevisions).values({
      quoteId,
      revision: next,
      lines: revision.lines,
      leadTimeDays: revision.leadTimeDays,
      validityDays: revision.validityDays,
      terms: revision.terms,
      notes: revision.notes,
      subtotalCentavos: revision.subtotalCentavos,
      ivaCentavos: revision.ivaCentavos,
      totalCentavos: revision.totalCentavos,
      createdAt: now,
      updatedAt: now,
    });
    await tx.update(quotes).set({ currentRevision: next, updatedAt: now }).where(eq(quotes.id, quoteId));
    await event(tx, quoteId, actor, now, { kind: "revision", revision: next, detail: `Revisión ${next} creada a partir de la ${revision.revision}` });
    return { ok: true as const, value: { revision: next } };
  });
}

async function transition(
  quoteId: string,
  actor: Actor,
  from: QuoteStatus[],
  to: QuoteStatus,
  set: Partial<typeof quotes.$inferInsert>,
  now: Date,
  extra?: (tx: DbTransaction, quote: typeof quotes.$inferSelect) => Promise<void>,
  customerDecision = false,
  /** A further rule on the locked row; returns the refusal, or null to go on. */
  precondition?: (quote: typeof quotes.$inferSelect) => string | null,
): Promise<QuoteResult> {
  if (!isUuid(quoteId)) return NOT_FOUND;
  const result = await getDb().transaction(async (tx): Promise<QuoteResult> => {
    // The row lock serializes concurrent decisions on one quote: the second sees the first's result.
    const [current] = await tx.select().from(quotes).where(eq(quotes.id, quoteId)).for("update").limit(1);
    // A customer decides only on their own quote; anyone else learns nothing about it.
    if (!current || (customerDecision && current.customerUserId !== actor.id)) return NOT_FOUND;
    const status = effectiveStatus(current.status, current.validUntil, now);
    const allowed = from.includes(current.status) && (!customerDecision || status !== "vencida");
    if (!allowed) return refused(refusalMessage(status, to));
    const problem = precondition?.(current);
    if (problem) return refused(problem);
    const [updated] = await tx
      .update(quotes)
      .set({ ...set, status: to, updatedAt: now })
      .where(eq(quotes.id, quoteId))
      .returning();
    await event(tx, quoteId, actor, now, {
      kind: to,
      revision: updated!.sentRevision ?? updated!.currentRevision,
      fromStatus: status,
      toStatus: to,
      detail: set.rejectedReason ?? undefined,
    });
    await extra?.(tx, updated!);
    return { ok: true, value: undefined };
  });
  if (result.ok) nudgeMailWorker();
  return result;
}

function refusalMessage(status: QuoteStatus, to: QuoteStatus): string {
  if (status === to) return `La cotización ya está ${to}.`;
  if (status === "vencida") return "La cotización venció. Pídanos una revisión con precios vigentes.";
  if (status === "borrador") return "La cotización todavía no se ha enviado.";
  return `Una cotización ${status} no puede pasar a ${to}.`;
}

async function revisionTotal(tx: DbTransaction, quoteId: string, revision: number): Promise<number> {
  const [row] = await tx
    .select({ total: quoteRevisions.totalCentavos })
    .from(quoteRevisions)
    .where(and(eq(quoteRevisions.quoteId, quoteId), eq(quoteRevisions.revision, revision)))
    .limit(1);
  return row?.total ?? 0;
}

/**
 * The customer accepts the sent revision with their typed name as signature. With `revision` (the
 * one their page showed), a newer revision sent since is refused: nobody signs what they have not read.
 */
export function acceptQuote(
  quoteId: string,
  customer: Actor,
  input: { fullName: string; ip: string; userAgent: string; revision?: number },
  now = new Date(),
): Promise<QuoteResult> {
  return transition(
    quoteId,
    customer,
    ["enviada"],
    "aceptada",
    { acceptedName: input.fullName, acceptedAt: now, acceptedIp: input.ip || null, acceptedUserAgent: input.userAgent.slice(0, 500) || null },
    now,
    async (tx, quote) => {
      const revision = quote.sentRevision ?? quote.currentRevision;
      await mailQuoteDecision(tx, { ...quote, totalCentavos: await revisionTotal(tx, quote.id, revision), revision }, { accepted: true, by: input.fullName });
    },
    true,
    revisionRead(input.revision, "aceptarla"),
  );
}

/** A decision names the revision the customer's page showed; a newer one sent since must be read first. */
function revisionRead(revision: number | undefined, verb: string) {
  return (quote: typeof quotes.$inferSelect) =>
    revision !== undefined && quote.sentRevision !== revision
      ? `Le enviamos una revisión nueva de esta cotización (revisión ${quote.sentRevision}) mientras tenía abierta la ${revision}. Revise los cambios antes de ${verb}.`
      : null;
}

export function rejectQuote(quoteId: string, customer: Actor, input: { reason: string; note?: string; revision?: number }, now = new Date()): Promise<QuoteResult> {
  const label = REJECTION_REASONS.find((reason) => reason.value === input.reason)?.label ?? input.reason;
  return transition(
    quoteId,
    customer,
    ["enviada"],
    "rechazada",
    { rejectedReason: label, rejectedNote: input.note || null, rejectedAt: now },
    now,
    async (tx, quote) => {
      const revision = quote.sentRevision ?? quote.currentRevision;
      await mailQuoteDecision(tx, { ...quote, totalCentavos: await revisionTotal(tx, quote.id, revision), revision }, {
        accepted: false,
        by: customer.name,
        reason: [label, input.note].filter(Boolean).join(" — "),
      });
    },
    true,
    revisionRead(input.revision, "rechazarla"),
  );
}

/** Staff cancel a draft or a sent quote (also one whose date passed). */
export function cancelQuote(quoteId: string, actor: Actor, now = new Date()): Promise<QuoteResult> {
  return transition(quoteId, actor, ["borrador", "enviada", "vencida"], "cancelada", { cancelledAt: now }, now);
}

export const EXPIRY_LOCK_KEY = 7_302_026;

/**
 * Marks sent quotes past their date as "vencida". Safe with several processes: a transaction-level
 * advisory lock lets one of them do it at a time; the others skip this round.
 */
export async function expireDueQuotes(now = new Date()): Promise<number> {
  return getDb().transaction(async (tx) => {
    const result = await tx.execute(sql`select pg_try_advisory_xact_lock(${EXPIRY_LOCK_KEY}) as locked`);
    const [lock] = (result as unknown as { rows: { locked: boolean }[] }).rows;
    if (!lock?.locked) return 0;
    const expired = await tx
      .update(quotes)
      .set({ status: "vencida", expiredAt: now, updatedAt: now })
      .where(and(eq(quotes.status, "enviada"), lt(quotes.validUntil, now)))
      .returning({ id: quotes.id, revision: quotes.sentRevision });
    for (const quote of expired) {
      await event(tx, quote.id, { id: null, name: "Sistema" }, now, { kind: "vencida", revision: quote.revision ?? undefined, fromStatus: "enviada", toStatus: "vencida" });
    }
    return expired.length;
  });
}

export function startQuoteExpiryJob(intervalMs = 60_000): { stop: () => void } {
  const timer = setInterval(() => void expireDueQuotes().catch(() => {}), intervalMs);
  timer.unref();
  void expireDueQuotes().catch(() => {});
  return { stop: () => clearInterval(timer) };
}

export async function addQuoteMessage(quoteId: string, author: Actor, body: string, fromStaff: boolean, now = new Date()): Promise<QuoteResult> {
  if (!isUuid(quoteId)) return NOT_FOUND;
  const result = await getDb().transaction(async (tx): Promise<QuoteResult> => {
    const [quote] = await tx.select().from(quotes).where(eq(quotes.id, quoteId)).limit(1);
    if (!quote) return NOT_FOUND;
    if (!fromStaff && quote.customerUserId !== author.id) return NOT_FOUND;
    if (fromStaff && !quote.customerEmail) return refused("Falta el correo del cliente: guárdelo en la cotización antes de escribirle.", 400);
    await tx.insert(quoteMessages).values({ quoteId, authorId: author.id, authorName: author.name, fromStaff, body, createdAt: now });
    await mailQuoteMessage(tx, { ...quote, totalCentavos: 0, revision: quote.sentRevision ?? quote.currentRevision }, { fromStaff, author: author.name, body });
    return { ok: true, value: undefined };
  });
  if (result.ok) nudgeMailWorker();
  return result;
}

// ——— Reading ———

export interface RevisionChange {
  kind: "agregada" | "eliminada" | "cambiada";
  description: string;
  before?: QuoteLine;
  after?: QuoteLine;
}

export interface RevisionComparison {
  revision: number;
  previous: number;
  lines: RevisionChange[];
  leadTime?: { before: number; after: number };
  total: { before: number; after: number };
}

/** What changed between two revisions: lines added/removed/changed (matched by description), lead time, total. */
export function compareRevisions(
  previous: { revision: number; lines: QuoteLine[]; leadTimeDays: number; totalCentavos: number },
  next: { revision: number; lines: QuoteLine[]; leadTimeDays: number; totalCentavos: number },
): RevisionComparison {
  const key = (line: QuoteLine) => line.description.trim().toLowerCase();
  const before = new Map(previous.lines.map((line) => [key(line), line]));
  const after = new Map(next.lines.map((line) => [key(line), line]));
  const lines: RevisionChange[] = [];
  for (const [name, line] of after) {
    const old = before.get(name);
    if (!old) lines.push({ kind: "agregada", description: line.description, after: line });
    else if (old.quantityMilli !== line.quantityMilli || old.unitPriceCentavos !== line.unitPriceCentavos || old.discountBp !== line.discountBp || old.unit !== line.unit) {
      lines.push({ kind: "cambiada", description: line.description, before: old, after: line });
    }
  }
  for (const [name, line] of before) if (!after.has(name)) lines.push({ kind: "eliminada", description: line.description, before: line });
  return {
    revision: next.revision,
    previous: previous.revision,
    lines,
    leadTime: previous.leadTimeDays !== next.leadTimeDays ? { before: previous.leadTimeDays, after: next.leadTimeDays } : undefined,
    total: { before: previous.totalCentavos, after: next.totalCentavos },
  };
}

async function loadQuote(quoteId: string) {
  if (!isUuid(quoteId)) return null;
  const db = getDb();
  const [quote] = await db.select().from(quotes).where(eq(quotes.id, quoteId)).limit(1);
  if (!quote) return null;
  const [revisions, events, messages] = await Promise.all([
    db.select().from(quoteRevisions).where(eq(quoteRevisions.quoteId, quoteId)).orderBy(asc(quoteRevisions.revision)),
    db.select().from(quoteEvents).where(eq(quoteEvents.quoteId, quoteId)).orderBy(asc(quoteEvents.createdAt)),
    db.select().from(quoteMessages).where(eq(quoteMessages.quoteId, quoteId)).orderBy(asc(quoteMessages.createdAt)),
  ]);
  return { quote, revisions, events, messages };
}

function comparisons(revisions: { revision: number; lines: QuoteLine[]; leadTimeDays: number; totalCentavos: number; sentAt: Date | null }[]): RevisionComparison[] {
  const sent = revisions.filter((revision) => revision.sentAt);
  return sent.slice(1).map((revision, index) => compareRevisions(sent[index]!, revision));
}

function withoutNotes<T extends { notes: string }>(revision: T): Omit<T, "notes"> {
  const { notes: _notes, ...rest } = revision;
  return rest;
}

/** The customer's view: only their own quotes, only what was sent. Anything else is "not found". */
export async function getQuoteForCustomer(quoteId: string, userId: string, now = new Date()) {
  const loaded = await loadQuote(quoteId);
  if (!loaded || loaded.quote.customerUserId !== userId || loaded.quote.sentRevision === null) return null;
  const { quote, revisions, messages, events } = loaded;
  const visible = revisions.filter((revision) => revision.sentAt);
  const current = visible.find((revision) => revision.revision === quote.sentRevision)!;
  // Only what the customer should see: no staff ids, no internal revision in preparation.
  const { createdById: _createdBy, acceptedIp: _ip, acceptedUserAgent: _ua, currentRevision: _draft, ...visibleQuote } = quote;
  return {
    quote: { ...visibleQuote, status: effectiveStatus(quote.status, quote.validUntil, now) },
    // Internal notes are for staff only.
    revision: withoutNotes(current),
    revisions: visible.map(({ revision, sentAt, totalCentavos }) => ({ revision, sentAt, totalCentavos })),
    comparisons: comparisons(visible),
    messages: messages.map(({ authorId: _author, ...message }) => message),
    history: events
      .filter((item) => ["enviada", "aceptada", "rechazada", "vencida", "cancelada"].includes(item.kind))
      .map(({ actorId: _actor, ...item }) => item),
  };
}

export async function getQuoteForStaff(quoteId: string, now = new Date()) {
  const loaded = await loadQuote(quoteId);
  if (!loaded) return null;
  const { quote, revisions } = loaded;
  return {
    ...loaded,
    quote: { ...quote, status: effectiveStatus(quote.status, quote.validUntil, now) },
    current: revisions.find((revision) => revision.revision === quote.currentRevision)!,
    comparisons: comparisons(revisions),
  };
}

export async function listQuotesForCustomer(userId: string, now = new Date()) {
  const rows = await getDb()
    .select({
      id: quotes.id,
      number: quotes.number,
      status: quotes.status,
      validUntil: quotes.validUntil,
      sentAt: quotes.sentAt,
      totalCentavos: quoteRevisions.totalCentavos,
      ivaCentavos: quoteRevisions.ivaCentavos,
    })
    .from(quotes)
    .innerJoin(quoteRevisions, and(eq(quoteRevisions.quoteId, quotes.id), eq(quoteRevisions.revision, quotes.sentRevision)))
    .where(eq(quotes.customerUserId, userId))
    .orderBy(desc(quotes.sentAt));
  return rows.map((row) => ({ ...row, status: effectiveStatus(row.status, row.validUntil, now) }));
}

export const STAFF_QUOTES_PAGE_SIZE = 30;

export async function listQuotesForStaff(input: { status?: string; q?: string; page: number }, now = new Date()) {
  const conditions: SQL[] = [];
  if (input.status === "vencida") conditions.push(or(eq(quotes.status, "vencida"), and(eq(quotes.status, "enviada"), lt(quotes.validUntil, now)))!);
  else if (input.status === "enviada") conditions.push(and(eq(quotes.status, "enviada"), sql`${quotes.validUntil} >= ${now.toISOString()}`)!);
  else if (input.status) conditions.push(eq(quotes.status, input.status as QuoteStatus));
  if (input.q?.trim()) {
    const pattern = containsPattern(input.q.trim());
    conditions.push(or(ilike(quotes.number, pattern), ilike(quotes.customerName, pattern), ilike(quotes.customerEmail, pattern), ilike(quotes.customerCompany, pattern))!);
  }
  const where = conditions.length ? and(...conditions) : undefined;
  const db = getDb();
  const page = Math.max(1, input.page);
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({
        id: quotes.id,
        number: quotes.number,
        customerName: quotes.customerName,
        customerCompany: quotes.customerCompany,
        status: quotes.status,
        validUntil: quotes.validUntil,
        totalCentavos: quoteRevisions.totalCentavos,
        createdAt: quotes.createdAt,
      })
      .from(quotes)
      // The figure the customer was sent; a draft's own total until the first send.
      .innerJoin(quoteRevisions, and(eq(quoteRevisions.quoteId, quotes.id), eq(quoteRevisions.revision, sql`coalesce(${quotes.sentRevision}, ${quotes.currentRevision})`)))
      .where(where)
      .orderBy(desc(quotes.createdAt))
      .limit(STAFF_QUOTES_PAGE_SIZE)
      .offset((page - 1) * STAFF_QUOTES_PAGE_SIZE),
    db.select({ total: count() }).from(quotes).where(where),
  ]);
  return { rows: rows.map((row) => ({ ...row, status: effectiveStatus(row.status, row.validUntil, now) })), total, page };
}
