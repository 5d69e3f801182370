import { and, eq, gt, inArray } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { session, user } from "~/db/schema/auth";
import { authorizationToken, verifyRecordToken } from "~/services/records/tokens.server";
import { getAuthSecret } from "~/services/security/secret.server";

// Who made a logged request, worked out when the batch is written, never on the request's path:
// the record API's token is checked by its signature (no query), and the browser's session cookie
// (or a better-auth bearer token) is looked up for the whole batch in one query. The credentials
// themselves stay in memory until then and are never written.

export interface RequestCredentials {
  authorization: string | undefined;
  cookie: string | undefined;
}

export interface RequestIdentity {
  /** PocketBase's `auth`: the collection of the account ("users", "_superusers"), "" for a guest. */
  auth: string;
  authId?: string;
}

const GUEST: RequestIdentity = { auth: "" };

/** Whether a role is staff's (from the accounts feature, given at start-up: services never import a feature). */
export type StaffRoleTest = (role: string | null | undefined) => boolean;

/** The session token of a better-auth cookie value or bearer token ("<token>.<signature>", URL-encoded). */
function sessionTokenOf(value: string): string | null {
  let decoded = value;
  try {
    decoded = decodeURIComponent(value);
  } catch {
    return null;
  }
  const token = decoded.split(".")[0] ?? "";
  return /^[\w-]{16,200}$/.test(token) ? token : null;
}

/** The session cookie's token (any `….session_token` cookie, with or without `__Secure-`). */
function cookieSessionToken(cookieHeader: string): string | null {
  for (const part of cookieHeader.split(";")) {
    const separator = part.indexOf("=");
    if (separator < 0) continue;
    if (!part.slice(0, separator).trim().endsWith(".session_token")) continue;
    const token = sessionTokenOf(part.slice(separator + 1).trim());
    if (token) return token;
  }
  return null;
}

/** The identity of each request, in order; guests where nothing valid was sent. */
export async function identifyRequests(credentials: readonly RequestCredentials[], isStaffRole: StaffRoleTest, now = new Date()): Promise<RequestIdentity[]> {
  const identities: RequestIdentity[] = credentials.map(() => GUEST);
  const sessionTokens = new Map<number, string>();
  credentials.forEach((sent, index) => {
    if (sent.authorization) {
      const token = authorizationToken(sent.authorization);
      const claims = token ? verifyRecordToken(token, { secret: getAuthSecret(), now }) : null;
      if (claims) {
        identities[index] = { auth: claims.collection, authId: claims.id };
        return;
      }
      const bearer = token ? sessionTokenOf(token) : null;
      if (bearer) {
        sessionTokens.set(index, bearer);
        return;
      }
    }
    const fromCookie = sent.cookie ? cookieSessionToken(sent.cookie) : null;
    if (fromCookie) sessionTokens.set(index, fromCookie);
  });
  if (sessionTokens.size === 0) return identities;
  const rows = await getDb()
    .select({ token: session.token, id: user.id, role: user.role })
    .from(session)
    .innerJoin(user, eq(session.userId, user.id))
    .where(and(inArray(session.token, [...new Set(sessionTokens.values())]), gt(session.expiresAt, now)));
  const byToken = new Map(rows.map((row) => [row.token, row]));
  for (const [index, token] of sessionTokens) {
    const account = byToken.get(token);
    if (account) identities[index] = { auth: isStaffRole(account.role) ? "_superusers" : "users", authId: account.id };
  }
  return identities;
}
