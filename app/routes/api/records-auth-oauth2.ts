import type { Route } from "./+types/records-auth-oauth2";
import { API_OAUTH2_FAILURES, isApiProvider, listProviders, signInApiClientWithProvider } from "~/features/accounts/index.server";
import { requestMeta } from "~/lib/request-meta";
import { AUTH_API_MESSAGES, authRecordJson, oauth2MetaJson, pocketBaseError, readOAuth2Form } from "~/services/records/auth-records.server";
import { authCollectionByNameOrId, signRecordToken } from "~/services/records/tokens.server";
import { consumeRateLimit, RATE_LIMITS } from "~/services/security/rate-limit.server";
import { getAuthSecret } from "~/services/security/secret.server";
import { errorResponse, NO_STORE, tooManyRequests } from "./record-auth.server";

// POST /api/collections/users/auth-with-oauth2 {provider, code, codeVerifier, redirectURL, createData}
// → {token, record, meta} (PocketBase's apis/record_auth_with_oauth2.go; docs/decisions/0018). The
// accounts feature exchanges the code and signs the customer in through better-auth, as the site's
// "Entrar con …". `createData` is read and ignored: the account is made from the provider's name and
// email, as the site makes it. Header-authenticated: no cookie is read or set.

const FAILURE_MESSAGES: Record<string, string> = {
  [API_OAUTH2_FAILURES.token]: AUTH_API_MESSAGES.oauth2Token,
  [API_OAUTH2_FAILURES.user]: AUTH_API_MESSAGES.oauth2User,
  [API_OAUTH2_FAILURES.refused]: AUTH_API_MESSAGES.failedToAuthenticate,
};

export async function action({ request, params, context }: Route.ActionArgs) {
  if (request.method !== "POST") return errorResponse(pocketBaseError(405, "Method Not Allowed."));
  const collection = authCollectionByNameOrId(params.collection);
  if (!collection) return errorResponse(pocketBaseError(404, AUTH_API_MESSAGES.missingAuthCollection));
  // Staff sign in with their password only; customers through a provider when one is configured.
  if (collection !== "users" || listProviders().length === 0) return errorResponse(pocketBaseError(403, AUTH_API_MESSAGES.oauth2Disabled));

  const meta = requestMeta(request, context);
  // The same per-IP sign-in counter as /login and auth-with-password.
  const limit = await consumeRateLimit(`login:${meta.ip || "desconocida"}`, RATE_LIMITS.signIn);
  if (!limit.allowed) return tooManyRequests(limit.retryAfterSeconds);

  const form = await readOAuth2Form(request, isApiProvider);
  if (!form.ok) return errorResponse(form.error);
  const { provider, code, codeVerifier, redirectURL } = form.value;
  const signedIn = await signInApiClientWithProvider(meta, { providerId: provider, code, codeVerifier, redirectURL });
  if (!signedIn.ok) {
    const reason = signedIn.kind === "invalid" ? (signedIn.formErrors[0] ?? "") : "";
    return errorResponse(pocketBaseError(400, FAILURE_MESSAGES[reason] ?? AUTH_API_MESSAGES.failedToAuthenticate));
  }
  const { account, sessionId, sessionExpiresAt, meta: oauth2 } = signedIn.value;
  const token = signRecordToken({ id: account.id, collection, sessionId, sessionExpiresAt }, { secret: getAuthSecret() });
  return Response.json({ token, record: authRecordJson(collection, account), meta: oauth2MetaJson({ ...oauth2 }) }, { headers: NO_STORE });
}

export function loader() {
  return errorResponse(pocketBaseError(405, "Method Not Allowed."));
}
