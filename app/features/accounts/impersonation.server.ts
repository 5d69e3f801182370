import { and, eq, gt, isNotNull, sql } from "drizzle-orm";
import type { MiddlewareFunction } from "react-router";
import { getDb } from "~/db/client.server";
import { session, user, verification } from "~/db/schema/auth";
import { logs } from "~/db/schema/operations";
import { getEnv } from "~/lib/env.server";
import { forbidden } from "~/lib/errors";
import type { RequestMeta } from "~/lib/request-meta";
import { forbiddenResult, notFoundResult, ok, type Result } from "~/lib/result";
import { authorizationToken, verifyRecordToken } from "~/services/records/tokens.server";
import { getAuthSecret } from "~/services/security/secret.server";
import { forwardHeaders, getSessionUser } from "./accounts.server";
import type { ApiSession } from "./api-sessions.server";
import { CUSTOMER_ROLE, SESSION_COOKIE_PREFIX, getAuth } from "./auth.server";
import { hasSessionCookie } from "./header-session.server";
import { staffMayUse } from "./staff-roles";

// Impersonation for support (issue 17 §5, docs/decisions/0063). An admin sees the site or the record
// API as one customer: a session row of that customer with `impersonated_by` (better-auth's admin
// plugin), short-lived, and a grant in better-auth's `verification` table saying who opened it and
// whether it may write. Read-only by default: every write made with it (a cookie or a token) is
// refused by `impersonationMiddleware`, around every page and resource route. Every start and end
// is written at once to the logs table, with the admin's name.

/** Seconds an impersonation lasts when none is asked for, and the most it may last. */
export const IMPERSONATION_SECONDS = { default: 60 * 60, max: 8 * 60 * 60 } as const;

export const IMPERSONATION_MESSAGES = {
  readOnly: "Está viendo el sitio como cliente en modo de solo lectura, así que no se guardó ningún cambio. Termine la vista de cliente para volver a su cuenta.",
  apiReadOnly: "Este token de soporte es de solo lectura: pida uno con «writable: true» para hacer cambios.",
  notCustomer: "Solo puede ver el sitio como una cuenta de cliente.",
  notAllowed: "Solo el rol de administración puede ver el sitio como un cliente.",
  blocked: "Esta cuenta está bloqueada: desbloquéela antes de ver el sitio como ella.",
} as const;

/** Who opened an impersonation and what it may do. */
export interface ImpersonationGrant {
  adminId: string;
  adminName: string;
  writable: boolean;
}

/** A live impersonation: the customer's session and the grant. */
export interface ActiveImpersonation extends ImpersonationGrant {
  sessionId: string;
  customerId: string;
  customerName: string;
  expiresAt: Date;
}

/**
 * What every page shows while a browser impersonates (the root loader's data; no secret). `ended`:
 * the admin's cookie is still there but the view's time is up; the banner then offers the way out.
 */
export type ImpersonationBanner = { ended: false; customerName: string; writable: boolean; expiresAt: string } | { ended: true };

interface Admin {
  id: string;
  name: string;
  email: string;
}

/** better-auth's cookie of the admin's own session while impersonating (its admin plugin's name). */
const ADMIN_SESSION_COOKIE = `${SESSION_COOKIE_PREFIX}.admin_session`;
const SESSION_COOKIE = `${SESSION_COOKIE_PREFIX}.session_token`;
const DONT_REMEMBER_COOKIE = `${SESSION_COOKIE_PREFIX}.dont_remember`;

function grantIdentifier(sessionId: string): string {
  return `impersonation:${sessionId}`;
}

/** The value of a cookie (either name, with or without "__Secure-"), or null. */
function cookieValue(cookieHeader: string | null | undefined, name: string): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(/;\s*/)) {
    const separator = part.indexOf("=");
    const key = part.slice(0, separator).trim();
    if (separator > 0 && (key === name || key === `__Secure-${name}`)) return part.slice(separator + 1).trim() || null;
  }
  return null;
}

/**
 * True when the browser is impersonating (the cookie that keeps the admin's own session is there):
 * its pages carry the banner, so the page cache neither answers nor keeps them (server/page-cache.ts).
 */
export function hasImpersonationCookie(cookieHeader: string | null | undefined): boolean {
  return cookieValue(cookieHeader, ADMIN_SESSION_COOKIE) !== null;
}

/** The duration asked for, in seconds: absent or 0 is the default; past the maximum or negative is refused. */
export function impersonationSeconds(duration: number | undefined): number | "too-long" | "negative" {
  if (duration === undefined || duration === 0) return IMPERSONATION_SECONDS.default;
  if (duration < 0) return "negative";
  return duration > IMPERSONATION_SECONDS.max ? "too-long" : Math.floor(duration);
}

