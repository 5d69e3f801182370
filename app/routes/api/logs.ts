import type { Route } from "./+types/logs";
import { failureStatus } from "~/lib/result";
import { deleteOldLogs, listLogs, logStats, viewLog } from "~/services/logs/log-queries.server";
import { pocketBaseError } from "~/services/records/auth-records.server";
import { recordErrorBody } from "~/services/records/records.server";
import { errorResponse, noContent, NO_STORE } from "./record-auth.server";
import { superuserOnly } from "./superusers-only.server";

// GET /api/logs, /api/logs/stats and /api/logs/{id}, DELETE /api/logs — PocketBase's logs API
// (apis/logs.go) for the SDK's `pb.logs`: the requests and errors the server recorded
// (docs/decisions/0051). Superusers only.

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const access = await superuserOnly(request, context);
  if (!access.ok) return access.response;
  const query = new URL(request.url).searchParams;
  const result = params.id === undefined ? await listLogs(query) : params.id === "stats" ? await logStats(query) : await viewLog(params.id);
  if (!result.ok) {
    const status = failureStatus(result);
    return Response.json(recordErrorBody(result, status), { status, headers: NO_STORE });
  }
  return Response.json(result.value, { headers: NO_STORE });
}

/** DELETE /api/logs (the SDK's `pb.logs.truncate()`): every log gone, 204. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const access = await superuserOnly(request, context);
  if (!access.ok) return access.response;
  if (request.method.toUpperCase() !== "DELETE" || params.id !== undefined) return errorResponse(pocketBaseError(405, "Method Not Allowed."));
  await deleteOldLogs(0);
  return noContent();
}
