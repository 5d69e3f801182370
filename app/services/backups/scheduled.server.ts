import { logger } from "~/lib/logger.server";
import type { CronJob } from "~/services/jobs/registry.server";
import { BackupBusyError, createBackup, defaultBackupName, deleteBackup, listBackups } from "./backups.server";

// Scheduled backups with retention (issue 17 §1, docs/decisions/0055): a cluster job (one run per
// slot among all the processes) that makes `forja_auto_<fecha>.zip` and keeps the newest `keep` of
// those; backups made by hand or uploaded are never removed by it. When and how many come from the
// settings (`backups.cron`, `backups.cronMaxKeep`, docs/decisions/0057), read before each minute's
// check and each run, so a change applies without a restart; an empty cron means none. Backups go,
// and old ones are removed, where backups go at the time of the run (disk or S3, 0060).

export const SCHEDULED_PREFIX = "forja_auto";

export function scheduledBackupJob(options: { schedule: () => Promise<{ expression: string; keep: number }> }): CronJob {
  return {
    id: "backups",
    expression: "",
    schedule: async () => (await options.schedule()).expression,
    scope: "cluster",
    run: async () => {
      let made: string;
      try {
        made = (await createBackup(await defaultBackupName(SCHEDULED_PREFIX))).key;
      } catch (error) {
        // A backup or restore started by hand is running: this slot's backup is that one.
        if (error instanceof BackupBusyError) return { skipped: true };
        throw error;
      }
      const { keep } = await options.schedule();
      const scheduled = (await listBackups()).filter((backup) => backup.key.startsWith(`${SCHEDULED_PREFIX}_`));
      const removed: string[] = [];
      for (const old of scheduled.slice(Math.max(1, keep))) {
        await deleteBackup(old.key);
        removed.push(old.key);
      }
      if (removed.length) logger.info({ removed }, "old scheduled backups removed");
      return { made, removed };
    },
  };
}