async function customerOf(customerId: string): Promise<Result<{ id: string; name: string; email: string }>> {
  const [row] = await getDb().select({ id: user.id, name: user.name, email: user.email, role: user.role, banned: user.banned }).from(user).where(eq(user.id, customerId)).limit(1);
  if (!row || row.role !== CUSTOMER_ROLE) return notFoundResult(IMPERSONATION_MESSAGES.notCustomer);
  if (row.banned) return forbiddenResult(IMPERSONATION_MESSAGES.blocked);
  return ok({ id: row.id, name: row.name, email: row.email });
}

/** The audit entry, written at once (not batched with the request log, so it is never dropped). */
async function audit(message: string, data: Record<string, unknown>): Promise<void> {
  await getDb().insert(logs).values({ level: 0, message, data: { type: "audit", ...data } });
}

/** Stores the grant and sets the session's expiry (better-auth's own is its plugin's fixed hour). */
async function grant(sessionId: string, expiresAt: Date, value: ImpersonationGrant): Promise<void> {
  const db = getDb();
  await db.update(session).set({ expiresAt }).where(eq(session.id, sessionId));
  await db.insert(verification).values({ id: crypto.randomUUID(), identifier: grantIdentifier(sessionId), value: JSON.stringify(value), expiresAt });
}

/**
 * `POST /api/collections/users/impersonate/{id}` (the caller is a superuser already): a new session
 * of the customer, opened by `admin`, for `seconds`. The route signs its non-refreshable token.
 */
export async function startApiImpersonation(input: { admin: Admin; customerId: string; seconds: number; writable: boolean }): Promise<Result<ApiSession & { sessionStartedAt: Date }>> {
  const customer = await customerOf(input.customerId);
  if (!customer.ok) return customer;
  // One instant for the session's start and end, which the route's token also takes as its own
  // (so its lifetime is exactly the duration asked for, even across a second's boundary).
  const startedAt = new Date();
  const expiresAt = new Date(startedAt.getTime() + input.seconds * 1000);
  const context = await getAuth().$context;
  const created = await context.internalAdapter.createSession(customer.value.id, true, { impersonatedBy: input.admin.id, expiresAt }, true);
  await grant(created.id, expiresAt, { adminId: input.admin.id, adminName: input.admin.name, writable: input.writable });
  await audit("impersonation started", { via: "api", admin: input.admin, customer: customer.value, writable: input.writable, expiresAt: expiresAt.toISOString(), sessionId: created.id });
  const [account] = await getDb()
    .select({ id: user.id, email: user.email, name: user.name, verified: user.emailVerified, created: user.createdAt, updated: user.updatedAt })
    .from(user)
    .where(eq(user.id, customer.value.id))
    .limit(1);
  return ok({ account: account!, sessionId: created.id, sessionStartedAt: startedAt, sessionExpiresAt: expiresAt });
}

/**
 * «Ver como cliente» in /admin/clientes: the admin's browser becomes the customer's for `seconds`
 * (better-auth's admin plugin keeps the admin's own session in a cookie of its own, so ending it
 * brings the admin back). Answers the Set-Cookie headers to send with the redirect.
 */
export async function startBrowserImpersonation(meta: RequestMeta, input: { customerId: string; seconds: number; writable: boolean }): Promise<Result<Headers>> {
  const admin = await getSessionUser(meta);
  if (!admin || !staffMayUse(admin.role, "sistema")) return forbiddenResult(IMPERSONATION_MESSAGES.notAllowed);
  const customer = await customerOf(input.customerId);
  if (!customer.ok) return customer;
  const { headers, response } = await getAuth().api.impersonateUser({ body: { userId: customer.value.id }, headers: forwardHeaders(meta), returnHeaders: true });
  const expiresAt = new Date(Date.now() + input.seconds * 1000);
  const sessionId = response.session.id;
  await grant(sessionId, expiresAt, { adminId: admin.id, adminName: admin.name, writable: input.writable });
  await audit("impersonation started", {
    via: "panel",
    admin: { id: admin.id, name: admin.name, email: admin.email },
    customer: customer.value,
    writable: input.writable,
    expiresAt: expiresAt.toISOString(),
    sessionId,
  });
  return ok(headers);
}

/**
 * «Terminar»: ends the browser's impersonation and gives the admin's own session back. When the
 * impersonation has already expired, only its cookies are cleared (the admin then signs in again).
 */
export async function endBrowserImpersonation(meta: RequestMeta): Promise<{ headers: Headers; restored: boolean }> {
  const active = await activeImpersonation(meta.request);
  try {
    const { headers } = await getAuth().api.stopImpersonating({ headers: forwardHeaders(meta), returnHeaders: true });
    if (active) {
      await getDb().delete(verification).where(eq(verification.identifier, grantIdentifier(active.sessionId)));
      await audit("impersonation ended", { via: "panel", admin: { id: active.adminId, name: active.adminName }, customer: { id: active.customerId, name: active.customerName }, sessionId: active.sessionId });
    }
    return { headers, restored: true };
  } catch {
    const headers = new Headers();
    const secure = getEnv().secureCookies;
    for (const name of [ADMIN_SESSION_COOKIE, SESSION_COOKIE, DONT_REMEMBER_COOKIE]) {
      headers.append("Set-Cookie", `${secure ? "__Secure-" : ""}${name}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`);
    }
    return { headers, restored: false };
  }
}

