import { getDb } from "~/db/client.server";
import { cronRuns } from "~/db/schema/operations";
import { activeCronScheduler } from "./registry.server";

// /admin/sistema's scheduled jobs: each job this process runs, with the last run any process
// recorded in cron_runs (docs/decisions/0051, 0058).

export interface CronJobStatus {
  id: string;
  expression: string;
  lastRun: { startedAt: Date | null; finishedAt: Date | null; ok: boolean | null; error: string | null; trigger: string | null } | null;
}

export async function cronJobStatuses(): Promise<CronJobStatus[]> {
  const jobs = activeCronScheduler()?.list() ?? [];
  const rows = await getDb().select().from(cronRuns);
  const byId = new Map(rows.map((row) => [row.jobId, row]));
  return jobs.map((job) => {
    const row = byId.get(job.id);
    return {
      id: job.id,
      expression: job.expression,
      lastRun: row ? { startedAt: row.startedAt, finishedAt: row.finishedAt, ok: row.ok, error: row.error, trigger: row.trigger } : null,
    };
  });
}

/** «Ejecutar ahora»: false when no job has that id in this process. */
export function runCronJobNow(id: string): boolean {
  return activeCronScheduler()?.runNow(id) ?? false;
}
