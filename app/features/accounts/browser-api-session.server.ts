import type { RequestMeta } from "~/lib/request-meta";
import { accountKindOf, findApiSession, type ApiAccountKind, type ApiSession } from "./api-sessions.server";
import { CLIENT_IP_HEADER, CUSTOMER_ROLE, getAuth } from "./auth.server";

// The browser's cookie session as an API session: the live pages (docs/decisions/0021) trade it for
// a short-lived record-API token tied to that same better-auth session, so the token dies with it.

export interface BrowserApiSession extends ApiSession {
  kind: ApiAccountKind;
}

/**
 * The API session behind the request's session cookie, or null without one (or when it has
 * expired, the account is blocked, or its role is neither customer nor staff). Only the cookie
 * counts: an Authorization header (better-auth's bearer or a record token) is never read here.
 */
export async function findBrowserApiSession(meta: RequestMeta, now = new Date()): Promise<BrowserApiSession | null> {
  const cookie = meta.request.headers.get("cookie");
  if (!cookie) return null;
  const headers = new Headers({ cookie, [CLIENT_IP_HEADER]: meta.ip });
  const userAgent = meta.request.headers.get("user-agent");
  if (userAgent) headers.set("user-agent", userAgent);
  const found = await getAuth().api.getSession({ headers });
  if (!found?.session || !found.user) return null;
  const role = String(found.user.role ?? CUSTOMER_ROLE);
  const kind: ApiAccountKind | null = accountKindOf(role);
  if (!kind) return null;
  // The database decides, as for every API token: the session still there, unexpired, not blocked.
  const session = await findApiSession({ userId: found.user.id, sessionId: found.session.id, kind, now });
  return session ? { kind, ...session } : null;
}
