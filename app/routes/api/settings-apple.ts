import type { Route } from "./+types/settings-apple";
import { readFieldsBody } from "~/lib/request-body";
import { AUTH_API_MESSAGES, pocketBaseError } from "~/services/records/auth-records.server";
import { appleClientSecret } from "~/services/settings/apple-client-secret.server";
import { errorResponse, NO_STORE } from "./record-auth.server";
import { validationBody } from "./settings-answers.server";
import { superuserOnly } from "./superusers-only.server";

// POST /api/settings/apple/generate-client-secret (PocketBase's apis/settings.go): signs the client
// secret Sign in with Apple asks for, an ES256 JWT, from the key Apple gave. Superusers only; the
// private key is used for this answer and kept nowhere.

export async function action({ request, context }: Route.ActionArgs) {
  const access = await superuserOnly(request, context);
  if (!access.ok) return access.response;
  const body = await readFieldsBody(request);
  if (body === "too-large") return errorResponse(pocketBaseError(413, AUTH_API_MESSAGES.tooLarge));
  if (body === null) return errorResponse(pocketBaseError(400, AUTH_API_MESSAGES.loadBody));
  const result = appleClientSecret(body);
  if (!result.ok) return errorResponse(validationBody(result));
  return Response.json({ secret: result.value }, { headers: NO_STORE });
}
