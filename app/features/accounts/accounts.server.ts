import type { RequestMeta } from "~/lib/request-meta";
import { and, count, desc, eq, ilike, or } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { containsPattern } from "~/lib/sql-like";
import { account, user, verification } from "~/db/schema/auth";
import { CLIENT_IP_HEADER, CUSTOMER_ROLE, STAFF_ROLE, getAuth } from "./auth.server";
import { consumeRateLimit, RATE_LIMITS, rateLimitMessage, type RateLimitRule } from "~/services/security/rate-limit.server";
import { getProvider, listProviders } from "./providers.server";

// Commands and queries of customer and staff accounts. Route actions call these; better-auth does
// the hashing, sessions and tokens. Each command returns the Set-Cookie headers to forward.

export type CommandResult<T = undefined> =
  | { ok: true; headers: Headers; value: T }
  | { ok: false; message: string; field?: string; status?: number };

export interface SessionUser {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
  role: string;
  company: string | null;
  phone: string | null;
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

const ERROR_MESSAGES: Record<string, { message: string; field?: string }> = {
  INVALID_EMAIL_OR_PASSWORD: { message: "El correo o la contraseña no son correctos." },
  USER_ALREADY_EXISTS: { message: "Ya existe una cuenta con este correo. Inicie sesión o recupere su contraseña.", field: "email" },
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: { message: "Ya existe una cuenta con este correo. Inicie sesión o recupere su contraseña.", field: "email" },
  PASSWORD_TOO_SHORT: { message: "La contraseña debe tener al menos 8 caracteres.", field: "password" },
  PASSWORD_TOO_LONG: { message: "La contraseña no puede tener más de 128 caracteres.", field: "password" },
  INVALID_PASSWORD: { message: "La contraseña actual no es correcta.", field: "currentPassword" },
  INVALID_TOKEN: { message: "El enlace no es válido o ya venció. Solicite uno nuevo." },
  TOKEN_EXPIRED: { message: "El enlace ya venció. Solicite uno nuevo." },
  BANNED_USER: { message: "Esta cuenta está bloqueada. Escríbanos si cree que es un error." },
  EMAIL_ALREADY_VERIFIED: { message: "Su correo ya está confirmado." },
};

function errorCode(error: unknown): string | undefined {
  if (!error || typeof error !== "object") return undefined;
  const body = (error as { body?: { code?: string } }).body;
  return body?.code;
}

function failure(error: unknown): { ok: false; message: string; field?: string; status?: number } {
  const code = errorCode(error);
  const known = code ? ERROR_MESSAGES[code] : undefined;
  if (known) return { ok: false, ...known };
  if (code === undefined && !(error && typeof error === "object" && "status" in error)) throw error;
  return { ok: false, message: "No pudimos completar la operación. Inténtelo de nuevo en un momento." };
}

function toSessionUser(value: Record<string, unknown>): SessionUser {
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
  const result = await getAuth().api.getSession({ headers: forwardHeaders(meta) });
  if (!result?.user || result.user.banned) return null;
  return toSessionUser(result.user);
}

export function isStaff(sessionUser: SessionUser | null): boolean {
  return sessionUser?.role === STAFF_ROLE;
}

export async function registerCustomer(
  meta: RequestMeta,
  input: { name: string; email: string; password: string; company?: string; phone?: string },
): Promise<CommandResult<SessionUser>> {
  try {
    const { headers, response } = await getAuth().api.signUpEmail({
      body: { name: input.name, email: input.email, password: input.password, company: input.company, phone: input.phone },
      headers: forwardHeaders(meta),
      returnHeaders: true,
    });
    return { ok: true, headers, value: toSessionUser(response.user as unknown as Record<string, unknown>) };
  } catch (error) {
    return failure(error);
  }
}

export async function signIn(meta: RequestMeta, input: { email: string; password: string }): Promise<CommandResult<SessionUser>> {
  try {
    const { headers, response } = await getAuth().api.signInEmail({
      body: { email: input.email, password: input.password, rememberMe: true },
      headers: forwardHeaders(meta),
      returnHeaders: true,
    });
    return { ok: true, headers, value: toSessionUser(response.user as unknown as Record<string, unknown>) };
  } catch (error) {
    return failure(error);
  }
}

/** Staff sign-in: a valid customer account gets a refusal and keeps no session. */
export async function signInStaff(meta: RequestMeta, input: { email: string; password: string }): Promise<CommandResult<SessionUser>> {
  const result = await signIn(meta, input);
  if (!result.ok) return result;
  if (result.value.role !== STAFF_ROLE) {
    const token = result.headers.get("set-auth-token");
    const cookie = result.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");
    await getAuth().api.signOut({ headers: new Headers({ cookie, ...(token ? { authorization: `Bearer ${token}` } : {}) }) });
    return { ok: false, message: "Esta cuenta no tiene acceso al panel de administración.", status: 403 };
  }
  return result;
}

export async function signOut(meta: RequestMeta): Promise<Headers> {
  try {
    const { headers } = await getAuth().api.signOut({ headers: forwardHeaders(meta), returnHeaders: true });
    return headers;
  } catch {
    return new Headers();
  }
}

/** Always resolves the same way whether or not the email has an account. */
export async function requestPasswordReset(meta: RequestMeta, email: string): Promise<void> {
  try {
    await getAuth().api.requestPasswordReset({ body: { email, redirectTo: "/recuperar/nueva" }, headers: forwardHeaders(meta) });
  } catch (error) {
    if (!errorCode(error)) throw error;
  }
}

/** Sets the new password (revoking every session), then signs the user in. */
export async function resetPassword(meta: RequestMeta, input: { token: string; password: string }): Promise<CommandResult<SessionUser>> {
  const [pending] = await getDb()
    .select({ userId: verification.value })
    .from(verification)
    .where(eq(verification.identifier, `reset-password:${input.token}`))
    .limit(1);
  const [owner] = pending ? await getDb().select({ email: user.email }).from(user).where(eq(user.id, pending.userId)).limit(1) : [];
  try {
    await getAuth().api.resetPassword({ body: { token: input.token, newPassword: input.password }, headers: forwardHeaders(meta) });
  } catch (error) {
    return failure(error);
  }
  if (!owner) return failure({ body: { code: "INVALID_TOKEN" } });
  return signIn(meta, { email: owner.email, password: input.password });
}

export async function changePassword(
  meta: RequestMeta,
  input: { currentPassword: string; newPassword: string },
): Promise<CommandResult> {
  try {
    const { headers } = await getAuth().api.changePassword({
      body: { currentPassword: input.currentPassword, newPassword: input.newPassword, revokeOtherSessions: true },
      headers: forwardHeaders(meta),
      returnHeaders: true,
    });
    return { ok: true, headers, value: undefined };
  } catch (error) {
    return failure(error);
  }
}

export async function resendConfirmation(meta: RequestMeta, email: string): Promise<CommandResult> {
  try {
    await getAuth().api.sendVerificationEmail({ body: { email }, headers: forwardHeaders(meta) });
    return { ok: true, headers: new Headers(), value: undefined };
  } catch (error) {
    return failure(error);
  }
}

/** Confirms the email of a token's owner; signs them in. */
export async function confirmEmail(meta: RequestMeta, token: string): Promise<CommandResult> {
  try {
    const { headers } = await getAuth().api.verifyEmail({ query: { token }, headers: forwardHeaders(meta), returnHeaders: true });
    return { ok: true, headers, value: undefined };
  } catch (error) {
    return failure(error);
  }
}

export async function updateProfile(
  meta: RequestMeta,
  input: { name: string; company?: string; phone?: string },
): Promise<CommandResult> {
  try {
    const { headers } = await getAuth().api.updateUser({
      body: { name: input.name, company: input.company ?? null, phone: input.phone ?? null },
      headers: forwardHeaders(meta),
      returnHeaders: true,
    });
    return { ok: true, headers, value: undefined };
  } catch (error) {
    return failure(error);
  }
}

export interface LinkedProvider {
  id: string;
  name: string;
  linked: boolean;
}

/** Configured providers with whether this user has linked each; "credential" is the password. */
export async function listLinkedProviders(userId: string): Promise<{ providers: LinkedProvider[]; hasPassword: boolean }> {
  const rows = await getDb().select({ providerId: account.providerId }).from(account).where(eq(account.userId, userId));
  const linked = new Set(rows.map((row) => row.providerId));
  return {
    providers: listProviders().map((provider) => ({ id: provider.id, name: provider.name, linked: linked.has(provider.id) })),
    hasPassword: linked.has("credential"),
  };
}

/** Starts a provider sign-in: the provider's authorization URL and the state cookie to set. */
export async function startProviderSignIn(
  meta: RequestMeta,
  providerId: string,
  callbackPath: string,
): Promise<CommandResult<{ url: string }>> {
  const provider = getProvider(providerId);
  if (!provider) return { ok: false, message: "Missing or invalid provider", status: 400 };
  const errorCallbackURL = "/auth/error";
  try {
    // Generic OpenID Connect providers are first-class social providers in better-auth 1.7.
    const body = { provider: provider.id, callbackURL: callbackPath, errorCallbackURL, disableRedirect: true };
    // Signed in ("Vincular" on /cuenta): link to this account. A sign-in would refuse to link an
    // unconfirmed account (better-auth's requireLocalEmailVerified) or switch to another account.
    const { headers, response } = (await getSessionUser(meta))
      ? await getAuth().api.linkSocialAccount({ body, headers: forwardHeaders(meta), returnHeaders: true })
      : await getAuth().api.signInSocial({ body, headers: forwardHeaders(meta), returnHeaders: true });
    const url = (response as { url?: string }).url;
    if (!url) return { ok: false, message: "Missing or invalid provider", status: 400 };
    return { ok: true, headers, value: { url } };
  } catch (error) {
    return failure(error);
  }
}

/** Hands a provider's redirect back to better-auth's callback endpoint for that provider. */
export async function completeProviderSignIn(meta: RequestMeta, providerId: string): Promise<Response> {
  const incoming = new URL(meta.request.url);
  const target = new URL(`/api/auth/callback/${encodeURIComponent(providerId)}${incoming.search}`, incoming.origin);
  return handleAuthRequest(new Request(target, { method: "GET", headers: meta.request.headers }), meta.ip);
}

// API clients get the same per-IP limits as the screens.
const AUTH_API_LIMITS: Record<string, { scope: string; rule: RateLimitRule }> = {
  "/api/auth/sign-in/email": { scope: "login", rule: RATE_LIMITS.signIn },
  "/api/auth/sign-up/email": { scope: "register", rule: RATE_LIMITS.register },
  "/api/auth/request-password-reset": { scope: "password-reset", rule: RATE_LIMITS.passwordReset },
  "/api/auth/reset-password": { scope: "password-reset", rule: RATE_LIMITS.passwordReset },
};

/** better-auth's own HTTP endpoints (/api/auth/*), for API clients and provider callbacks. */
export async function handleAuthRequest(request: Request, ip: string): Promise<Response> {
  const limited = request.method === "POST" ? AUTH_API_LIMITS[new URL(request.url).pathname] : undefined;
  if (limited) {
    const result = await consumeRateLimit(`${limited.scope}:${ip || "desconocida"}`, limited.rule);
    if (!result.allowed) {
      return Response.json({ code: 429, message: rateLimitMessage(result) }, { status: 429, headers: { "Retry-After": String(result.retryAfterSeconds) } });
    }
  }
  const headers = new Headers(request.headers);
  headers.set(CLIENT_IP_HEADER, ip);
  const init: RequestInit & { duplex?: "half" } = { method: request.method, headers, redirect: "manual" };
  if (request.method !== "GET" && request.method !== "HEAD") {
    init.body = request.body;
    init.duplex = "half";
  }
  return getAuth().handler(new Request(request.url, init));
}

export interface CustomerRow {
  id: string;
  name: string;
  email: string;
  company: string | null;
  emailVerified: boolean;
  banned: boolean;
  createdAt: Date;
}

export const CUSTOMERS_PAGE_SIZE = 30;

export async function listCustomers(input: { search?: string; page: number }): Promise<{ rows: CustomerRow[]; total: number }> {
  const search = input.search?.trim();
  const where = and(
    eq(user.role, CUSTOMER_ROLE),
    search ? or(ilike(user.email, containsPattern(search)), ilike(user.name, containsPattern(search)), ilike(user.company, containsPattern(search))) : undefined,
  );
  const db = getDb();
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({
        id: user.id,
        name: user.name,
        email: user.email,
        company: user.company,
        emailVerified: user.emailVerified,
        banned: user.banned,
        createdAt: user.createdAt,
      })
      .from(user)
      .where(where)
      .orderBy(desc(user.createdAt))
      .limit(CUSTOMERS_PAGE_SIZE)
      .offset((Math.max(1, input.page) - 1) * CUSTOMERS_PAGE_SIZE),
    db.select({ total: count() }).from(user).where(where),
  ]);
  return { rows, total };
}

