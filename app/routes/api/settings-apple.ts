import type { Route } from "./+types/settings-apple";
import { appleClientSecret } from "~/services/settings/apple-client-secret.server";
import { errorResponse, NO_STORE } from "./record-auth.server";
import { superuserBody, validationBody } from "./settings-answers.server";

// POST /api/settings/apple/generate-client-secret (PocketBase's apis/settings.go): signs the client
// secret Sign in with Apple asks for, an ES256 JWT, from the key Apple gave. Superusers only; the
// private key is used for this answer and kept nowhere.

export async function action({ request, context }: Route.ActionArgs) {
  const read = await superuserBody(request, context);
  if (!read.ok) return read.response;
  const result = appleClientSecret(read.body);
  if (!result.ok) return errorResponse(validationBody(result));
  return Response.json({ secret: result.value }, { headers: NO_STORE });
}
