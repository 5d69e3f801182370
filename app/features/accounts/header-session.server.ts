import type { CachedSessionVariant } from "~/lib/page-cache";
import type { RequestMeta } from "~/lib/request-meta";
import { getSessionUser, hasSessionCookie } from "./accounts.server";

export { hasSessionCookie };

// What the site header says before JavaScript runs: "Mi cuenta" for someone signed in, "Iniciar
// sesión" for anyone else. A cached page is kept in two variants chosen by the mere presence of the
// session cookie (server/page-cache.ts); any other page asks the session itself. The browser checks
// again after hydration (session-store), which corrects a stale cookie.

/** Whether the header shows the signed-in label: the cached variant, else the real session. */
export async function headerSignedIn(meta: RequestMeta, cachedVariant: CachedSessionVariant | null): Promise<boolean> {
  if (cachedVariant) return cachedVariant === "sesion";
  // No cookie, no session: most anonymous pages need no database query for this.
  if (!hasSessionCookie(meta.request.headers.get("cookie"))) return false;
  return (await getSessionUser(meta)) !== null;
}