/** Blocks (sessions revoked, sign-in refused) or unblocks a customer account. Staff only. */
export async function setCustomerBlocked(meta: RequestMeta, userId: string, blocked: boolean): Promise<CommandResult> {
  const [target] = await getDb().select({ role: user.role }).from(user).where(eq(user.id, userId)).limit(1);
  if (!target || target.role !== CUSTOMER_ROLE) return { ok: false, message: "No encontramos ese cliente.", status: 404 };
  try {
    if (blocked) {
      await getAuth().api.banUser({ body: { userId, banReason: "Bloqueado por el personal de Forja" }, headers: forwardHeaders(meta) });
    } else {
      await getAuth().api.unbanUser({ body: { userId }, headers: forwardHeaders(meta) });
    }
    return { ok: true, headers: new Headers(), value: undefined };
  } catch (error) {
    return failure(error);
  }
}

/** Creates the staff account or updates its password and name (`npm run admin:create`). */
export async function upsertStaffAccount(input: { email: string; password: string; name: string }): Promise<"created" | "updated"> {
  const auth = getAuth();
  const context = await auth.$context;
  const db = getDb();
  const email = input.email.toLowerCase();
  const [existing] = await db.select({ id: user.id }).from(user).where(eq(user.email, email)).limit(1);
  const hash = await context.password.hash(input.password);
  if (!existing) {
    const created = await context.internalAdapter.createUser(
      { email, name: input.name, emailVerified: true, role: STAFF_ROLE },
      { method: "admin" },
    );
    await context.internalAdapter.linkAccount({ userId: created.id, providerId: "credential", accountId: created.id, password: hash });
    return "created";
  }
  await db.update(user).set({ name: input.name, role: STAFF_ROLE, emailVerified: true, banned: false, updatedAt: new Date() }).where(eq(user.id, existing.id));
  const [credential] = await db
    .select({ id: account.id })
    .from(account)
    .where(and(eq(account.userId, existing.id), eq(account.providerId, "credential")))
    .limit(1);
  if (credential) await context.internalAdapter.updatePassword(existing.id, hash);
  else await context.internalAdapter.linkAccount({ userId: existing.id, providerId: "credential", accountId: existing.id, password: hash });
  await context.internalAdapter.deleteUserSessions(existing.id);
  return "updated";
}

