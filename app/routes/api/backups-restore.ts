import type { Route } from "./+types/backups-restore";
import { activeBackup, backupExists } from "~/services/backups/backups.server";
import { startRestore } from "~/services/backups/restore.server";
import { BACKUP_MESSAGES, badRequest, methodNotAllowed, noContent } from "./backups.server";
import { superuserOnly } from "./superusers-only.server";

// POST /api/backups/{key}/restore — answers 204 at once; a second later the server restores the
// backup without restarting (maintenance meanwhile, docs/decisions/0055). Superusers only.

export function loader() {
  return methodNotAllowed();
}

export async function action({ request, params, context }: Route.ActionArgs) {
  if (request.method.toUpperCase() !== "POST") return methodNotAllowed();
  const access = await superuserOnly(request, context);
  if (!access.ok) return access.response;
  if (activeBackup()) return badRequest(BACKUP_MESSAGES.busyRestore);
  if (!(await backupExists(params.key))) return badRequest(BACKUP_MESSAGES.missing);
  startRestore(params.key, { by: access.superuser.id });
  return noContent();
}
