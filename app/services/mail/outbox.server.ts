import { randomUUID } from "node:crypto";
import { and, asc, desc, eq, inArray, lte, sql } from "drizzle-orm";
import { z } from "~/lib/zod";
import { afterCommit, getDb, type DbTransaction } from "~/db/client.server";
import { outbox } from "~/db/schema/outbox";
import { logger } from "~/lib/logger.server";
import { startPoller } from "~/services/jobs/poller.server";
import { currentMailConfig } from "./mail-config.server";
import { assertRenderable, renderEmail, type EmailContent, type EmailFacts, type RenderedEmail } from "./templates.server";
import { getMailTransport, type MailTransport } from "./transport.server";

// Every email is written to the outbox first (ARCHITECTURE §4) and delivered by the worker below,
// so a form is never lost because mail is down. Delivery is at-least-once per attempt window and,
// thanks to row locks plus a lease, exactly once across processes sharing one PostgreSQL.

/** A drizzle transaction, so a form's rows and its email commit (or roll back) together. */
export type { DbTransaction };

export type OutboxRow = typeof outbox.$inferSelect;

/** Delay before the retry that follows failed attempt n (index n - 1). */
export const RETRY_DELAYS_MS = [
  30_000, // 30 s
  2 * 60_000, // 2 min
  10 * 60_000, // 10 min
  60 * 60_000, // 1 h
  6 * 60 * 60_000, // 6 h
  12 * 60 * 60_000, // 12 h
  24 * 60 * 60_000, // 24 h
] as const;

/** After this many failed attempts a message is marked `failed` (≈ 43 h after it was written). */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/**
 * How long a claimed row stays invisible to other workers. If the process dies between claim and
 * update, the row becomes due again after the lease (and that claim counts as an attempt). It must
 * outlast a send, whose SMTP timeouts add up to well under a minute.
 */
export const CLAIM_LEASE_MS = 5 * 60_000;

const DEFAULT_BATCH_SIZE = 20;
const LAST_ERROR_MAX_LENGTH = 2_000;

export function retryDelayMs(failedAttempts: number): number {
  const index = Math.min(Math.max(failedAttempts, 1), RETRY_DELAYS_MS.length) - 1;
  return RETRY_DELAYS_MS[index];
}

const singleLine = (value: string) => !/[\r\n]/.test(value);

const EnqueueMailSchema = z.object({
  to: z
    .union([z.string(), z.array(z.string()).min(1).readonly()])
    .transform((value) => (typeof value === "string" ? value : value.join(", ")).trim())
    .pipe(z.string().min(3).max(2_000).refine(singleLine, "sin saltos de línea")),
  subject: z.string().trim().min(1).max(250).refine(singleLine, "sin saltos de línea"),
  replyTo: z.string().trim().min(3).max(320).refine(singleLine, "sin saltos de línea").optional(),
});

/**
 * A message to write: rendered (`html` and `text`), or the layout's `content` with the `facts` read
 * now, which the worker renders before sending (docs/decisions/0081: a quote request's two e-mails
 * no longer cost their rendering, nor their HTML's bytes, inside the request's transaction).
 */
export type EnqueueMailInput = z.input<typeof EnqueueMailSchema> & (RenderedEmail | { content: EmailContent; facts: EmailFacts });

/** The addressing checked, and the body as it is stored: rendered, or content for the worker. */
function checkedMail(input: EnqueueMailInput) {
  const head = EnqueueMailSchema.parse(input);
  if ("content" in input) {
    assertRenderable(input.content);
    // Spread into plain records, the JSON column's type.
    return { ...head, html: null, text: null, content: { content: { ...input.content }, facts: { ...input.facts } } };
  }
  if (!input.html || !input.text) throw new Error("Un correo necesita su HTML y su texto");
  return { ...head, html: input.html, text: input.text, content: null };
}

/** The message a row stands for, as it is sent: its own HTML and text, or its content rendered now. */
export function renderedMail<Row extends Pick<OutboxRow, "html" | "text" | "content">>(row: Row): Row & RenderedEmail {
  if (row.html !== null && row.text !== null) return { ...row, html: row.html, text: row.text };
  if (!row.content) throw new Error("La fila de la bandeja de salida no tiene cuerpo ni contenido");
  // checkedMail writes it in exactly this shape.
  const { content, facts } = row.content as unknown as { content: EmailContent; facts: EmailFacts };
  return { ...row, ...renderEmail(content, facts) };
}

