import { and, eq, gt, isNotNull, lt, or } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { session, user } from "~/db/schema/auth";
import type { RequestMeta } from "~/lib/request-meta";
import { invalid, ok, type Result } from "~/lib/result";
import { CUSTOMER_ROLE, STAFF_ROLE, getAuth } from "./auth.server";
import { signIn } from "./sign-in.server";

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

const ROLE: Record<ApiAccountKind, string> = { customer: CUSTOMER_ROLE, staff: STAFF_ROLE };

const accountColumns = {
  id: user.id,
  email: user.email,
  name: user.name,
  verified: user.emailVerified,
  created: user.createdAt,
  updated: user.updatedAt,
};

/** The session token inside better-auth's `set-auth-token` header (`<token>.<signature>`, maybe URL-encoded). */
function sessionTokenOf(headers: Headers): string | null {
  const value = headers.get("set-auth-token");
  if (!value) return null;
  return decodeURIComponent(value).split(".")[0] || null;
}

/**
 * Signs an API client in with email and password: a new better-auth session for an account of
 * `kind`. Every refusal is the same `invalid(API_SIGN_IN_REFUSED)`, so the API cannot tell a
 * wrong password from an account of the other kind; a session opened for the wrong kind is ended.
 */
export async function signInApiClient(meta: RequestMeta, kind: ApiAccountKind, input: { email: string; password: string }): Promise<Result<ApiSession>> {
  // Header-authenticated: the caller's cookies and Authorization (maybe an older API token) stay out
  // of the sign-in; better-auth sees only who the client says it is and its IP.
  const headers = new Headers();
  for (const name of ["user-agent", "accept-language"]) {
    const value = meta.request.headers.get(name);
    if (value) headers.set(name, value);
  }
  const signedIn = await signIn({ request: new Request(meta.request.url, { method: "POST", headers }), ip: meta.ip }, input);
  if (!signedIn.ok) return invalid(API_SIGN_IN_REFUSED);
  const token = sessionTokenOf(signedIn.value.headers);
  if (!token) throw new Error("better-auth answered a sign-in without a session token");
  const [row] = await getDb()
    .select({ sessionId: session.id, sessionExpiresAt: session.expiresAt, role: user.role, ...accountColumns })
    .from(session)
    .innerJoin(user, eq(user.id, session.userId))
    .where(eq(session.token, token))
    .limit(1);
  if (!row) throw new Error("the session better-auth just opened is not in the database");
  const { sessionId, sessionExpiresAt, role, ...account } = row;
  if (role !== ROLE[kind]) {
    await (await getAuth().$context).internalAdapter.deleteSession(token);
    return invalid(API_SIGN_IN_REFUSED);
  }
  return ok({ account, sessionId, sessionExpiresAt });
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
      and(
        eq(session.id, input.sessionId),
        eq(session.userId, input.userId),
        gt(session.expiresAt, now),
        eq(user.role, ROLE[input.kind]),
        // better-auth's admin plugin: a ban with an expiry that has passed no longer applies.
        or(eq(user.banned, false), and(isNotNull(user.banExpires), lt(user.banExpires, now))),
      ),
    )
    .limit(1);
  if (!row) return null;
  const { sessionId, sessionExpiresAt, ...account } = row;
  return { account, sessionId, sessionExpiresAt };
}
