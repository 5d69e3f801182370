import { and, asc, eq, isNotNull, lte } from "drizzle-orm";
import { getDb, withTransaction } from "~/db/client.server";
import { contentEntries } from "~/db/schema/content";
import { logger } from "~/lib/logger.server";
import { conflict, invalid, notFoundResult, ok, failureMessages } from "~/lib/result";
import { startPoller, type Poller } from "~/services/jobs/poller.server";
import type { ContentActor, ContentData } from "./collection";
import { staleConflict, type SaveResult } from "./drafts.server";
import { publishLockedRow, publishing } from "./publish.server";
import { getCollection, requireCollection, type CollectionRef } from "./registry.server";
import { findEntryRow, notFoundMessage, toEntry } from "./rows.server";

// "Programar publicación": the draft is published at its minute, once, by whichever process
// claims it first. The claim is a row lock taken with FOR UPDATE SKIP LOCKED inside the publishing
// transaction, so with several processes (and across a restart) each scheduled entry is published
// exactly once; the schedule lives in the row, never in one process's timer.

/** Schedules the draft's publication at `at` (replacing an earlier schedule). */
export async function schedule<T extends ContentData>(ref: CollectionRef<T>, id: string, at: Date, actor: ContentActor, expectedVersion?: number, now: Date = new Date()): Promise<SaveResult<T>> {
  const collection = requireCollection(ref);
  if (Number.isNaN(at.getTime())) return invalid({ fieldErrors: { programada: ["Escriba una fecha y una hora válidas."] } });
  if (at.getTime() <= now.getTime()) return invalid({ fieldErrors: { programada: ["Elija una fecha y hora futuras, o publique ahora."] } });
  return withTransaction(async (): Promise<SaveResult<T>> => {
    const row = await findEntryRow(collection.name, id, true);
    if (!row) return notFoundResult(notFoundMessage(collection));
    if (expectedVersion !== undefined && row.version !== expectedVersion) return staleConflict<T>(row, row.draft ?? {});
    if (row.draft === null) return conflict("No hay cambios por publicar: guarde primero los cambios que quiere programar.");
    const [updated] = await getDb()
      .update(contentEntries)
      .set({ scheduledAt: at, scheduledBy: actor.id, scheduledByName: actor.name, scheduleError: null, updatedAt: now })
      .where(eq(contentEntries.id, row.id))
      .returning();
    return ok(toEntry<T>(updated!, now));
  });
}

export async function unschedule<T extends ContentData>(ref: CollectionRef<T>, id: string, now: Date = new Date()): Promise<SaveResult<T>> {
  const collection = requireCollection(ref);
  const [updated] = await getDb()
    .update(contentEntries)
    .set({ scheduledAt: null, scheduledBy: null, scheduledByName: null, scheduleError: null, updatedAt: now })
    .where(and(eq(contentEntries.id, id), eq(contentEntries.collection, collection.name)))
    .returning();
  return updated ? ok(toEntry<T>(updated, now)) : notFoundResult(notFoundMessage(collection));
}

type ClaimOutcome = "none" | "published" | "failed";

/** Claims one due entry (skipping those another process holds) and publishes it in the same transaction. */
async function publishOneDue(now: Date): Promise<ClaimOutcome> {
  let outcome: ClaimOutcome = "none";
  let failure: { id: string; reason: string } | undefined;
  await withTransaction(async () => {
    const [row] = await getDb()
      .select()
      .from(contentEntries)
      .where(and(isNotNull(contentEntries.scheduledAt), lte(contentEntries.scheduledAt, now)))
      .orderBy(asc(contentEntries.scheduledAt))
      .limit(1)
      .for("update", { skipLocked: true });
    if (!row) return;
    const collection = getCollection(row.collection);
    const actor = { id: row.scheduledBy, name: row.scheduledByName ?? "Publicación programada" };
    const result = !collection
      ? invalid(`La colección ${row.collection} ya no existe.`)
      : row.draft === null
        ? invalid("No había cambios por publicar.")
        : await publishing(collection, () => publishLockedRow(collection, row, row.draft, actor, { now }));
    if (result.ok) {
      outcome = "published";
      return;
    }
    // Recorded for staff (and never retried by itself): the schedule is cleared so the loop moves on.
    const { formErrors, fieldErrors } = failureMessages(result);
    failure = { id: row.id, reason: [...formErrors, ...Object.values(fieldErrors).flat()].join(" ") || "No se pudo publicar." };
    await getDb()
      .update(contentEntries)
      .set({ scheduledAt: null, scheduleError: failure.reason, updatedAt: now })
      .where(eq(contentEntries.id, row.id));
    outcome = "failed";
  });
  if (failure) logger.warn({ entryId: failure.id, reason: failure.reason }, "scheduled content publication failed");
  return outcome;
}

/** Publishes every entry whose schedule is due at `now`; answers how many it published. */
export async function runDuePublications(now: Date = new Date()): Promise<number> {
  // The usual answer, without a transaction: nothing is due.
  const [due] = await getDb()
    .select({ id: contentEntries.id })
    .from(contentEntries)
    .where(and(isNotNull(contentEntries.scheduledAt), lte(contentEntries.scheduledAt, now)))
    .limit(1);
  if (!due) return 0;
  let published = 0;
  // Bounded: each pass clears one schedule (published or failed), so this ends.
  for (let pass = 0; pass < 1_000; pass += 1) {
    const outcome = await publishOneDue(now);
    if (outcome === "none") break;
    if (outcome === "published") published += 1;
  }
  return published;
}

/** The earliest pending schedule (due or not), if any. */
async function nextScheduledAt(): Promise<Date | undefined> {
  const [row] = await getDb()
    .select({ at: contentEntries.scheduledAt })
    .from(contentEntries)
    .where(isNotNull(contentEntries.scheduledAt))
    .orderBy(asc(contentEntries.scheduledAt))
    .limit(1);
  return row?.at ?? undefined;
}

/**
 * Starts the scheduler of this process (the server's start-up calls it): a cheap look every
 * `intervalMs` for the earliest schedule; one due before the next look wakes the loop at its very
 * moment, so the page shows it right after its minute, not up to a look later.
 */
export function startScheduledPublications(intervalMs = 1_000): Poller {
  let wake: NodeJS.Timeout | undefined;
  const poller = startPoller("contenido-programado", intervalMs, async () => {
    clearTimeout(wake);
    let next = await nextScheduledAt();
    // The time after the look: a schedule that came due while the query ran is run now, not left
    // without an alarm until the next look.
    const now = new Date();
    if (next && next.getTime() <= now.getTime()) {
      await runDuePublications(now);
      next = await nextScheduledAt();
    }
    // Still due after the run: another process holds it (it publishes it); the next look sees.
    const wait = next ? next.getTime() - Date.now() : Number.POSITIVE_INFINITY;
    if (wait > 0 && wait < intervalMs) {
      // Woken a millisecond early by the clock, the run simply sets the alarm again.
      wake = setTimeout(() => poller.nudge(), wait);
      wake.unref();
    }
    return false;
  });
  return {
    nudge: () => poller.nudge(),
    stop: async () => {
      clearTimeout(wake);
      await poller.stop();
    },
  };
}
