import { expireDueQuotes } from "~/features/quotes/index.server";
import { scheduledBackupJob } from "~/services/backups/scheduled.server";
import type { CronJob } from "~/services/jobs/registry.server";
import { runDuePublications } from "~/services/content/schedule.server";
import { removeOrphanUploads } from "~/services/files/orphans.server";
import { cleanTmpUploads } from "~/services/files/storage.server";
import { deleteOldLogs } from "~/services/logs/log-queries.server";
import { deliverDueMail } from "~/services/mail/outbox.server";
import { getSettings } from "~/services/settings/settings.server";

// The server's scheduled jobs, as /api/crons lists them (docs/decisions/0051). Times are UTC.
// The mail worker and the content scheduler also keep their own quick loops in every process (a
// message goes out as soon as it is written, a publication within a second of its minute); their
// entries here are the once-a-minute pass among all processes, recorded, and runnable by hand.

export function scheduledJobs(): CronJob[] {
  return [
    // Sent quotes past their date become "vencida" (its own advisory lock as well).
    { id: "cotizaciones-vencidas", expression: "* * * * *", runAtStart: true, run: () => expireDueQuotes() },
    // Due and retried messages of the outbox.
    { id: "correo-pendiente", expression: "* * * * *", run: () => deliverDueMail() },
    // Uploads abandoned while being received, in this machine's DATA_DIR: every process sweeps its own.
    { id: "subidas-temporales", expression: "* * * * *", scope: "process", run: () => cleanTmpUploads() },
    // Stored files no row refers to (a crash between storing and committing); also run at start-up.
    { id: "archivos-huerfanos", expression: "30 4 * * *", run: () => removeOrphanUploads() },
    // Content scheduled for publication (issue 16).
    { id: "contenido-programado", expression: "* * * * *", run: () => runDuePublications() },
    // The request and error log's retention: the settings' logs.maxDays, which LOGS_MAX_DAYS fixes when set (0057).
    { id: "logs-antiguos", expression: "0 * * * *", run: async () => deleteOldLogs((await getSettings()).logs.maxDays) },
    // Backups on the settings' schedule, keeping the newest backups.cronMaxKeep of them (0055, 0057).
    scheduledBackupJob({
      schedule: async () => {
        const { backups } = await getSettings();
        return { expression: backups.cron, keep: backups.cronMaxKeep };
      },
    }),
  ];
}
