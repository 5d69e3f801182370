import type { RequestMeta } from "~/lib/request-meta";
import { CLIENT_IP_HEADER, CUSTOMER_ROLE, getAuth, SESSION_COOKIE_PREFIX } from "./auth.server";
import { isStaffRole } from "./staff-roles";

// Who is signed in. This and the sign-in modules are the accounts feature's auth adapter: better-auth
// reads the session from the request's cookie or bearer token, so these take the route's RequestMeta.
// Everything else in the feature takes typed input.

export interface SessionUser {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
  role: string;
  company: string | null;
  phone: string | null;
}

/** better-auth's session cookie; "__Secure-" in front when cookies are secure. */
const SESSION_COOKIE = `${SESSION_COOKIE_PREFIX}.session_token`;

/** True when the Cookie header carries a (non-empty) session cookie, valid or not. */
export function hasSessionCookie(cookieHeader: string | null | undefined): boolean {
  if (!cookieHeader) return false;
  return cookieHeader.split(/;\s*/).some((part) => {
    const separator = part.indexOf("=");
    const name = part.slice(0, separator).trim();
    return separator > 0 && separator < part.length - 1 && (name === SESSION_COOKIE || name === `__Secure-${SESSION_COOKIE}`);
  });
}

/** Only what better-auth needs from the browser's request, plus the trusted client IP. */
export function forwardHeaders({ request, ip }: RequestMeta): Headers {
  const headers = new Headers();
  for (const name of ["cookie", "authorization", "user-agent", "accept-language"]) {
    const value = request.headers.get(name);
    if (value) headers.set(name, value);
  }
  headers.set(CLIENT_IP_HEADER, ip);
  return headers;
}

export function toSessionUser(value: Record<string, unknown>): SessionUser {
  return {
    id: String(value.id),
    name: String(value.name ?? ""),
    email: String(value.email ?? ""),
    emailVerified: Boolean(value.emailVerified),
    role: String(value.role ?? CUSTOMER_ROLE),
    company: (value.company as string | null | undefined) ?? null,
    phone: (value.phone as string | null | undefined) ?? null,
  };
}

/** The signed-in user of a request (cookie or bearer token), or null. */
export async function getSessionUser(meta: RequestMeta): Promise<SessionUser | null> {
  // Without a session cookie or a bearer token there is no session to read: better-auth would say
  // so after building its whole request context, on every anonymous form post (0075).
  if (!meta.request.headers.has("authorization") && !hasSessionCookie(meta.request.headers.get("cookie"))) return null;
  const result = await getAuth().api.getSession({ headers: forwardHeaders(meta) });
  if (!result?.user || result.user.banned) return null;
  return toSessionUser(result.user);
}

/** Any staff role (admin, editor, ventas); what each may use is staff-roles.ts's table. */
export function isStaff(sessionUser: SessionUser | null): boolean {
  return isStaffRole(sessionUser?.role);
}
