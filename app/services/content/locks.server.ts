import { and, eq, isNull, lt, or } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { contentEntries } from "~/db/schema/content";
import { notFoundResult, ok, type Result } from "~/lib/result";
import { isUuid } from "~/lib/uuid";
import type { ContentActor } from "./collection";
import { LOCK_LAPSE_MS } from "./rows.server";

// Who is editing a record. The editor takes the lock when it opens a record and sends a heartbeat
// while the tab is open; a second person sees who holds it and may take it over, and the holder
// learns it at their next heartbeat. A lock lapses 2 minutes after its last heartbeat. Locks only
// tell people about each other: what protects the data is the version number of every save.

export type LockAnswer = { held: true } | { held: false; holder: { name: string; since: Date } };
export type HeartbeatAnswer = { lost: false } | { lost: true; by: string };

const missing = () => notFoundResult("No encontramos ese registro: quizá alguien lo eliminó.");

async function holderOf(id: string): Promise<{ lockedBy: string | null; lockedByName: string | null; lockedAt: Date | null } | null> {
  const [row] = await getDb()
    .select({ lockedBy: contentEntries.lockedBy, lockedByName: contentEntries.lockedByName, lockedAt: contentEntries.lockedAt })
    .from(contentEntries)
    .where(eq(contentEntries.id, id));
  return row ?? null;
}

/** Takes the lock when it is free, lapsed or already the actor's; otherwise says who holds it and since when. */
export async function acquireLock(id: string, actor: ContentActor, now: Date = new Date()): Promise<Result<LockAnswer>> {
  if (!isUuid(id)) return missing();
  const lapsedBefore = new Date(now.getTime() - LOCK_LAPSE_MS);
  const [taken] = await getDb()
    .update(contentEntries)
    .set({ lockedBy: actor.id, lockedByName: actor.name, lockedAt: now, lockHeartbeatAt: now })
    .where(and(eq(contentEntries.id, id), or(isNull(contentEntries.lockedBy), eq(contentEntries.lockedBy, actor.id), lt(contentEntries.lockHeartbeatAt, lapsedBefore))))
    .returning({ id: contentEntries.id });
  if (taken) return ok({ held: true });
  const holder = await holderOf(id);
  if (!holder) return missing();
  return ok({ held: false, holder: { name: holder.lockedByName ?? "", since: holder.lockedAt ?? now } });
}

/**
 * Keeps the actor's lock alive. When someone took it over, answers who (the editor then stops
 * saving over their work); a lock that merely lapsed, with nobody else in, is simply renewed.
 */
export async function heartbeat(id: string, actor: ContentActor, now: Date = new Date()): Promise<Result<HeartbeatAnswer>> {
  if (!isUuid(id)) return missing();
  const [renewed] = await getDb()
    .update(contentEntries)
    .set({ lockHeartbeatAt: now })
    .where(and(eq(contentEntries.id, id), eq(contentEntries.lockedBy, actor.id)))
    .returning({ id: contentEntries.id });
  if (renewed) return ok({ lost: false });
  const holder = await holderOf(id);
  if (!holder) return missing();
  if (holder.lockedBy === null) {
    const again = await acquireLock(id, actor, now);
    if (!again.ok) return again;
    if (again.value.held) return ok({ lost: false });
    return ok({ lost: true, by: again.value.holder.name });
  }
  return ok({ lost: true, by: holder.lockedByName ?? "" });
}

/** Lets go of the actor's lock (the tab closes or the person leaves the record); someone else's is left alone. */
export async function releaseLock(id: string, actor: ContentActor): Promise<Result> {
  if (!isUuid(id)) return missing();
  await getDb()
    .update(contentEntries)
    .set({ lockedBy: null, lockedByName: null, lockedAt: null, lockHeartbeatAt: null })
    .where(and(eq(contentEntries.id, id), eq(contentEntries.lockedBy, actor.id)));
  return ok();
}

/** Takes the lock whoever holds it; the previous holder learns it at their next heartbeat. */
export async function takeOver(id: string, actor: ContentActor, now: Date = new Date()): Promise<Result<LockAnswer>> {
  if (!isUuid(id)) return missing();
  const [taken] = await getDb()
    .update(contentEntries)
    .set({ lockedBy: actor.id, lockedByName: actor.name, lockedAt: now, lockHeartbeatAt: now })
    .where(eq(contentEntries.id, id))
    .returning({ id: contentEntries.id });
  return taken ? ok({ held: true }) : missing();
}
