import { staffAccountMayUse } from "~/features/accounts/index.server";
import { BACKUP_NAME, backupDestination } from "~/services/backups/destination.server";
import { AUTH_API_MESSAGES, pocketBaseError, VALIDATION_ERRORS } from "~/services/records/auth-records.server";
import { fileTokenAuthOf } from "./files-auth.server";
import { errorResponse } from "./record-auth.server";

// Shared by the backups API routes (PocketBase's apis/backup*.go; docs/decisions/0055).

export const BACKUP_MESSAGES = {
  busy: "Try again later - another backup/restore process has already been started",
  busyRestore: "Try again later - another backup/restore process has already been started.",
  createFailed: "Failed to create backup.",
  uploadFailed: "Failed to upload backup.",
  missing: "Missing or invalid backup file.",
  inUse: "The backup is currently being used and cannot be deleted.",
  deleteFailed: "Invalid or already deleted backup file.",
  forbidden: "Insufficient permissions to access the resource.",
  notFound: "The requested resource wasn't found.",
  nameExists: "The backup file name is invalid or already exists.",
  uploadExists: "Backup file with the specified name already exists.",
} as const;

export const badRequest = (message: string, data: Record<string, unknown> = {}) => errorResponse(pocketBaseError(400, message, data));
export const validationFailed = (field: string, code: string, message: string) => badRequest(AUTH_API_MESSAGES.validateBody, { [field]: { code, message } });
export const methodNotAllowed = () => errorResponse(pocketBaseError(405, "Method Not Allowed."));
export const noContent = () => new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });

/** PocketBase's checks of a backup name (length 1–150, the pattern), as `data.name`; null when it passes. */
export function nameProblem(name: string): { code: string; message: string } | null {
  if (name.length < 1 || name.length > 150) return VALIDATION_ERRORS.length(1, 150);
  if (!BACKUP_NAME.test(name)) return { code: "validation_match_invalid", message: "Must be in a valid format." };
  return null;
}

/** PocketBase's list item: `modified` in its DateTime format ("2024-01-01 12:00:00.000Z"). */
export function backupJson(backup: { key: string; size: number; modified: Date }) {
  return { key: backup.key, size: backup.size, modified: backup.modified.toISOString().replace("T", " ") };
}

/** The download's `?token=`: a live superuser's file token (staff whose role may use the system area). */
export async function superuserFileToken(token: string | null): Promise<boolean> {
  const auth = await fileTokenAuthOf(token);
  return auth?.collection === "_superusers" && (await staffAccountMayUse(auth.id, "sistema"));
}

/**
 * A stored backup as a download (the API with a file token, /admin/sistema with the panel's
 * session), streamed from where it is (disk or S3); null when there is none.
 */
export async function backupDownload(key: string): Promise<Response | null> {
  const found = await (await backupDestination()).open(key);
  if (!found) return null;
  return new Response(found.body, {
    headers: {
      "Content-Type": "application/zip",
      "Content-Length": String(found.size),
      "Content-Disposition": `attachment; filename=${key}`,
      "Cache-Control": "private, no-store",
      "Last-Modified": found.modified.toUTCString(),
    },
  });
}
