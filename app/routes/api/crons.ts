import type { Route } from "./+types/crons";
import { activeCronScheduler } from "~/services/jobs/registry.server";
import { pocketBaseError } from "~/services/records/auth-records.server";
import { errorResponse, noContent, NO_STORE } from "./record-auth.server";
import { superuserOnly } from "./superusers-only.server";

// GET /api/crons and POST /api/crons/{id} — PocketBase's crons API (apis/cron.go) for the SDK's
// `pb.crons`: the scheduled jobs `[{id, expression}]`, and one of them run now (204 at once, the run
// goes on in the background and is recorded like a scheduled one). Superusers only.

const MISSING_JOB = "Missing or invalid cron job";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const access = await superuserOnly(request, context);
  if (!access.ok) return access.response;
  if (params.id !== undefined) return errorResponse(pocketBaseError(405, "Method Not Allowed."));
  return Response.json(activeCronScheduler()?.list() ?? [], { headers: NO_STORE });
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const access = await superuserOnly(request, context);
  if (!access.ok) return access.response;
  if (request.method.toUpperCase() !== "POST" || params.id === undefined) return errorResponse(pocketBaseError(405, "Method Not Allowed."));
  return activeCronScheduler()?.runNow(params.id) ? noContent() : errorResponse(pocketBaseError(404, MISSING_JOB));
}
