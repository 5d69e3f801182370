import type { Route } from "./+types/backups-upload";
import { BackupBusyError, backupExists } from "~/services/backups/backups.server";
import { storeUploadedBackup, UPLOAD_LIMITS } from "~/services/backups/upload.server";
import { parseMultipartUpload } from "~/services/files/multipart.server";
import { isNoSpaceError, removeQuietly, uploadsTmpDir } from "~/services/files/storage.server";
import { logger } from "~/lib/logger.server";
import { VALIDATION_ERRORS } from "~/services/records/auth-records.server";
import { BACKUP_MESSAGES, badRequest, methodNotAllowed, nameProblem, noContent, validationFailed } from "./backups.server";
import { superuserOnly } from "./superusers-only.server";

// POST /api/backups/upload (multipart `file`) — adds a backup made elsewhere under its own name, as
// PocketBase; it must be a Forja backup archive (checked before it is kept). Superusers only.

export function loader() {
  return methodNotAllowed();
}

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method.toUpperCase() !== "POST") return methodNotAllowed();
  const access = await superuserOnly(request, context);
  if (!access.ok) return access.response;
  const upload = await parseMultipartUpload(request, UPLOAD_LIMITS, uploadsTmpDir());
  if (!upload.ok) return badRequest(upload.status === 507 ? upload.message : BACKUP_MESSAGES.uploadFailed);
  const [file, ...rest] = upload.files.filter((each) => each.field === "file");
  const others = upload.files.filter((each) => each !== file);
  await removeQuietly(others.map((each) => each.tmpPath));
  if (!file) return validationFailed("file", VALIDATION_ERRORS.required.code, VALIDATION_ERRORS.required.message);
  void rest;
  const problem = nameProblem(file.name);
  if (problem) {
    await removeQuietly([file.tmpPath]);
    return validationFailed("file", "validation_invalid_file_name", "El nombre del respaldo debe ser como forja_backup_20260101120000.zip (minúsculas, números, _ y -).");
  }
  if (await backupExists(file.name)) {
    await removeQuietly([file.tmpPath]);
    return validationFailed("file", "validation_backup_name_exists", BACKUP_MESSAGES.uploadExists);
  }
  const stored = await storeUploadedBackup(file.tmpPath, file.name).catch((error: unknown) => ({ ok: false as const, error }));
  if (!stored.ok) {
    await removeQuietly([file.tmpPath]);
    if ("problem" in stored) return validationFailed("file", "validation_invalid_mime_type", stored.problem);
    if (stored.error instanceof BackupBusyError) return badRequest(BACKUP_MESSAGES.busy);
    if (isNoSpaceError(stored.error)) return badRequest(BACKUP_MESSAGES.uploadFailed);
    logger.error({ err: stored.error }, "could not store an uploaded backup");
    return badRequest(BACKUP_MESSAGES.uploadFailed);
  }
  return noContent();
}
