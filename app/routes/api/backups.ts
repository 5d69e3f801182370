import type { Route } from "./+types/backups";
import { BackupBusyError, backupExists, createBackup, listBackups } from "~/services/backups/backups.server";
import { readFieldsBody } from "~/lib/request-body";
import { logger } from "~/lib/logger.server";
import { AUTH_API_MESSAGES } from "~/services/records/auth-records.server";
import { BACKUP_MESSAGES, backupJson, badRequest, methodNotAllowed, nameProblem, noContent, validationFailed } from "./backups.server";
import { superuserOnly } from "./superusers-only.server";

// GET /api/backups — the backups, newest first ([{key, size, modified}]).
// POST /api/backups {name?} — makes a backup now and answers 204 once it is written (PocketBase's
// create), while the site keeps serving (docs/decisions/0055). Superusers only.

export async function loader({ request, context }: Route.LoaderArgs) {
  const access = await superuserOnly(request, context);
  if (!access.ok) return access.response;
  return Response.json((await listBackups()).map(backupJson), { headers: { "Cache-Control": "no-store" } });
}

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method.toUpperCase() !== "POST") return methodNotAllowed();
  const access = await superuserOnly(request, context);
  if (!access.ok) return access.response;
  const body = await readFieldsBody(request);
  if (body === null || body === "too-large") return badRequest(AUTH_API_MESSAGES.loadBody);
  const raw = body.name;
  if (raw !== undefined && raw !== null && typeof raw !== "string") return validationFailed("name", "validation_invalid_value", "Invalid value.");
  const name = typeof raw === "string" ? raw : "";
  if (name !== "") {
    const problem = nameProblem(name);
    if (problem) return validationFailed("name", problem.code, problem.message);
    if (await backupExists(name)) return validationFailed("name", "validation_backup_name_exists", BACKUP_MESSAGES.nameExists);
  }
  try {
    await createBackup(name || undefined);
  } catch (error) {
    if (error instanceof BackupBusyError) return badRequest(BACKUP_MESSAGES.busy);
    logger.error({ err: error, superuser: access.superuser.id }, "backup failed");
    return badRequest(BACKUP_MESSAGES.createFailed);
  }
  return noContent();
}