export interface EnqueueMailOptions {
  /** Insert inside the caller's transaction, so the form and its email commit together. */
  tx?: DbTransaction;
}

/** Writes one message to the outbox (status pending) and wakes the local worker. Returns its id. */
export async function enqueueMail(input: EnqueueMailInput, options: EnqueueMailOptions = {}): Promise<{ id: string }> {
  const [row] = await enqueueMails([input], options);
  return row!;
}

/**
 * Writes several messages to the outbox in one statement (status pending, in the order given) and
 * wakes the local worker. Returns their ids in the same order.
 */
export async function enqueueMails(inputs: EnqueueMailInput[], options: EnqueueMailOptions = {}): Promise<{ id: string }[]> {
  if (inputs.length === 0) return [];
  const mails = inputs.map(checkedMail);
  const db = options.tx ?? getDb();
  const nextAttemptAt = new Date();
  // The ids are chosen here: PostgreSQL does not promise RETURNING in the order of VALUES.
  const rows = mails.map(() => ({ id: randomUUID() }));
  await db.insert(outbox).values(mails.map((mail, index) => ({ ...mail, id: rows[index]!.id, replyTo: mail.replyTo ?? null, status: "pending" as const, attempts: 0, nextAttemptAt })));
  // Inside a transaction the rows are invisible to the worker until the caller commits: wake it a
  // little later (callers may also call nudgeMailWorker() right after commit). Polling is the backstop.
  if (options.tx) setTimeout(nudgeMailWorker, 250).unref();
  else nudgeMailWorker();
  return rows;
}

export interface DeliverDueMailOptions {
  /** The clock, for tests; defaults to the current time. */
  now?: Date;
  /** Most messages claimed in this call. */
  limit?: number;
  /** Defaults to the transport selected by SMTP_URL. */
  transport?: MailTransport;
}

export interface DeliveryReport {
  claimed: number;
  sent: number;
  retried: number;
  failed: number;
}

/**
 * Claims the due messages (short transaction: SELECT … FOR UPDATE SKIP LOCKED, then a lease and
 * attempts + 1), sends each outside the transaction and records the outcome.
 */
export async function deliverDueMail(options: DeliverDueMailOptions = {}): Promise<DeliveryReport> {
  const now = options.now ?? new Date();
  const limit = options.limit ?? DEFAULT_BATCH_SIZE;
  const db = getDb();
  const leaseUntil = new Date(now.getTime() + CLAIM_LEASE_MS);

  const claimed = await db.transaction(async (tx) => {
    const due = await tx
      .select({ id: outbox.id })
      .from(outbox)
      .where(and(eq(outbox.status, "pending"), lte(outbox.nextAttemptAt, now)))
      .orderBy(asc(outbox.nextAttemptAt))
      .limit(limit)
      .for("update", { skipLocked: true });
    if (due.length === 0) return [];
    return tx
      .update(outbox)
      .set({ attempts: sql`${outbox.attempts} + 1`, nextAttemptAt: leaseUntil })
      .where(
        inArray(
          outbox.id,
          due.map((row) => row.id),
        ),
      )
      .returning();
  });

  const report: DeliveryReport = { claimed: claimed.length, sent: 0, retried: 0, failed: 0 };
  if (claimed.length === 0) return report;

  // The SMTP server and sender may come from the settings, changed while the server runs (0057).
  const transport = options.transport ?? getMailTransport(await currentMailConfig());
  for (const row of claimed) {
    try {
      await transport.send(renderedMail(row));
      await db
        .update(outbox)
        .set({ status: "sent", sentAt: new Date(), lastError: null })
        .where(and(eq(outbox.id, row.id), eq(outbox.status, "pending")));
      report.sent += 1;
    } catch (error) {
      const lastError = describeError(error);
      if (row.attempts >= MAX_ATTEMPTS) {
        await db.update(outbox).set({ status: "failed", lastError }).where(eq(outbox.id, row.id));
        report.failed += 1;
        logger.error({ outboxId: row.id, attempts: row.attempts, err: lastError }, "Correo descartado tras el último intento");
      } else {
        const nextAttemptAt = new Date(now.getTime() + retryDelayMs(row.attempts));
        await db.update(outbox).set({ lastError, nextAttemptAt }).where(eq(outbox.id, row.id));
        report.retried += 1;
        logger.warn({ outboxId: row.id, attempts: row.attempts, nextAttemptAt, err: lastError }, "Falló el envío de un correo; se reintentará");
      }
    }
  }
  return report;
}

