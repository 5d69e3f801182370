import type { Route } from "./+types/records-impersonate";
import { impersonationSeconds, IMPERSONATION_SECONDS, startApiImpersonation } from "~/features/accounts/index.server";
import { AUTH_API_MESSAGES, authRecordJson, pocketBaseError } from "~/services/records/auth-records.server";
import { authCollectionByNameOrId, signRecordToken } from "~/services/records/tokens.server";
import { getAuthSecret } from "~/services/security/secret.server";
import { readFieldsBody } from "~/lib/request-body";
import { errorResponse, NO_STORE } from "./record-auth.server";
import { superuserOnly } from "./superusers-only.server";

// PocketBase's impersonation (apis/record_auth_impersonate.go), superusers only, docs/decisions/0063:
//   POST /api/collections/users/impersonate/{id}  {duration, writable} → {token, record}
// The token is PocketBase's static one: not refreshable (auth-refresh answers it as it is), valid
// for `duration` seconds (absent or 0: one hour; at most eight). Read-only unless `writable: true`
// (a Forja extension): the root middleware refuses its writes. Only customers (`users`) may be
// impersonated; every start is logged with the admin's name.

const NOT_FOUND = "The requested resource wasn't found.";

function durationError(code: string, message: string): Response {
  return errorResponse(pocketBaseError(400, AUTH_API_MESSAGES.validateBody, { duration: { code, message } }));
}

export async function action({ request, params, context }: Route.ActionArgs) {
  if (request.method !== "POST") return errorResponse(pocketBaseError(405, "Method Not Allowed."));
  const access = await superuserOnly(request, context);
  if (!access.ok) return access.response;
  const body = await readFieldsBody(request);
  if (body === "too-large") return errorResponse(pocketBaseError(413, AUTH_API_MESSAGES.tooLarge));
  if (body === null) return errorResponse(pocketBaseError(400, AUTH_API_MESSAGES.loadBody));
  const collection = authCollectionByNameOrId(params.collection);
  if (!collection) return errorResponse(pocketBaseError(404, AUTH_API_MESSAGES.missingAuthCollection));
  if (collection !== "users") return errorResponse(pocketBaseError(404, NOT_FOUND));

  const { duration, writable } = body;
  const asNumber = typeof duration === "string" && duration.trim() !== "" ? Number(duration) : duration;
  if (asNumber !== undefined && asNumber !== null && (typeof asNumber !== "number" || !Number.isInteger(asNumber))) {
    return errorResponse(pocketBaseError(400, AUTH_API_MESSAGES.loadBody));
  }
  const seconds = impersonationSeconds(asNumber ?? undefined);
  if (seconds === "negative") return durationError("validation_min_greater_equal_than_required", "Must be no less than 0.");
  if (seconds === "too-long") return durationError("validation_max_less_equal_than_required", `Must be no greater than ${IMPERSONATION_SECONDS.max}.`);

  const started = await startApiImpersonation({ admin: access.superuser, customerId: params.id, seconds, writable: writable === true || writable === "true" });
  if (!started.ok) return errorResponse(pocketBaseError(404, NOT_FOUND));
  const { account, sessionId, sessionStartedAt, sessionExpiresAt } = started.value;
  const token = signRecordToken({ id: account.id, collection, sessionId, sessionExpiresAt, refreshable: false }, { secret: getAuthSecret(), now: sessionStartedAt });
  return Response.json({ token, record: authRecordJson(collection, account) }, { headers: NO_STORE });
}

export function loader() {
  return errorResponse(pocketBaseError(405, "Method Not Allowed."));
}
