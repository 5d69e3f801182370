import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// Scheduled jobs and rate-limit settings with two real app processes on ONE PostgreSQL database
// (issue 17 §2 and §3, docs/decisions/0051, 0065): each minute's slot of a cluster job runs in one
// process only while a process job runs in both; POST /api/crons/{id} sent to both processes at
// once runs the job once; a PATCH of the settings' `rateLimits` on one process limits sign-ins on
// the other without a restart. The runs are counted in what the processes log (debug level: every
// run of a job, with its trigger and slot) and in cron_runs. The database is on TEST_DATABASE_URL's
// server when set, else on a throwaway PostgreSQL 15 cluster (tests/support/throwaway-postgres.ts).

const { dataDir, AUTH_SECRET } = await vi.hoisted(async () => {
  const secret = (await import("node:crypto")).randomBytes(32).toString("base64url");
  const dir = (await import("../../../tests/support/test-env")).isolateTestEnv("crons-two-processes", { set: { AUTH_SECRET: secret } });
  return { dataDir: dir, AUTH_SECRET: secret };
});

import type PocketBase from "pocketbase";
import { signedInStaff } from "../../../tests/support/auth-requests";
import { sdkClient } from "../../../tests/support/sdk-client";
import { withAdminClient } from "../../../tests/support/test-database";
import { startTestServer, type TestServer } from "../../../tests/support/test-server";
import { usePostgresServer, type PostgresServer } from "../../../tests/support/throwaway-postgres";

const STAFF = { name: "Personal Tareas", email: `personal-tareas-${process.pid}@forja.mx`, password: "Panel-Forja-Seguro-1" };
/** The cluster jobs due every minute (server/scheduled-jobs.ts), and the one every process runs on its own disk. */
const EVERY_MINUTE_CLUSTER_JOBS = ["cotizaciones-vencidas", "correo-pendiente", "contenido-programado"];
const EVERY_MINUTE_PROCESS_JOB = "subidas-temporales";

let postgres: PostgresServer | undefined;
const processes = {} as { a: TestServer; b: TestServer };
const output = { a: "", b: "" };

interface LogLine {
  msg?: string;
  job?: string;
  trigger?: string;
  slot?: string;
  outcome?: Record<string, unknown>;
}

/** The JSON lines process `name` logged so far. */
function logOf(name: "a" | "b"): LogLine[] {
  return output[name]
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as LogLine];
      } catch {
        return [];
      }
    });
}

/** Runs of `job` (finished or failed) process `name` logged, with the trigger given. */
const runsOf = (name: "a" | "b", job: string, trigger: string) =>
  logOf(name).filter((line) => line.job === job && line.trigger === trigger && (line.msg === "scheduled job finished" || line.msg === "scheduled job failed"));

const onDatabase = <T>(sql: string, params: unknown[] = []) => withAdminClient(processes.a.databaseUrl!, async (client) => (await client.query(sql, params)).rows as T[]);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean | Promise<boolean>, what: string, limitMs: number): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** Staff signed in with the SDK on `server`, from a client address of its own (sign-ins are limited per address). */
async function staffOn(server: TestServer, ip: string): Promise<PocketBase> {
  const client = sdkClient(server.url, () => ({ "X-Forwarded-For": ip }));
  await client.collection("_superusers").authWithPassword(STAFF.email, STAFF.password);
  return client;
}

beforeAll(async () => {
  postgres = await usePostgresServer();
  // Debug level: every run of a scheduled job is logged. One DATA_DIR for both: one machine.
  const env = { AUTH_SECRET, LOG_LEVEL: "debug" };
  processes.a = await startTestServer({
    adminUrl: postgres.adminUrl,
    env,
    dataDir,
    onOutput: (text) => void (output.a += text),
    prepare: async () => {
      await signedInStaff(STAFF.email, STAFF.password, STAFF.name);
    },
  });
  processes.b = await startTestServer({ databaseUrl: processes.a.databaseUrl, env, dataDir, onOutput: (text) => void (output.b += text) });
}, 600_000);

