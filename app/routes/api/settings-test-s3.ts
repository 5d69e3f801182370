import type { Route } from "./+types/settings-test-s3";
import { invalid } from "~/lib/result";
import { pocketBaseError } from "~/services/records/auth-records.server";
import { testS3Connection } from "~/services/settings/s3-settings.server";
import { errorResponse, noContent } from "./record-auth.server";
import { superuserBody, validationBody } from "./settings-answers.server";

// POST /api/settings/test/s3 {filesystem: "storage" | "backups"} (PocketBase's apis/settings.go):
// with the S3 settings in effect now (stored files' `s3` or `backups.s3`), writes a test object,
// reads it back and removes it; 204, or 400 with the storage server's reason (docs/decisions/0059).

const FILESYSTEMS = { storage: "files", backups: "backups" } as const;

export async function action({ request, context }: Route.ActionArgs) {
  const read = await superuserBody(request, context);
  if (!read.ok) return read.response;
  const filesystem = read.body.filesystem;
  if (filesystem !== "storage" && filesystem !== "backups") {
    return errorResponse(validationBody(invalid({ fieldErrors: { filesystem: ["Elija «storage» (los archivos) o «backups» (los respaldos)."] } })));
  }
  const tested = await testS3Connection(FILESYSTEMS[filesystem]);
  if (!tested.ok) return errorResponse(pocketBaseError(400, tested.message));
  return noContent();
}