/** Related data `GET /api/users/me?populate=…` may include. Billing data joins when checkout exists. */
export const USER_POPULATE = ["profile", "providers"] as const;
export type UserPopulate = (typeof USER_POPULATE)[number];

export function parsePopulate(value: string | null): { ok: true; value: UserPopulate[] } | { ok: false; message: string } {
  const requested = (value ?? "").split(",").map((part) => part.trim()).filter(Boolean);
  const unknown = requested.filter((part) => !(USER_POPULATE as readonly string[]).includes(part));
  if (unknown.length) return { ok: false, message: `populate no admite: ${unknown.join(", ")}. Valores válidos: ${USER_POPULATE.join(", ")}.` };
  return { ok: true, value: requested as UserPopulate[] };
}

/** The signed-in user as the API returns it, with the related data asked for. */
export async function getCurrentUserPayload(meta: RequestMeta, populate: UserPopulate[]) {
  const current = await getSessionUser(meta);
  if (!current) return null;
  const [row] = await getDb().select({ createdAt: user.createdAt }).from(user).where(eq(user.id, current.id)).limit(1);
  return {
    id: current.id,
    name: current.name,
    email: current.email,
    emailVerified: current.emailVerified,
    role: current.role,
    createdAt: row?.createdAt ?? null,
    ...(populate.includes("profile") ? { profile: { company: current.company, phone: current.phone } } : {}),
    ...(populate.includes("providers") ? { providers: (await listLinkedProviders(current.id)).providers } : {}),
  };
}
