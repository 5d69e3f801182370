import { and, eq, gt, inArray, isNotNull, lt, or, type SQL } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { session, user } from "~/db/schema/auth";
import type { RequestMeta } from "~/lib/request-meta";
import { invalid, ok, type Result } from "~/lib/result";
import { CUSTOMER_ROLE, getAuth, sessionTokenOf } from "./auth.server";
import { signIn } from "./sign-in.server";
import { STAFF_ROLES, isStaffRole } from "./staff-roles";

// Sessions of API clients (the record API's auth tokens, docs/decisions/0014). A client signs in
// through the same better-auth sign-in as /login, which opens an ordinary session row; the API's
// token names that session, and every use of the token asks `findApiSession` whether the session
// is still there: sign-out, a password change or reset and a block delete it, so the token dies too.

/** Customers (PocketBase's `users`) or staff (`_superusers`); the two never overlap. */
export type ApiAccountKind = "customer" | "staff";

/** An account as the API shows it. */
export interface ApiAccount {
  id: string;
  email: string;
  name: string;
  verified: boolean;
  created: Date;
  updated: Date;
}

export interface ApiSession {
  account: ApiAccount;
  sessionId: string;
  sessionExpiresAt: Date;
}

/** The one refusal for any wrong credential (unknown email, wrong password, blocked, the other kind of account). */
export const API_SIGN_IN_REFUSED = "api-sign-in-refused";

/** The kind of account a role makes: every staff role (staff-roles.ts) is `_superusers`; null for neither. */
export function accountKindOf(role: string | null | undefined): ApiAccountKind | null {
  if (isStaffRole(role)) return "staff";
  return role === CUSTOMER_ROLE ? "customer" : null;
}

/** The accounts of `kind`, as a condition on the user's role. */
export function roleOfKind(kind: ApiAccountKind): SQL {
  return kind === "staff" ? inArray(user.role, [...STAFF_ROLES]) : eq(user.role, CUSTOMER_ROLE);
}

const accountColumns = {
  id: user.id,
  email: user.email,
  name: user.name,
  verified: user.emailVerified,
  created: user.createdAt,
  updated: user.updatedAt,
};

/**
 * An API client's request as better-auth may see it. Header-authenticated: the caller's cookies and
 * Authorization (maybe an older API token) stay out; better-auth sees only who the client says it
 * is and its IP (forwardHeaders adds the trusted one).
 */
export function apiClientMeta(meta: RequestMeta): RequestMeta {
  const headers = new Headers();
  for (const name of ["user-agent", "accept-language"]) {
    const value = meta.request.headers.get(name);
    if (value) headers.set(name, value);
  }
  return { request: new Request(meta.request.url, { method: "POST", headers }), ip: meta.ip };
}

/**
 * The API session of the session better-auth just opened (its `set-auth-token` header, after a
 * sign-in, registration, reset or password change). A session of an account of the other kind is
 * ended at once and refused with API_SIGN_IN_REFUSED.
 */
export async function openedApiSession(headers: Headers, kind: ApiAccountKind): Promise<Result<ApiSession>> {
  const token = sessionTokenOf(headers);
  if (!token) throw new Error("better-auth answered without a session token");
  const [row] = await getDb()
    .select({ sessionId: session.id, sessionExpiresAt: session.expiresAt, role: user.role, ...accountColumns })
    .from(session)
    .innerJoin(user, eq(user.id, session.userId))
    .where(eq(session.token, token))
    .limit(1);
  if (!row) throw new Error("the session better-auth just opened is not in the database");
  const { sessionId, sessionExpiresAt, role, ...account } = row;
  if (accountKindOf(role) !== kind) {
    await (await getAuth().$context).internalAdapter.deleteSession(token);
    return invalid(API_SIGN_IN_REFUSED);
  }
  return ok({ account, sessionId, sessionExpiresAt });
}

/**
 * Signs an API client in with email and password: a new better-auth session for an account of
 * `kind`. Every refusal is the same `invalid(API_SIGN_IN_REFUSED)`, so the API cannot tell a
 * wrong password from an account of the other kind; a session opened for the wrong kind is ended.
 */
export async function signInApiClient(meta: RequestMeta, kind: ApiAccountKind, input: { email: string; password: string }): Promise<Result<ApiSession>> {
  const signedIn = await signIn(apiClientMeta(meta), input);
  // A locked account (429) is the one refusal the API names apart; it says nothing of the account.
  if (!signedIn.ok) return signedIn.kind === "limited" ? signedIn : invalid(API_SIGN_IN_REFUSED);
  return openedApiSession(signedIn.value.headers, kind);
}

/** A session that has not expired, of an account of `kind` that is not blocked. */
function liveSessionOf(kind: ApiAccountKind, now: Date): SQL {
  return and(
    gt(session.expiresAt, now),
    roleOfKind(kind),
    // better-auth's admin plugin: a ban with an expiry that has passed no longer applies.
    or(eq(user.banned, false), and(isNotNull(user.banExpires), lt(user.banExpires, now))),
  )!;
}

/**
 * The account behind an API token's session, or null when the session is gone or expired, the
 * account is blocked, or it is not of `kind`. Called on every request that carries a token.
 */
export async function findApiSession(input: { userId: string; sessionId: string; kind: ApiAccountKind; now?: Date }): Promise<ApiSession | null> {
  const now = input.now ?? new Date();
  const [row] = await getDb()
    .select({ sessionId: session.id, sessionExpiresAt: session.expiresAt, ...accountColumns })
    .from(session)
    .innerJoin(user, eq(user.id, session.userId))
    .where(
      and(eq(session.id, input.sessionId), eq(session.userId, input.userId), liveSessionOf(input.kind, now)),
    )
    .limit(1);
  if (!row) return null;
  const { sessionId, sessionExpiresAt, ...account } = row;
  return { account, sessionId, sessionExpiresAt };
}

/**
 * Which of many API sessions are still alive (as findApiSession, in one query): realtime checks
 * every subscriber's token before each event it sends.
 */
export async function liveApiSessions(sessions: readonly { userId: string; sessionId: string; kind: ApiAccountKind }[], now = new Date()): Promise<boolean[]> {
  if (sessions.length === 0) return [];
  const alive = new Set<string>();
  for (const kind of ["customer", "staff"] as const) {
    const ids = sessions.filter((item) => item.kind === kind).map((item) => item.sessionId);
    if (ids.length === 0) continue;
    const rows = await getDb()
      .select({ sessionId: session.id, userId: session.userId })
      .from(session)
      .innerJoin(user, eq(user.id, session.userId))
      .where(and(inArray(session.id, ids), liveSessionOf(kind, now)));
    for (const row of rows) alive.add(`${kind}:${row.sessionId}:${row.userId}`);
  }
  return sessions.map((item) => alive.has(`${item.kind}:${item.sessionId}:${item.userId}`));
}
