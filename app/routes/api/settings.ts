import type { Route } from "./+types/settings";
import { pocketBaseError } from "~/services/records/auth-records.server";
import { patchSettings, settingsView } from "~/services/settings/settings.server";
import { errorResponse, NO_STORE } from "./record-auth.server";
import { superuserOnly } from "./superusers-only.server";
import { superuserBody, validationBody } from "./settings-answers.server";

// GET and PATCH /api/settings, PocketBase's settings API (apis/settings.go), superusers only
// (issue 17 §3, docs/decisions/0057). Secrets are never answered; values the environment fixes say so.

export async function loader({ request, context }: Route.LoaderArgs) {
  const access = await superuserOnly(request, context);
  if (!access.ok) return access.response;
  return Response.json(await settingsView(), { headers: NO_STORE });
}

export async function action({ request, context }: Route.ActionArgs) {
  const read = await superuserBody(request, context);
  if (!read.ok) return read.response;
  if (request.method.toUpperCase() !== "PATCH") return errorResponse(pocketBaseError(405, "Method Not Allowed."));
  const result = await patchSettings(read.body);
  if (!result.ok) return errorResponse(validationBody(result));
  return Response.json(result.value, { headers: NO_STORE });
}