/** The session a request names: a record-API token's session id, or a session token (cookie or bearer). */
function sessionReference(request: Request): { sessionId: string } | { token: string } | null {
  const header = request.headers.get("authorization");
  if (header) {
    const raw = authorizationToken(header);
    const claims = raw ? verifyRecordToken(raw, { secret: getAuthSecret() }) : null;
    if (claims) return { sessionId: claims.sid };
    const token = raw.split(".")[0];
    return token ? { token } : null;
  }
  const cookie = cookieValue(request.headers.get("cookie"), SESSION_COOKIE);
  if (!cookie) return null;
  // `<token>.<signature>`: matching the token only ever refuses, so the signature need not be checked here.
  const token = safeDecode(cookie).split(".")[0];
  return token ? { token } : null;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function readGrant(value: string | null): Omit<ImpersonationGrant, "adminId"> & { adminId: string | null } {
  try {
    const parsed = value ? (JSON.parse(value) as Partial<ImpersonationGrant>) : {};
    return { adminId: typeof parsed.adminId === "string" ? parsed.adminId : null, adminName: String(parsed.adminName ?? ""), writable: parsed.writable === true };
  } catch {
    return { adminId: null, adminName: "", writable: false };
  }
}

/** The live impersonation a request is made with (cookie or token), or null. Without a grant it is read-only. */
export async function activeImpersonation(request: Request, now = new Date()): Promise<ActiveImpersonation | null> {
  const reference = sessionReference(request);
  if (!reference) return null;
  const [row] = await getDb()
    .select({ sessionId: session.id, customerId: session.userId, impersonatedBy: session.impersonatedBy, expiresAt: session.expiresAt, customerName: user.name, grant: verification.value })
    .from(session)
    .innerJoin(user, eq(user.id, session.userId))
    .leftJoin(verification, and(eq(verification.identifier, sql`'impersonation:' || ${session.id}`), gt(verification.expiresAt, now)))
    .where(and("sessionId" in reference ? eq(session.id, reference.sessionId) : eq(session.token, reference.token), isNotNull(session.impersonatedBy), gt(session.expiresAt, now)))
    .limit(1);
  if (!row) return null;
  const value = readGrant(row.grant);
  return {
    sessionId: row.sessionId,
    customerId: row.customerId,
    customerName: row.customerName,
    expiresAt: row.expiresAt,
    adminId: value.adminId ?? row.impersonatedBy!,
    adminName: value.adminName,
    writable: value.writable,
  };
}

/** The banner's data for a rendered page (never for the page cache's renders, which carry no cookie). */
export async function impersonationBanner(meta: RequestMeta): Promise<ImpersonationBanner | null> {
  if (!hasImpersonationCookie(meta.request.headers.get("cookie"))) return null;
  const active = await activeImpersonation(meta.request);
  return active ? { ended: false, customerName: active.customerName, writable: active.writable, expiresAt: active.expiresAt.toISOString() } : { ended: true };
}

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * POSTs that change nothing of the customer's, or end the impersonation: ending it, signing out, a
 * token refresh (answered as it is), realtime subscriptions and a file token.
 */
const ALLOWED_POSTS = [/^\/vista-cliente\/terminar$/, /^\/salir$/, /^\/api\/sesion\/sign-out$/, /^\/api\/collections\/[^/]+\/auth-refresh$/, /^\/api\/realtime$/, /^\/api\/files\/token$/];

/**
 * Around every page and resource route (root): a write made with a read-only impersonation is
 * refused with 403 (PocketBase's body on /api, the Spanish error page elsewhere), and every answer
 * to an impersonating browser is private and never stored.
 */
export const impersonationMiddleware: MiddlewareFunction<Response> = async ({ request }, next) => {
  const cookieHeader = request.headers.get("cookie");
  if (!READS.has(request.method) && (request.headers.has("authorization") || hasSessionCookie(cookieHeader))) {
    const path = new URL(request.url).pathname.replace(/\.data$/, "");
    if (!ALLOWED_POSTS.some((allowed) => allowed.test(path))) {
      const active = await activeImpersonation(request);
      if (active && !active.writable) {
        if (path.startsWith("/api/")) {
          return Response.json({ status: 403, message: IMPERSONATION_MESSAGES.apiReadOnly, data: {} }, { status: 403, headers: { "Cache-Control": "no-store" } });
        }
        forbidden(IMPERSONATION_MESSAGES.readOnly);
      }
    }
  }
  const response = await next();
  if (!hasImpersonationCookie(cookieHeader)) return response;
  const headers = new Headers(response.headers);
  headers.set("Cache-Control", "private, no-store");
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
};

/** Whether a staff member may open a customer's view («Ver como cliente» shows only to them). */
export function mayImpersonate(role: string | null | undefined): boolean {
  return staffMayUse(role, "sistema");
}
