import { signJwt, verifyJwt } from "~/services/security/jwt.server";

// The record API's auth tokens (docs/decisions/0014): JWTs signed with HS256, as PocketBase's
// (core/record_tokens.go, tools/security/jwt.go), so the official SDK reads `exp` from the payload
// for `authStore.isValid`. A token also names the account's session (`sid`): the caller checks on
// every use that the session still exists (accounts feature), so a token dies with the session —
// sign-out, password change or reset, a block. This module only signs and verifies; it never
// reads the database and takes the secret from its caller.

/** PocketBase's auth collections as the record API serves them. */
export const AUTH_COLLECTIONS = {
  users: { id: "_pb_users_auth_", name: "users", lifetimeSeconds: 7 * 24 * 60 * 60 },
  _superusers: { id: "pbc_3142635823", name: "_superusers", lifetimeSeconds: 24 * 60 * 60 },
} as const;

export type AuthCollectionName = keyof typeof AUTH_COLLECTIONS;

export function authCollectionByNameOrId(nameOrId: string): AuthCollectionName | null {
  for (const [name, collection] of Object.entries(AUTH_COLLECTIONS)) if (collection.name === nameOrId || collection.id === nameOrId) return name as AuthCollectionName;
  return null;
}

/** What a verified auth token says. */
export interface RecordTokenClaims {
  /** The account's id (the record id). */
  id: string;
  type: "auth";
  collectionId: string;
  collection: AuthCollectionName;
  refreshable: boolean;
  /** The better-auth session the token belongs to (its id, never its secret token). */
  sid: string;
  /** Seconds since the epoch. */
  exp: number;
  iat: number;
}

/** The label of these tokens' key (better-auth uses the secret itself). */
const KEY_LABEL = "forja:record-api:auth-token";

/**
 * A new auth token for an account's session: valid until the collection's lifetime (users 7 days,
 * _superusers 1 day, PocketBase's defaults) or the session's own expiry, whichever comes first.
 * `refreshable: false` is PocketBase's static token (impersonation): auth-refresh answers it as it is.
 */
export function signRecordToken(
  input: { id: string; collection: AuthCollectionName; sessionId: string; sessionExpiresAt: Date; refreshable?: boolean },
  options: { secret: string; now?: Date },
): string {
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const collection = AUTH_COLLECTIONS[input.collection];
  const exp = Math.min(now + collection.lifetimeSeconds, Math.floor(input.sessionExpiresAt.getTime() / 1000));
  const refreshable = input.refreshable ?? true;
  const payload = { id: input.id, type: "auth", collectionId: collection.id, refreshable, sid: input.sessionId, iat: now, exp };
  return signJwt(payload, options.secret, KEY_LABEL);
}

/** The claims of a token signed by us, of type auth, for a known collection and not expired; null otherwise. */
export function verifyRecordToken(token: string, options: { secret: string; now?: Date }): RecordTokenClaims | null {
  const claims = verifyJwt(token, options.secret, KEY_LABEL);
  if (!claims) return null;
  const { id, type, collectionId, refreshable, sid, exp, iat } = claims;
  if (type !== "auth" || typeof id !== "string" || typeof sid !== "string" || typeof collectionId !== "string") return null;
  if (typeof exp !== "number" || typeof iat !== "number") return null;
  const collection = authCollectionByNameOrId(collectionId);
  if (!collection || AUTH_COLLECTIONS[collection].id !== collectionId) return null;
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (exp <= now) return null;
  return { id, type, collectionId, collection, refreshable: refreshable === true, sid, exp, iat };
}

/** The token of an `Authorization` header: PocketBase sends it raw; "Bearer <token>" is accepted too. */
export function authorizationToken(header: string | null): string {
  const value = (header ?? "").trim();
  return value.length > 7 && value.slice(0, 7).toLowerCase() === "bearer " ? value.slice(7).trim() : value;
}
