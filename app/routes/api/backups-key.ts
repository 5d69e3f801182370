import type { Route } from "./+types/backups-key";
import { activeBackup, backupExists, deleteBackup } from "~/services/backups/backups.server";
import { logger } from "~/lib/logger.server";
import { pocketBaseError } from "~/services/records/auth-records.server";
import { BACKUP_MESSAGES, backupDownload, badRequest, methodNotAllowed, noContent, superuserFileToken } from "./backups.server";
import { errorResponse } from "./record-auth.server";
import { superuserOnly } from "./superusers-only.server";

// GET /api/backups/{key}?token= — downloads a backup with a superuser's file token (POST
// /api/files/token), as PocketBase: no Authorization header counts here.
// DELETE /api/backups/{key} — removes a backup (not the one being made or restored). Superusers only.

export async function loader({ request, params }: Route.LoaderArgs) {
  if (!(await superuserFileToken(new URL(request.url).searchParams.get("token")))) return errorResponse(pocketBaseError(403, BACKUP_MESSAGES.forbidden));
  return (await backupDownload(params.key)) ?? errorResponse(pocketBaseError(404, BACKUP_MESSAGES.notFound));
}

export async function action({ request, params, context }: Route.ActionArgs) {
  if (request.method.toUpperCase() !== "DELETE") return methodNotAllowed();
  const access = await superuserOnly(request, context);
  if (!access.ok) return access.response;
  if (activeBackup()?.key === params.key) return badRequest(BACKUP_MESSAGES.inUse);
  if (!(await backupExists(params.key))) return badRequest(BACKUP_MESSAGES.deleteFailed);
  try {
    await deleteBackup(params.key);
  } catch (error) {
    logger.warn({ err: error, backup: params.key }, "could not delete a backup");
    return badRequest(BACKUP_MESSAGES.deleteFailed);
  }
  logger.info({ backup: params.key, superuser: access.superuser.id }, "backup deleted");
  return noContent();
}
