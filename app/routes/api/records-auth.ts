import type { Route } from "./+types/records-auth";
import { authApiClientWithPassword, listApiProviderAuths, MFA_SECONDS, ONE_TIME_CODE_SECONDS } from "~/features/accounts/index.server";
import { requestMeta, type RequestMeta } from "~/lib/request-meta";
import {
  AUTH_API_MESSAGES,
  authMethodsJson,
  authRecordJson,
  pickFields,
  pocketBaseError,
  readPasswordForm,
  requiresAuthRecordFrom,
} from "~/services/records/auth-records.server";
import { authCollectionByNameOrId, signRecordToken, type AuthCollectionName } from "~/services/records/tokens.server";
import { consumeRateLimit, RATE_LIMITS } from "~/services/security/rate-limit.server";
import { getAuthSecret } from "~/services/security/secret.server";
import { errorResponse, KIND_OF, NO_STORE, readTokenAuth, tooManyRequests } from "./record-auth.server";
import { apiAuthAnswer } from "./records-auth-answer.server";

// PocketBase's auth endpoints of the `users` (customers) and `_superusers` (staff) collections,
// for the official `pocketbase` SDK (docs/decisions/0014):
//   POST /api/collections/{c}/auth-with-password  {identity, password} → {token, record}
//   POST /api/collections/{c}/auth-refresh        (Authorization: token) → {token, record}
//   GET  /api/collections/{c}/auth-methods
// The emailed links and OAuth2 are records-auth-emails.ts and records-auth-oauth2.ts (0018).
// Header-authenticated: no cookie is read or set, so no Origin check applies.

function collectionOf(params: { collection: string }): AuthCollectionName | null {
  return authCollectionByNameOrId(params.collection);
}

async function authWithPassword(meta: RequestMeta, collection: AuthCollectionName): Promise<Response> {
  const { request, ip } = meta;
  // The same per-IP limit as /login and better-auth's sign-in endpoint (one counter).
  const limit = await consumeRateLimit(`login:${ip || "desconocida"}`, RATE_LIMITS.signIn);
  if (!limit.allowed) return tooManyRequests(limit.retryAfterSeconds);

  const form = await readPasswordForm(request);
  if (!form.ok) return errorResponse(form.error);
  // An admin's right password answers 401 {mfaId}: the second step is an emailed code (0061).
  const outcome = await authApiClientWithPassword(meta, KIND_OF[collection], { email: form.identity, password: form.password, mfaId: form.mfaId });
  return apiAuthAnswer(outcome, collection);
}

/** PocketBase checks the token before the collection: without a valid one it is a 401 either way. */
async function authRefresh(request: Request, collection: AuthCollectionName | null): Promise<Response> {
  const auth = await readTokenAuth(request);
  if (!auth) return errorResponse(pocketBaseError(401, AUTH_API_MESSAGES.requiresToken));
  if (auth.claims.collection !== collection) return errorResponse(pocketBaseError(403, requiresAuthRecordFrom(auth.claims.collection)));
  const { account, sessionId, sessionExpiresAt } = auth.session;
  const token = auth.claims.refreshable ? signRecordToken({ id: account.id, collection, sessionId, sessionExpiresAt }, { secret: getAuthSecret() }) : auth.token;
  return Response.json({ record: authRecordJson(collection, account), token }, { headers: NO_STORE });
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const collection = collectionOf(params);
  const endpoint = new URL(request.url).pathname.split("/").pop();
  if (request.method !== "POST" || endpoint === "auth-methods") return errorResponse(pocketBaseError(405, "Method Not Allowed."));
  if (endpoint === "auth-refresh") return authRefresh(request, collection);
  if (!collection) return errorResponse(pocketBaseError(404, AUTH_API_MESSAGES.missingAuthCollection));
  return authWithPassword(requestMeta(request, context), collection);
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const collection = collectionOf(params);
  const endpoint = new URL(request.url).pathname.split("/").pop();
  if (endpoint !== "auth-methods") return errorResponse(pocketBaseError(405, "Method Not Allowed."));
  if (!collection) return errorResponse(pocketBaseError(404, AUTH_API_MESSAGES.missingAuthCollection));
  // Staff sign in with their password only; customers also through the configured providers.
  const providers = collection === "users" ? await listApiProviderAuths() : [];
  // Codes for both; the second step only for staff (admins, docs/decisions/0061).
  const json = authMethodsJson(providers, { otpSeconds: ONE_TIME_CODE_SECONDS, mfa: { enabled: collection === "_superusers", seconds: MFA_SECONDS } });
  return Response.json(pickFields(json, new URL(request.url).searchParams.get("fields")), { headers: NO_STORE });
}