afterAll(async () => {
  // B first: A drops the database it made when it stops.
  await processes.b?.stop();
  await processes.a?.stop();
  await postgres?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, 120_000);

describe("scheduled jobs with two processes on one PostgreSQL database", () => {
  it("runs each minute's slot of a cluster job in one process only, and a process job in both", { timeout: 150_000 }, async () => {
    // The first minute that starts after both processes are up (both timers armed for it).
    const slot = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 60_000);
    const slotText = slot.toISOString();
    const inSlot = (lines: LogLine[]) => lines.filter((line) => line.slot === slotText);
    await until(
      () => ["a", "b"].every((name) => inSlot(runsOf(name as "a" | "b", EVERY_MINUTE_PROCESS_JOB, "programada")).length === 1),
      `both processes' runs of ${EVERY_MINUTE_PROCESS_JOB} in the slot ${slotText}`,
      slot.getTime() - Date.now() + 30_000,
    );
    await until(
      () => EVERY_MINUTE_CLUSTER_JOBS.every((job) => inSlot([...runsOf("a", job, "programada"), ...runsOf("b", job, "programada")]).length >= 1),
      `the cluster jobs' runs in the slot ${slotText}`,
      30_000,
    );
    // Time for a second run, were there one (each job's run takes milliseconds here).
    await sleep(3_000);
    const counts = Object.fromEntries(
      EVERY_MINUTE_CLUSTER_JOBS.map((job) => [job, { a: inSlot(runsOf("a", job, "programada")).length, b: inSlot(runsOf("b", job, "programada")).length }]),
    );
    for (const job of EVERY_MINUTE_CLUSTER_JOBS) expect(counts[job]!.a + counts[job]!.b, `${job} in ${slotText}: ${JSON.stringify(counts[job])}`).toBe(1);
    for (const name of ["a", "b"] as const) expect(inSlot(runsOf(name, EVERY_MINUTE_PROCESS_JOB, "programada")), `${EVERY_MINUTE_PROCESS_JOB} in ${name}`).toHaveLength(1);
    // cron_runs holds the slot each cluster job last claimed: this one, run to the end.
    const rows = await onDatabase<{ job_id: string; last_slot: Date; ok: boolean | null; trigger: string }>(
      "select job_id, last_slot, ok, trigger from cron_runs where job_id = any($1) order by job_id",
      [EVERY_MINUTE_CLUSTER_JOBS],
    );
    expect(rows.map((row) => [row.job_id, row.last_slot.toISOString(), row.ok])).toEqual([...EVERY_MINUTE_CLUSTER_JOBS].sort().map((job) => [job, slotText, true]));
  });

  it("runs a job asked for by hand on both processes at once only once (POST /api/crons/{id})", { timeout: 90_000 }, async () => {
    const [onA, onB] = [await staffOn(processes.a, "10.51.0.1"), await staffOn(processes.b, "10.51.0.2")];
    expect((await onA.crons.getFullList()).map((job) => job.id)).toContain("backups");
    const before = (await onA.backups.getFullList()).length;
    // A backup takes long enough that both requests find the other's run in flight.
    await Promise.all([onA.crons.run("backups"), onB.crons.run("backups")]);
    await until(
      async () => (await onDatabase<{ ok: boolean | null; trigger: string }>("select ok, trigger from cron_runs where job_id = 'backups'"))[0]?.ok === true,
      "the run by hand's record",
      60_000,
    );
    await sleep(1_000);
    const runs = [...runsOf("a", "backups", "manual"), ...runsOf("b", "backups", "manual")];
    const skipped = [...logOf("a"), ...logOf("b")].filter((line) => line.job === "backups" && line.msg === "scheduled job already running: run by hand skipped");
    expect(runs, JSON.stringify(runs)).toHaveLength(1);
    expect(runs[0]!.outcome).toMatchObject({ made: expect.stringMatching(/^forja_auto_.+\.zip$/) });
    expect(skipped).toHaveLength(1);
    expect(await onA.backups.getFullList()).toHaveLength(before + 1);
    const [row] = await onDatabase<{ trigger: string; ok: boolean }>("select trigger, ok from cron_runs where job_id = 'backups'");
    expect(row).toEqual({ trigger: "manual", ok: true });
  });
});

describe("rate-limit settings with two processes on one PostgreSQL database", () => {
  it("limits sign-ins on B as soon as a PATCH on A changes rateLimits, and refuses bad rules in Spanish", { timeout: 60_000 }, async () => {
    const [onA, onB] = [await staffOn(processes.a, "10.65.0.1"), await staffOn(processes.b, "10.65.0.2")];
    const refused = await fetch(`${processes.a.url}/api/settings`, {
      method: "PATCH",
      headers: { "content-type": "application/json", authorization: onA.authStore.token, "X-Forwarded-For": "10.65.0.1" },
      body: JSON.stringify({ rateLimits: { rules: [{ label: "signIn", maxRequests: 0, duration: 60 }] } }),
      signal: AbortSignal.timeout(15_000),
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ status: 400, data: { rateLimits: { rules: { code: "validation_invalid_value", message: "Permita al menos 1 solicitud." } } } });

    const patched = (await onA.settings.update({ rateLimits: { enabled: true, rules: [{ label: "signIn", maxRequests: 2, duration: 60, audience: "" }] } })) as { rateLimits: { rules: { label: string; maxRequests: number }[] } };
    expect(patched.rateLimits.rules.find((rule) => rule.label === "signIn")).toEqual({ label: "signIn", maxRequests: 2, duration: 60, audience: "" });
    // B learns of it through the change feed, without a restart.
    await until(async () => ((await onB.settings.getAll()) as { rateLimits: { rules: { label: string; maxRequests: number }[] } }).rateLimits.rules.some((rule) => rule.label === "signIn" && rule.maxRequests === 2), "B's settings", 10_000);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const response = await fetch(`${processes.b.url}/api/collections/users/auth-with-password`, {
        method: "POST",
        headers: { "content-type": "application/json", "X-Forwarded-For": "10.65.9.9" },
        body: JSON.stringify({ identity: `nadie-${process.pid}@ejemplo.mx`, password: "No-Es-La-Clave-1" }),
        signal: AbortSignal.timeout(15_000),
      });
      await response.arrayBuffer();
      statuses.push(response.status);
    }
    expect(statuses).toEqual([400, 400, 429]);
    // Back to Forja's defaults: the default limit lets the third attempt through.
    await onA.settings.update({ rateLimits: { rules: [] } });
    await until(async () => ((await onB.settings.getAll()) as { rateLimits: { rules: { label: string; maxRequests: number }[] } }).rateLimits.rules.some((rule) => rule.label === "signIn" && rule.maxRequests === 10), "B's settings back to the defaults", 10_000);
  });
});
