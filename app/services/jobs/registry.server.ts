import { and, eq, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import { getDb, type Db } from "~/db/client.server";
import { cronRuns } from "~/db/schema/operations";
import { logger } from "~/lib/logger.server";
import { isDue, minuteSlot, parseCronExpression, type CronSchedule } from "./cron-expression";

// The scheduled jobs of the server (issue 17 §2, docs/decisions/0051): the start-up registers each
// with an id and a cron expression; /api/crons lists them and runs one now. Each process wakes at
// every minute and runs the jobs due in it. A "cluster" job runs once per slot among all the
// processes on one database: the process that wins a transaction-level advisory lock on the job's
// key and moves the job's `last_slot` forward runs it, the others skip it. A "process" job (work
// on this machine's own disk) runs in every process. Every run, scheduled or by hand, is recorded in
// cron_runs (start, end, ok or the error) for /admin/sistema.

export interface CronJob {
  /** Unique; the {id} of POST /api/crons/{id}. */
  id: string;
  /** Five-field cron expression, UTC (cron-expression.ts); with `schedule`, the one used until it answers. */
  expression: string;
  /**
   * When the schedule is a setting staff may change while the server runs (backups, 0057): read
   * before each minute's check, so a change applies from the next minute. "" means never.
   */
  schedule?: () => Promise<string>;
  /** Once per slot among all processes (default), or in every process (work on its own disk). */
  scope?: "cluster" | "process";
  /** Also runs once when the scheduler starts (in this process, without claiming a slot). */
  runAtStart?: boolean;
  /** The work; the signal aborts when the server stops. Its answer is logged at debug level. */
  run: (signal: AbortSignal) => Promise<unknown>;
}

export interface CronJobInfo {
  id: string;
  expression: string;
}

export interface CronScheduler {
  /** The jobs as PocketBase's GET /api/crons lists them, by id. */
  list(): CronJobInfo[];
  /** Starts a run of `id` now (after a run in flight in this process); false for an unknown id. */
  runNow(id: string): boolean;
  /** Runs the jobs due in the minute of `now` (the timer calls it; tests call it with a chosen time); answers the ids this process ran. */
  runDue(now: Date): Promise<string[]>;
  stop(): Promise<void>;
}

export interface CronOptions {
  /** The database (default: the process's); a test gives two schedulers two connections. */
  db?: () => Db;
  /** Set false for a scheduler driven only by runDue (tests). */
  timer?: boolean;
}

/** First key of the two-key advisory locks of scheduled jobs (the second is a hash of the job id). */
const CRON_LOCK_NAMESPACE = 51_0051;
const MAX_ERROR_LENGTH = 2_000;
/** A run by hand waits for a run in flight elsewhere at most this long (its process may have ended mid-run). */
const MANUAL_CLAIM_STALE_MS = 60 * 60_000;

let active: CronScheduler | undefined;

/** This process's scheduler (the /api/crons route), if started. */
export function activeCronScheduler(): CronScheduler | undefined {
  return active;
}

function describe(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.slice(0, MAX_ERROR_LENGTH);
}

/**
 * Claims `slot` of a cluster job: true for the one process that should run it. The advisory lock
 * makes a second process skip at once instead of waiting; the conditional write makes a slot run
 * once even when a process comes to it after the winner has committed.
 */
async function claimSlot(db: Db, jobId: string, slot: Date, startedAt: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    const result = await tx.execute(sql`select pg_try_advisory_xact_lock(${CRON_LOCK_NAMESPACE}, hashtext(${jobId})) as locked`);
    const [lock] = (result as unknown as { rows: { locked: boolean }[] }).rows;
    if (!lock?.locked) return false;
    const claimed = await tx
      .insert(cronRuns)
      .values({ jobId, lastSlot: slot, startedAt, finishedAt: null, ok: null, error: null, trigger: "programada" })
      .onConflictDoUpdate({
        target: cronRuns.jobId,
        set: { lastSlot: slot, startedAt, finishedAt: null, ok: null, error: null, trigger: "programada" },
        setWhere: or(isNull(cronRuns.lastSlot), lt(cronRuns.lastSlot, slot)),
      })
      .returning({ jobId: cronRuns.jobId });
    return claimed.length === 1;
  });
}

/**
 * Claims a run by hand of a cluster job: true unless a run of it (scheduled or by hand, in any
 * process) has started and not finished. One conditional write, so of two processes asked at once
 * one runs it; a run older than MANUAL_CLAIM_STALE_MS is taken for one whose process ended.
 */
async function claimIdle(db: Db, jobId: string, startedAt: Date, trigger: string): Promise<boolean> {
  const stale = new Date(startedAt.getTime() - MANUAL_CLAIM_STALE_MS);
  const claimed = await db
    .insert(cronRuns)
    .values({ jobId, startedAt, finishedAt: null, ok: null, error: null, trigger })
    .onConflictDoUpdate({
      target: cronRuns.jobId,
      set: { startedAt, finishedAt: null, ok: null, error: null, trigger },
      setWhere: or(isNotNull(cronRuns.finishedAt), isNull(cronRuns.startedAt), lt(cronRuns.startedAt, stale)),
    })
    .returning({ jobId: cronRuns.jobId });
  return claimed.length === 1;
}

async function recordStart(db: Db, jobId: string, startedAt: Date, trigger: string): Promise<void> {
  await db
    .insert(cronRuns)
    .values({ jobId, startedAt, finishedAt: null, ok: null, error: null, trigger })
    .onConflictDoUpdate({ target: cronRuns.jobId, set: { startedAt, finishedAt: null, ok: null, error: null, trigger } });
}