export interface OutboxSummary {
  pending: number;
  failed: number;
  /** The newest failed messages, with the error of their last attempt. */
  failedMessages: { id: string; to: string; subject: string; attempts: number; lastError: string | null; createdAt: Date }[];
}

/** What /admin/sistema shows of the queue: counts of pending and failed mail, the failed ones. */
export async function outboxSummary(limit = 20): Promise<OutboxSummary> {
  const db = getDb();
  const counts = await db
    .select({ status: outbox.status, count: sql<number>`count(*)::int` })
    .from(outbox)
    .where(inArray(outbox.status, ["pending", "failed"]))
    .groupBy(outbox.status);
  const failedMessages = await db
    .select({ id: outbox.id, to: outbox.to, subject: outbox.subject, attempts: outbox.attempts, lastError: outbox.lastError, createdAt: outbox.createdAt })
    .from(outbox)
    .where(eq(outbox.status, "failed"))
    .orderBy(desc(outbox.createdAt))
    .limit(limit);
  const of = (status: string) => counts.find((row) => row.status === status)?.count ?? 0;
  return { pending: of("pending"), failed: of("failed"), failedMessages };
}

/**
 * «Reintentar ahora» (/admin/sistema): every failed message back to pending, due now, and the
 * worker woken. Each gets one more attempt (its count is kept, so a new failure fails it again).
 * Answers how many were requeued.
 */
export async function retryFailedMail(now = new Date()): Promise<number> {
  const requeued = await getDb()
    .update(outbox)
    .set({ status: "pending", nextAttemptAt: now })
    .where(eq(outbox.status, "failed"))
    .returning({ id: outbox.id });
  if (requeued.length) nudgeMailWorker();
  return requeued.length;
}

function describeError(error: unknown): string {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  const text = typeof code === "string" && !message.includes(code) ? `${message} (${code})` : message;
  return text.slice(0, LAST_ERROR_MAX_LENGTH);
}

// ---------------------------------------------------------------------------------------------
// The worker: one per process, started by the server.

export interface MailWorker {
  /** Stops polling and resolves once the batch in flight (if any) has finished. */
  stop(): Promise<void>;
}

export interface MailWorkerOptions {
  /** Poll interval; the worker also runs at once when nudged by enqueueMail. */
  intervalMs?: number;
  /** Messages per batch; a full batch is followed at once by another. */
  batchSize?: number;
}

let activeNudge: (() => void) | undefined;

/**
 * Wakes this process's worker (no-op when none is running). Inside a `withTransaction` scope it
 * waits for the commit (and never runs on a rollback): the worker must not read the scope's
 * uncommitted mail.
 */
export function nudgeMailWorker(): void {
  afterCommit(() => activeNudge?.());
}

export function startMailWorker(options: MailWorkerOptions = {}): MailWorker {
  const intervalMs = options.intervalMs ?? 5_000;
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const poller = startPoller(
    "mail",
    intervalMs,
    async () => {
      try {
        // A full batch is followed at once by another.
        return (await deliverDueMail({ limit: batchSize })).claimed >= batchSize;
      } catch (error) {
        // Database unreachable or similar: try again at the next tick.
        logger.error({ err: describeError(error) }, "El repartidor de correo no pudo leer la bandeja de salida");
        return false;
      }
    },
    // A drain loop in one process must not starve the rest: bound the batches per run.
    { maxStepsPerRun: 50 },
  );
  activeNudge = poller.nudge;
  return {
    async stop() {
      if (activeNudge === poller.nudge) activeNudge = undefined;
      await poller.stop();
    },
  };
}
