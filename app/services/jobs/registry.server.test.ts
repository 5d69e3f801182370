import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "~/db/client.server";
import { cronRuns } from "~/db/schema/operations";
import { setupTestDatabase, withAdminClient } from "../../../tests/support/test-database";
import { usePostgresServer, type PostgresServer } from "../../../tests/support/throwaway-postgres";
import { startCronJobs, type CronJob } from "./registry.server";

// The scheduled jobs' registry on a real database: a due job runs in its minute and records its
// run; a failure is recorded with its message; a run by hand; and, on PostgreSQL, two schedulers
// with their own connections (two processes) run each slot of a cluster job once between them,
// while a process job runs in both.

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const database = setupTestDatabase();

describe("the cron registry", () => {
  it("runs the jobs due in a minute, records each run, a failure with its message, and a run by hand", async () => {
    const ran: string[] = [];
    const jobs: CronJob[] = [
      { id: "cada-minuto", expression: "* * * * *", run: async () => ran.push("cada-minuto") },
      { id: "a-las-cuatro", expression: "30 4 * * *", run: async () => ran.push("a-las-cuatro") },
      {
        id: "falla",
        expression: "*/5 * * * *",
        run: async () => {
          throw new Error("el disco no responde");
        },
      },
    ];
    const scheduler = startCronJobs(jobs, { db: () => database().db, timer: false });
    try {
      expect(scheduler.list()).toEqual([
        { id: "a-las-cuatro", expression: "30 4 * * *" },
        { id: "cada-minuto", expression: "* * * * *" },
        { id: "falla", expression: "*/5 * * * *" },
      ]);
      expect(await scheduler.runDue(new Date("2026-11-25T04:30:12Z"))).toEqual(["cada-minuto", "a-las-cuatro", "falla"]);
      // The same slot again (another tick in the same minute): nothing runs twice.
      expect(await scheduler.runDue(new Date("2026-11-25T04:30:40Z"))).toEqual([]);
      expect(await scheduler.runDue(new Date("2026-11-25T04:31:00Z"))).toEqual(["cada-minuto"]);
      expect(ran).toEqual(["cada-minuto", "a-las-cuatro", "cada-minuto"]);

      const rows = await database().db.select().from(cronRuns).orderBy(cronRuns.jobId);
      expect(rows.map((row) => [row.jobId, row.lastSlot?.toISOString(), row.ok, row.trigger])).toEqual([
        ["a-las-cuatro", "2026-11-25T04:30:00.000Z", true, "programada"],
        ["cada-minuto", "2026-11-25T04:31:00.000Z", true, "programada"],
        ["falla", "2026-11-25T04:30:00.000Z", false, "programada"],
      ]);
      const failed = rows.find((row) => row.jobId === "falla")!;
      expect(failed.error).toBe("Error: el disco no responde");
      expect(failed.finishedAt!.getTime()).toBeGreaterThanOrEqual(failed.startedAt!.getTime());

      expect(scheduler.runNow("no-existe")).toBe(false);
      expect(scheduler.runNow("a-las-cuatro")).toBe(true);
      await until(async () => ran.filter((id) => id === "a-las-cuatro").length === 2, "the run by hand");
      await until(async () => {
        const [row] = await database().db.select().from(cronRuns).where(eq(cronRuns.jobId, "a-las-cuatro"));
        return row?.trigger === "manual" && row.ok === true;
      }, "the manual run's record");
      // A run by hand claims no slot: the scheduled one still runs.
      const [row] = await database().db.select().from(cronRuns).where(eq(cronRuns.jobId, "a-las-cuatro"));
      expect(row!.lastSlot!.toISOString()).toBe("2026-11-25T04:30:00.000Z");
      expect(await scheduler.runDue(new Date("2026-11-26T04:30:00Z"))).toContain("a-las-cuatro");
    } finally {
      await scheduler.stop();
    }
  });

  it("follows a schedule read before each minute's check: a change applies the next minute, an empty one never runs", async () => {
    let setting = "0 9 * * *";
    let runs = 0;
    const scheduler = startCronJobs([{ id: "respaldo", expression: "", schedule: async () => setting, run: async () => (runs += 1) }], { db: () => database().db, timer: false });
    try {
      expect(await scheduler.runDue(new Date("2026-11-27T08:00:00Z"))).toEqual([]);
      expect(scheduler.list()).toEqual([{ id: "respaldo", expression: "0 9 * * *" }]);
      expect(await scheduler.runDue(new Date("2026-11-27T09:00:05Z"))).toEqual(["respaldo"]);
      setting = "*/10 * * * *";
      expect(await scheduler.runDue(new Date("2026-11-27T09:10:00Z"))).toEqual(["respaldo"]);
      expect(scheduler.list()).toEqual([{ id: "respaldo", expression: "*/10 * * * *" }]);
      setting = "";
      expect(await scheduler.runDue(new Date("2026-11-27T09:20:00Z"))).toEqual([]);
      // A value the scheduler cannot read keeps the last one (never a crash of the loop).
      setting = "no es cron";
      expect(await scheduler.runDue(new Date("2026-11-27T09:30:00Z"))).toEqual([]);
      expect(scheduler.list()).toEqual([{ id: "respaldo", expression: "" }]);
      expect(runs).toBe(2);
    } finally {
      await scheduler.stop();
    }
  });

  it("refuses two jobs with one id and a bad expression at start", () => {
    const run = async () => undefined;
    expect(() => startCronJobs([{ id: "x", expression: "* * * * *", run }, { id: "x", expression: "0 * * * *", run }], { timer: false })).toThrow(/share the id x/);
    expect(() => startCronJobs([{ id: "y", expression: "61 * * * *", run }], { timer: false })).toThrow(/Invalid cron expression/);
  });
});