async function recordEnd(db: Db, jobId: string, startedAt: Date, error: string | null): Promise<void> {
  // Only this run's row: a later run (another process) keeps its own record.
  await db
    .update(cronRuns)
    .set({ finishedAt: new Date(), ok: error === null, error })
    .where(and(eq(cronRuns.jobId, jobId), eq(cronRuns.startedAt, startedAt)));
}

/** Starts the scheduler with `jobs` (ids unique, expressions valid: a mistake throws at start-up). */
export function startCronJobs(jobs: readonly CronJob[], options: CronOptions = {}): CronScheduler {
  const db = options.db ?? getDb;
  const schedules = new Map<string, { job: CronJob; expression: string; schedule: CronSchedule | null }>();
  for (const job of jobs) {
    if (schedules.has(job.id)) throw new Error(`Two scheduled jobs share the id ${job.id}`);
    schedules.set(job.id, { job, expression: job.expression, schedule: job.expression === "" ? null : parseCronExpression(job.expression) });
  }

  /** A job's schedule now: its setting's, when it has one (an unreadable or invalid one keeps the last). */
  const refreshSchedule = async (entry: { job: CronJob; expression: string; schedule: CronSchedule | null }) => {
    if (!entry.job.schedule) return;
    try {
      const expression = (await entry.job.schedule()).trim();
      if (expression === entry.expression) return;
      entry.schedule = expression === "" ? null : parseCronExpression(expression);
      entry.expression = expression;
    } catch (error) {
      logger.warn({ err: error, job: entry.job.id }, "could not read a scheduled job's schedule");
    }
  };
  const shutdown = new AbortController();
  /** The run in flight of each job in this process. */
  const running = new Map<string, Promise<void>>();
  /** The last slot each job was looked at in this process: a second tick in one minute runs nothing again. */
  const seenSlot = new Map<string, number>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  const execute = async (job: CronJob, startedAt: Date, trigger: string, claimed: boolean, slot?: Date) => {
    try {
      // A cluster job asked for by hand runs unless a run of it is in flight in any process (0065).
      if (!claimed && trigger === "manual" && (job.scope ?? "cluster") === "cluster") {
        if (!(await claimIdle(db(), job.id, startedAt, trigger))) {
          logger.info({ job: job.id, trigger }, "scheduled job already running: run by hand skipped");
          return;
        }
      } else if (!claimed) await recordStart(db(), job.id, startedAt, trigger);
      let error: string | null = null;
      try {
        const outcome = await job.run(shutdown.signal);
        logger.debug({ job: job.id, trigger, slot, outcome }, "scheduled job finished");
      } catch (caught) {
        error = describe(caught);
        logger.error({ err: caught, job: job.id, trigger, slot }, "scheduled job failed");
      }
      await recordEnd(db(), job.id, startedAt, error);
    } catch (caught) {
      // The record itself failed (database away): the job's own work is what matters.
      logger.warn({ err: caught, job: job.id }, "could not record a scheduled job's run");
    }
  };

  const track = (id: string, run: Promise<void>) => {
    const tracked = run.finally(() => {
      if (running.get(id) === tracked) running.delete(id);
    });
    running.set(id, tracked);
    return tracked;
  };

  const runDue = async (now: Date): Promise<string[]> => {
    const slot = minuteSlot(now);
    const ran: string[] = [];
    const runs: Promise<void>[] = [];
    for (const entry of schedules.values()) {
      await refreshSchedule(entry);
      const { job, schedule } = entry;
      if (stopped || !schedule || !isDue(schedule, slot) || running.has(job.id) || (seenSlot.get(job.id) ?? -Infinity) >= slot.getTime()) continue;
      seenSlot.set(job.id, slot.getTime());
      const startedAt = new Date();
      let claimed: boolean;
      try {
        claimed = (job.scope ?? "cluster") === "process" ? false : await claimSlot(db(), job.id, slot, startedAt);
      } catch (error) {
        logger.warn({ err: error, job: job.id }, "could not claim a scheduled job's slot");
        continue;
      }
      if ((job.scope ?? "cluster") === "cluster" && !claimed) continue;
      ran.push(job.id);
      runs.push(track(job.id, execute(job, startedAt, "programada", claimed, slot)));
    }
    await Promise.all(runs);
    return ran;
  };

  /** A run by hand or at start: after the run in flight in this process, no slot claimed. */
  const runOutsideSchedule = (id: string, trigger: "manual" | "inicio"): boolean => {
    const entry = schedules.get(id);
    if (!entry || stopped) return false;
    const previous = running.get(id) ?? Promise.resolve();
    void track(
      id,
      previous.then(() => (stopped ? undefined : execute(entry.job, new Date(), trigger, false))),
    );
    return true;
  };

  const arm = () => {
    if (stopped) return;
    // A little after the minute starts, so a clock a few ms behind still lands in it.
    const delay = 60_000 - (Date.now() % 60_000) + 250;
    timer = setTimeout(() => {
      arm();
      void runDue(new Date());
    }, delay);
    timer.unref();
  };

  const scheduler: CronScheduler = {
    list: () => [...schedules.values()].map(({ job, expression }) => ({ id: job.id, expression })).sort((a, b) => a.id.localeCompare(b.id)),
    runNow: (id) => runOutsideSchedule(id, "manual"),
    runDue,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      shutdown.abort();
      await Promise.allSettled([...running.values()]);
      if (active === scheduler) active = undefined;
    },
  };
  if (options.timer !== false) {
    active = scheduler;
    arm();
    for (const { job } of schedules.values()) if (job.runAtStart) runOutsideSchedule(job.id, "inicio");
  }
  return scheduler;
}
