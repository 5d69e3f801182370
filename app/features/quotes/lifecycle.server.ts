import { eq } from "drizzle-orm";
import { getDb, type DbTransaction } from "~/db/client.server";
import { quoteRevisions, quotes } from "~/db/schema/quotes";
import { nudgeMailWorker } from "~/services/mail/outbox.server";
import type { SiteFacts } from "~/services/site-config/business-facts";
import { getSiteFacts } from "~/features/site/index.server";
import { isUuid } from "~/lib/uuid";
import { conflict, invalid, ok, type Result } from "~/lib/result";
import { REJECTION_REASONS } from "./forms";
import { mailQuoteDecision, mailQuoteSent } from "./quote-emails.server";
import { lockQuoteWithNewestRevision, quoteNotFound, recordQuoteEvent, revisionTotal, type QuoteRow } from "./records.server";
import { actionTarget, checkQuoteAction, effectiveStatus, type QuoteAction, type QuoteActor, type QuoteStatus } from "./states";
import type { Actor } from "./types";

// The quote lifecycle: send, revise, accept, reject, cancel. Which step is allowed from where is
// the table in ./states (the pages read the same table); this module enforces it on the server.
// Every step runs on the quote's row locked for update, so two clicks, two tabs or two processes
// can never accept twice or accept what was just cancelled: the second sees the first's result.

const DAY_MS = 24 * 60 * 60 * 1000;

/** Sends the draft revision to the customer: validity starts now, an email goes out. */
export async function sendQuote(quoteId: string, actor: Actor, now = new Date()): Promise<Result> {
  if (!isUuid(quoteId)) return quoteNotFound();
  // Read before the transaction: on PGlite a read outside a running transaction waits for it.
  const facts = await getSiteFacts();
  const result = await getDb().transaction(async (tx): Promise<Result> => {
    const found = await lockQuoteWithNewestRevision(tx, quoteId);
    if (!found) return quoteNotFound();
    const { quote, revision } = found;
    const check = checkQuoteAction({ action: "enviar", who: "staff", status: effectiveStatus(quote.status, quote.validUntil, now), newestSent: Boolean(revision.sentAt) });
    if (!check.allowed) return conflict(check.because === "revision" ? "Esta revisión ya se envió." : `Una cotización ${quote.status} no se puede enviar.`);
    if (!quote.customerEmail) return invalid("Falta el correo del cliente.");
    if (revision.lines.length === 0) return invalid("Agregue al menos una partida antes de enviar.");
    if (revision.lines.some((line) => line.unitPriceCentavos <= 0)) return invalid("Todas las partidas necesitan un precio unitario mayor que cero.");
    const validUntil = new Date(now.getTime() + revision.validityDays * DAY_MS);
    await tx.update(quoteRevisions).set({ sentAt: now, validUntil, updatedAt: now }).where(eq(quoteRevisions.id, revision.id));
    await tx
      .update(quotes)
      .set({ status: check.to, sentRevision: revision.revision, validUntil, sentAt: now, updatedAt: now, rejectedAt: null, rejectedReason: null, rejectedNote: null, expiredAt: null })
      .where(eq(quotes.id, quoteId));
    await recordQuoteEvent(tx, { quoteId, actor, now, kind: "enviada", revision: revision.revision, fromStatus: quote.status, toStatus: check.to });
    await mailQuoteSent(tx, facts, { ...quote, totalCentavos: revision.totalCentavos, validUntil, revision: revision.revision });
    return ok();
  });
  if (result.ok) nudgeMailWorker();
  return result;
}

