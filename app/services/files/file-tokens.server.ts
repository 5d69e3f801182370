import { signJwt, verifyJwt } from "~/services/security/jwt.server";
import { AUTH_COLLECTIONS, authCollectionByNameOrId, type AuthCollectionName } from "~/services/records/tokens.server";

// Short-lived file tokens (docs/decisions/0016), as PocketBase's `POST /api/files/token` hands out
// for protected files (core/record_tokens.go NewFileToken): an HS256 JWT with `type: "file"`, the
// account's `id` and `collectionId`, and — like the auth tokens — the session it came from (`sid`),
// so the caller can check on every use that the session is still alive: the token dies with it.
// The key is an HMAC of AUTH_SECRET with a label of its own, so a file token can never stand in
// for an auth token (nor the other way round), whatever their claims say.

/** PocketBase's default file token lifetime (collection option fileToken.duration: 180 s). */
export const FILE_TOKEN_SECONDS = 180;

export interface FileTokenClaims {
  id: string;
  type: "file";
  collectionId: string;
  collection: AuthCollectionName;
  sid: string;
  exp: number;
  iat: number;
}

/** The label of these tokens' key: not the auth tokens' one. */
const KEY_LABEL = "forja:record-api:file-token";

/** A file token for an account's live session: valid FILE_TOKEN_SECONDS, never past the session's expiry. */
export function signFileToken(
  input: { id: string; collection: AuthCollectionName; sessionId: string; sessionExpiresAt: Date },
  options: { secret: string; now?: Date },
): string {
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const exp = Math.min(now + FILE_TOKEN_SECONDS, Math.floor(input.sessionExpiresAt.getTime() / 1000));
  const payload = { id: input.id, type: "file", collectionId: AUTH_COLLECTIONS[input.collection].id, sid: input.sessionId, iat: now, exp };
  return signJwt(payload, options.secret, KEY_LABEL);
}

/** The claims of an unexpired file token signed by us; null for anything else (never throws). */
export function verifyFileToken(token: string, options: { secret: string; now?: Date }): FileTokenClaims | null {
  const claims = verifyJwt(token, options.secret, KEY_LABEL);
  if (!claims) return null;
  const { id, type, collectionId, sid, exp, iat } = claims;
  if (type !== "file" || typeof id !== "string" || typeof sid !== "string" || typeof collectionId !== "string") return null;
  if (typeof exp !== "number" || typeof iat !== "number") return null;
  const collection = authCollectionByNameOrId(collectionId);
  if (!collection || AUTH_COLLECTIONS[collection].id !== collectionId) return null;
  if (exp <= Math.floor((options.now ?? new Date()).getTime() / 1000)) return null;
  return { id, type, collectionId, collection, sid, exp, iat };
}
