import type { CachedSessionVariant } from "~/lib/page-cache";
import type { RequestMeta } from "~/lib/request-meta";
import { getSessionUser } from "./accounts.server";
import { SESSION_COOKIE_PREFIX } from "./auth.server";

// What the site header says before JavaScript runs: "Mi cuenta" for someone signed in, "Iniciar
// sesión" for anyone else. A cached page is kept in two variants chosen by the mere presence of the
// session cookie (server/page-cache.ts); any other page asks the session itself. The browser checks
// again after hydration (session-store), which corrects a stale cookie.

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

/** Whether the header shows the signed-in label: the cached variant, else the real session. */
export async function headerSignedIn(meta: RequestMeta, cachedVariant: CachedSessionVariant | null): Promise<boolean> {
  if (cachedVariant) return cachedVariant === "sesion";
  // No cookie, no session: most anonymous pages need no database query for this.
  if (!hasSessionCookie(meta.request.headers.get("cookie"))) return false;
  return (await getSessionUser(meta)) !== null;
}
