import type { RouterContextProvider } from "react-router";
import { findBrowserApiSession, staffAccountMayUse } from "~/features/accounts/index.server";
import { requestMeta } from "~/lib/request-meta";
import { AUTH_API_MESSAGES, pocketBaseError } from "~/services/records/auth-records.server";
import { WRITE_MESSAGES } from "~/services/records/writes.server";
import { errorResponse, readTokenAuth } from "./record-auth.server";

// The endpoints PocketBase keeps for superusers (backups, logs, crons, settings, collections;
// apis/middlewares.go RequireSuperuserAuth). In Forja (issue 17) a superuser is a staff account whose
// role is `admin`, signed in either with a `_superusers` token (the SDK) or with the panel's session
// cookie (/admin/sistema); the role is read from the database on every request. A cookie-authorized
// write has already passed the server's cross-site check (server/cross-site.ts); a token is no forgery.

export interface Superuser {
  id: string;
  name: string;
  email: string;
}

export type SuperuserAccess = { ok: true; superuser: Superuser } | { ok: false; response: Response };

/** The signed-in superuser, or PocketBase's 401 (nobody signed in) or 403 (anyone else) to answer. */
export async function superuserOnly(request: Request, context: Readonly<RouterContextProvider>): Promise<SuperuserAccess> {
  const token = await readTokenAuth(request);
  let account: { id: string; name: string; email: string; staff: boolean } | null = null;
  if (token) account = { ...token.session.account, staff: token.claims.collection === "_superusers" };
  else if (!request.headers.has("authorization")) {
    // A bad token is a guest, as PocketBase's loadAuthToken; only without any the cookie counts.
    const browser = await findBrowserApiSession(requestMeta(request, context));
    if (browser) account = { ...browser.account, staff: browser.kind === "staff" };
  }
  if (!account) return { ok: false, response: errorResponse(pocketBaseError(401, AUTH_API_MESSAGES.requiresToken)) };
  if (!account.staff || !(await staffAccountMayUse(account.id, "sistema"))) {
    return { ok: false, response: errorResponse(pocketBaseError(403, WRITE_MESSAGES.notAllowed)) };
  }
  return { ok: true, superuser: { id: account.id, name: account.name, email: account.email } };
}
