import { findApiSession, type ApiAccountKind, type ApiSession } from "~/features/accounts/index.server";
import { AUTH_API_MESSAGES, pocketBaseError, type PocketBaseError } from "~/services/records/auth-records.server";
import type { RecordAuth } from "~/services/records/collection.server";
import { authorizationToken, verifyRecordToken, type AuthCollectionName, type RecordTokenClaims } from "~/services/records/tokens.server";
import { getAuthSecret } from "~/services/security/secret.server";

// Reads the record API's `Authorization` header (the raw token, as the pocketbase SDK sends it, or
// "Bearer <token>"): the token must be ours, unexpired, and its session alive (docs/decisions/0014).
// Shared by the record routes and the auth routes, with the auth routes' answers.

export const KIND_OF: Record<AuthCollectionName, ApiAccountKind> = { users: "customer", _superusers: "staff" };

export interface TokenAuth {
  token: string;
  claims: RecordTokenClaims;
  session: ApiSession;
}

/** The request's valid auth token with its live session, or null (none, forged, expired or revoked). */
export async function readTokenAuth(request: Request): Promise<TokenAuth | null> {
  const token = authorizationToken(request.headers.get("authorization"));
  if (!token) return null;
  const claims = verifyRecordToken(token, { secret: getAuthSecret() });
  if (!claims) return null;
  const session = await findApiSession({ userId: claims.id, sessionId: claims.sid, kind: KIND_OF[claims.collection] });
  return session ? { token, claims, session } : null;
}

/**
 * Who asks the record API. As PocketBase's loadAuthToken, a bad token (forged, expired, revoked)
 * is no error: the request goes on as a guest's.
 */
export async function recordAuthOf(request: Request): Promise<RecordAuth> {
  const auth = await readTokenAuth(request);
  return auth ? { collection: auth.claims.collection, id: auth.claims.id } : null;
}

/** The auth endpoints' answers are never cached. */
export const NO_STORE = { "Cache-Control": "no-store" } as const;

/** PocketBase's error body with its status. */
export function errorResponse(error: PocketBaseError, headers: Record<string, string> = {}): Response {
  return Response.json(error, { status: error.status, headers: { ...NO_STORE, ...headers } });
}

/** PocketBase's 429 of its rate limiter (a locked account names itself in Spanish, docs/decisions/0036). */
export function tooManyRequests(retryAfterSeconds: number, message: string = AUTH_API_MESSAGES.tooManyRequests): Response {
  return errorResponse(pocketBaseError(429, message), { "Retry-After": String(retryAfterSeconds) });
}

/** 204, as PocketBase answers the emailed-link endpoints. */
export function noContent(): Response {
  return new Response(null, { status: 204, headers: NO_STORE });
}
