import type { Route } from "./+types/tiempo-real";
import { findBrowserApiSession } from "~/features/accounts/index.server";
import { getEnv } from "~/lib/env.server";
import { requestMeta } from "~/lib/request-meta";
import { authRecordJson, pocketBaseError } from "~/services/records/auth-records.server";
import { signRecordToken } from "~/services/records/tokens.server";
import { getAuthSecret } from "~/services/security/secret.server";

// GET /cuenta/tiempo-real: the live pages' record-API token (docs/decisions/0021). The browser's
// session cookie is traded for a token of `users` (customers) or `_superusers` (staff) that names
// the same better-auth session and lasts 15 minutes at most (never past the session), answered as
// PocketBase answers an auth: {token, record}. The page's `pocketbase` client keeps it in its
// LocalAuthStore and asks again before it expires. Outside /api: it is Forja's, not PocketBase's.

/** How long a live page's token lasts; the browser asks for a new one a few minutes before. */
const LIVE_TOKEN_SECONDS = 15 * 60;

const HEADERS = { "Cache-Control": "no-store", Vary: "Cookie" } as const;

const refuse = (status: number, message: string) => Response.json(pocketBaseError(status, message), { status, headers: HEADERS });

/**
 * Only the site's own pages may ask: a browser says where the request comes from (Sec-Fetch-Site,
 * and Origin on a cross-origin fetch). A request that says nothing (a script, curl) holds the cookie itself.
 */
function fromOwnPage(request: Request): boolean {
  const site = request.headers.get("sec-fetch-site");
  if (site && site !== "same-origin" && site !== "none") return false;
  const origin = request.headers.get("origin");
  if (origin === null) return true;
  return origin === new URL(request.url).origin || origin === new URL(getEnv().publicUrl).origin;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  if (!fromOwnPage(request)) return refuse(403, "Solo las páginas de Forja pueden pedir este acceso.");
  const found = await findBrowserApiSession(requestMeta(request, context));
  if (!found) return refuse(401, "Inicie sesión para ver los cambios al momento.");
  const collection = found.kind === "staff" ? "_superusers" : "users";
  const now = new Date();
  const expiresAt = new Date(Math.min(found.sessionExpiresAt.getTime(), now.getTime() + LIVE_TOKEN_SECONDS * 1000));
  const token = signRecordToken(
    { id: found.account.id, collection, sessionId: found.sessionId, sessionExpiresAt: expiresAt },
    { secret: getAuthSecret(), now },
  );
  return Response.json({ token, record: authRecordJson(collection, found.account) }, { headers: HEADERS });
}
