import { redirect } from "react-router";
import { getEnv } from "~/lib/env.server";
import { pagePathWithSearch } from "~/lib/page-url";
import { getSessionUser, isStaff, type SessionUser } from "./accounts.server";
import type { RequestMeta } from "~/lib/request-meta";
import { sessionHintCookie } from "~/lib/session-hint";
import { forbidden } from "~/lib/errors";
import { staffMayUse, type StaffArea } from "./staff-roles";

/** The one refusal of a staff page or API the role may not use. */
export const STAFF_AREA_REFUSED = "Su cuenta del personal no tiene acceso a esta sección. Si la necesita, pídala a quien administra el panel.";

function loginRedirect(path: string, meta: RequestMeta): never {
  // A stale hint cookie would make the browser keep asking for a user that is gone.
  throw redirect(`${path}?redirectTo=${encodeURIComponent(pagePathWithSearch(meta.request))}`, {
    headers: { "Set-Cookie": sessionHintCookie(false, getEnv().secureCookies) },
  });
}

/** Any signed-in account, or a redirect to /login that comes back here afterwards. */
export async function requireUser(meta: RequestMeta): Promise<SessionUser> {
  const user = await getSessionUser(meta);
  if (!user) loginRedirect("/login", meta);
  return user;
}

/** Staff pages: anyone else goes to /admin/login. */
export async function requireStaff(meta: RequestMeta): Promise<SessionUser> {
  const user = await getSessionUser(meta);
  if (!isStaff(user)) loginRedirect("/admin/login", meta);
  return user!;
}

/** Staff APIs: 401 without a session, 403 for a signed-in customer, as JSON. */
export async function requireStaffApi(meta: RequestMeta): Promise<SessionUser> {
  const user = await getSessionUser(meta);
  if (!user) throw Response.json({ code: 401, message: "Inicie sesión para continuar." }, { status: 401 });
  if (!isStaff(user)) throw Response.json({ code: 403, message: "Esta cuenta no tiene acceso al panel de administración." }, { status: 403 });
  return user;
}

/**
 * A staff page or action of `area` (staff-roles.ts): anyone who is not staff goes to /admin/login,
 * staff whose role may not use the area get the shared 403 page.
 */
export async function requireStaffArea(meta: RequestMeta, area: StaffArea): Promise<SessionUser> {
  const staff = await requireStaff(meta);
  if (!staffMayUse(staff.role, area)) forbidden(STAFF_AREA_REFUSED);
  return staff;
}

/** A staff API of `area`: as requireStaffApi, and a JSON 403 for a role that may not use it. */
export async function requireStaffApiArea(meta: RequestMeta, area: StaffArea): Promise<SessionUser> {
  const staff = await requireStaffApi(meta);
  if (!staffMayUse(staff.role, area)) throw Response.json({ code: 403, message: STAFF_AREA_REFUSED }, { status: 403 });
  return staff;
}

/** Set-Cookie lines after a sign-in: better-auth's session cookie plus the readable hint. */
export function signedInHeaders(authHeaders: Headers, signedIn = true): Headers {
  const headers = new Headers();
  for (const cookie of authHeaders.getSetCookie()) headers.append("Set-Cookie", cookie);
  headers.append("Set-Cookie", sessionHintCookie(signedIn, getEnv().secureCookies));
  return headers;
}

/** One-minute cookie after a staff sign-in, so the admin layout knows to set its browser marker. */
export const ADMIN_SIGNIN_COOKIE = "forja_admin_entrada";

export function adminSignInCookie(active = true): string {
  const secure = getEnv().secureCookies ? "; Secure" : "";
  // Path=/ on purpose: the client loads /admin's data from /admin.data, which Path=/admin does not match.
  return active
    ? `${ADMIN_SIGNIN_COOKIE}=1; Max-Age=60; Path=/; HttpOnly; SameSite=Lax${secure}`
    : `${ADMIN_SIGNIN_COOKIE}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax${secure}`;
}

export function consumedAdminSignIn(request: Request): boolean {
  return (request.headers.get("cookie") ?? "").split(/;\s*/).includes(`${ADMIN_SIGNIN_COOKIE}=1`);
}