describe("two processes on one PostgreSQL database", () => {
  let postgres: PostgresServer | undefined;
  const name = `forja_cron_${process.pid}_${randomBytes(4).toString("hex")}`;
  const runners: Database[] = [];

  beforeAll(async () => {
    postgres = await usePostgresServer();
    await withAdminClient(postgres.adminUrl, (client) => client.query(`CREATE DATABASE "${name}"`));
    const url = new URL(postgres.adminUrl);
    url.pathname = `/${name}`;
    for (let index = 0; index < 2; index += 1) runners.push(await openDatabase({ databaseUrl: url.toString() }));
    await runners[0]!.migrate();
  }, 120_000);

  afterAll(async () => {
    for (const runner of runners) await runner.close();
    if (postgres) await withAdminClient(postgres.adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    await postgres?.stop();
  }, 60_000);

  it("runs each slot of a cluster job once between them, and a process job in both", async () => {
    const runs: { job: string; runner: number; slot: string }[] = [];
    let currentSlot = "";
    // Two processes, and a third on the second connection that only comes late to each minute (a
    // process whose clock runs behind): the slot is taken by then.
    const schedulers = [...runners, runners[1]!].map((runner, index) =>
      startCronJobs(
        [
          {
            id: "una-vez",
            expression: "* * * * *",
            run: async () => {
              runs.push({ job: "una-vez", runner: index, slot: currentSlot });
              // Long enough that both processes are at the slot while it runs.
              await new Promise((resolve) => setTimeout(resolve, 30));
            },
          },
          { id: "en-cada-proceso", expression: "* * * * *", scope: "process", run: async () => runs.push({ job: "en-cada-proceso", runner: index, slot: currentSlot }) },
        ],
        { db: () => runner.db, timer: false },
      ),
    );
    try {
      const slots = 20;
      for (let minute = 0; minute < slots; minute += 1) {
        currentSlot = `2026-11-25T05:${String(minute).padStart(2, "0")}:00Z`;
        // The two at once, then the straggler later in the same minute.
        await Promise.all(schedulers.slice(0, 2).map((scheduler) => scheduler.runDue(new Date(currentSlot))));
        await schedulers[2]!.runDue(new Date(new Date(currentSlot).getTime() + 30_000));
      }
      const once = runs.filter((run) => run.job === "una-vez");
      expect(once).toHaveLength(slots);
      expect(new Set(once.map((run) => run.slot)).size).toBe(slots);
      const everywhere = runs.filter((run) => run.job === "en-cada-proceso");
      expect(everywhere.filter((run) => run.runner === 0)).toHaveLength(slots);
      expect(everywhere.filter((run) => run.runner === 1)).toHaveLength(slots);
      expect(everywhere.filter((run) => run.runner === 2)).toHaveLength(slots);
      const [row] = await runners[1]!.db.select().from(cronRuns).where(eq(cronRuns.jobId, "una-vez"));
      expect(row).toMatchObject({ ok: true, trigger: "programada", lastSlot: new Date("2026-11-25T05:19:00Z") });
    } finally {
      for (const scheduler of schedulers) await scheduler.stop();
    }
  }, 120_000);

  it("runs a job asked for by hand in both processes at once only once, and again once it has finished (0065)", async () => {
    const runs: number[] = [];
    let release = () => {};
    const schedulers = runners.map((runner, index) =>
      startCronJobs(
        [
          {
            id: "a-mano",
            expression: "0 4 * * *",
            run: async () => {
              runs.push(index);
              await new Promise<void>((resolve) => (release = resolve));
            },
          },
        ],
        { db: () => runner.db, timer: false },
      ),
    );
    const finished = async () => {
      const [row] = await runners[0]!.db.select().from(cronRuns).where(eq(cronRuns.jobId, "a-mano"));
      return row?.ok === true;
    };
    try {
      for (let round = 1; round <= 3; round += 1) {
        // Both processes are asked at once: both accept (204), one runs it.
        expect(schedulers.map((scheduler) => scheduler.runNow("a-mano"))).toEqual([true, true]);
        await until(async () => runs.length === round, "the run by hand");
        // The other process asked again while it runs: still one run.
        expect(schedulers[1 - runs.at(-1)!]!.runNow("a-mano")).toBe(true);
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(runs).toHaveLength(round);
        release();
        await until(finished, "the run's record");
      }
      const [row] = await runners[1]!.db.select().from(cronRuns).where(eq(cronRuns.jobId, "a-mano"));
      expect(row).toMatchObject({ ok: true, trigger: "manual", lastSlot: null });
    } finally {
      release();
      for (const scheduler of schedulers) await scheduler.stop();
    }
  }, 60_000);
});