/** A new draft revision of a sent (or rejected, or expired) quote, starting from the last one. */
export async function reviseQuote(quoteId: string, actor: Actor, now = new Date()): Promise<Result<{ revision: number }>> {
  if (!isUuid(quoteId)) return quoteNotFound();
  return getDb().transaction(async (tx): Promise<Result<{ revision: number }>> => {
    const found = await lockQuoteWithNewestRevision(tx, quoteId);
    if (!found) return quoteNotFound();
    const { quote, revision } = found;
    const check = checkQuoteAction({ action: "revisar", who: "staff", status: effectiveStatus(quote.status, quote.validUntil, now), newestSent: Boolean(revision.sentAt) });
    if (!check.allowed) {
      return conflict(check.because === "revision" ? "Ya hay una revisión en preparación; edítela y envíela." : `Una cotización ${quote.status} no se puede revisar.`);
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
    await recordQuoteEvent(tx, { quoteId, actor, now, kind: "revision", revision: next, detail: `Revisión ${next} creada a partir de la ${revision.revision}` });
    return ok({ revision: next });
  });
}

interface TransitionInput {
  quoteId: string;
  actor: Actor;
  action: QuoteAction;
  who: QuoteActor;
  /** Columns the step writes besides status and updatedAt. */
  set: Partial<typeof quotes.$inferInsert>;
  now: Date;
  /** A further rule on the locked row; returns the refusal, or null to go on. */
  precondition?: (quote: QuoteRow) => string | null;
  /** Runs in the same transaction after the update (the emails of a decision). */
  afterUpdate?: (tx: DbTransaction, quote: QuoteRow, facts: SiteFacts) => Promise<void>;
}

/** A status change by the table: lock, check, update, record the event, then whatever follows. */
async function transition(input: TransitionInput): Promise<Result> {
  const { quoteId, actor, now } = input;
  if (!isUuid(quoteId)) return quoteNotFound();
  // The emails' business facts, read before the transaction (a read inside it would wait on PGlite).
  const facts = input.afterUpdate ? await getSiteFacts() : null;
  const result = await getDb().transaction(async (tx): Promise<Result> => {
    // The row lock serializes concurrent decisions on one quote: the second sees the first's result.
    const [current] = await tx.select().from(quotes).where(eq(quotes.id, quoteId)).for("update").limit(1);
    // A customer decides only on their own quote; anyone else learns nothing about it.
    if (!current || (input.who === "customer" && current.customerUserId !== actor.id)) return quoteNotFound();
    const status = effectiveStatus(current.status, current.validUntil, now);
    const check = checkQuoteAction({ action: input.action, who: input.who, status });
    if (!check.allowed) return conflict(refusalMessage(status, actionTarget(input.action)));
    const problem = input.precondition?.(current);
    if (problem) return conflict(problem);
    const [updated] = await tx
      .update(quotes)
      .set({ ...input.set, status: check.to, updatedAt: now })
      .where(eq(quotes.id, quoteId))
      .returning();
    await recordQuoteEvent(tx, {
      quoteId,
      actor,
      now,
      kind: check.to,
      revision: updated!.sentRevision ?? updated!.currentRevision,
      fromStatus: status,
      toStatus: check.to,
      detail: input.set.rejectedReason ?? undefined,
    });
    if (input.afterUpdate) await input.afterUpdate(tx, updated!, facts!);
    return ok();
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

/** A decision names the revision the customer's page showed; a newer one sent since must be read first. */
function revisionRead(revision: number | undefined, verb: string) {
  return (quote: QuoteRow) =>
    revision !== undefined && quote.sentRevision !== revision
      ? `Le enviamos una revisión nueva de esta cotización (revisión ${quote.sentRevision}) mientras tenía abierta la ${revision}. Revise los cambios antes de ${verb}.`
      : null;
}

/**
 * The customer accepts the sent revision with their typed name as signature. With `revision` (the
 * one their page showed), a newer revision sent since is refused: nobody signs what they have not read.
 */
export function acceptQuote(quoteId: string, customer: Actor, input: { fullName: string; ip: string; userAgent: string; revision?: number }, now = new Date()): Promise<Result> {
  return transition({
    quoteId,
    actor: customer,
    action: "aceptar",
    who: "customer",
    set: { acceptedName: input.fullName, acceptedAt: now, acceptedIp: input.ip || null, acceptedUserAgent: input.userAgent.slice(0, 500) || null },
    now,
    precondition: revisionRead(input.revision, "aceptarla"),
    afterUpdate: async (tx, quote, facts) => {
      const revision = quote.sentRevision ?? quote.currentRevision;
      await mailQuoteDecision(tx, facts, { ...quote, totalCentavos: await revisionTotal(tx, quote.id, revision), revision }, { accepted: true, by: input.fullName });
    },
  });
}

export function rejectQuote(quoteId: string, customer: Actor, input: { reason: string; note?: string; revision?: number }, now = new Date()): Promise<Result> {
  const label = REJECTION_REASONS.find((reason) => reason.value === input.reason)?.label ?? input.reason;
  return transition({
    quoteId,
    actor: customer,
    action: "rechazar",
    who: "customer",
    set: { rejectedReason: label, rejectedNote: input.note || null, rejectedAt: now },
    now,
    precondition: revisionRead(input.revision, "rechazarla"),
    afterUpdate: async (tx, quote, facts) => {
      const revision = quote.sentRevision ?? quote.currentRevision;
      await mailQuoteDecision(tx, facts, { ...quote, totalCentavos: await revisionTotal(tx, quote.id, revision), revision }, {
        accepted: false,
        by: customer.name,
        reason: [label, input.note].filter(Boolean).join(" — "),
      });
    },
  });
}

/** Staff cancel a draft or a sent quote (also one whose date passed). */
export function cancelQuote(quoteId: string, actor: Actor, now = new Date()): Promise<Result> {
  return transition({ quoteId, actor, action: "cancelar", who: "staff", set: { cancelledAt: now }, now });
}
