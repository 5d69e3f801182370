import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull, or } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { account, session, user } from "~/db/schema/auth";
import type { RequestMeta } from "~/lib/request-meta";
import { invalid, ok, type Result } from "~/lib/result";
import { forwardHeaders } from "./accounts.server";
import { apiClientMeta, findApiSession, openedApiSession, type ApiSession } from "./api-sessions.server";
import { authErrorCode, authFailure } from "./auth-errors.server";
import { CUSTOMER_ROLE, getAuth } from "./auth.server";
import { resetPassword } from "./password.server";
import { checkApiResetToken } from "./records-users-auth.server";
import { registerCustomer } from "./registration.server";

// The content-service auth API's account flows (docs/decisions/0017): registration, a reset and a
// password change that end with a new session for the API token, the customer's details as that API
// shows them, and the one-time code that hands a provider sign-in over to an API client. Customers
// only (the seed's "users"): staff sign in on /admin/login. Every flow runs through the same code as
// the pages; none reads or sets a cookie except the provider hand-over, which is a browser's.

/** Why a flow refused, for the route to name in the API's own words. */
export const API_ACCOUNT_REFUSALS = {
  emailTaken: "api-email-taken",
  wrongPassword: "api-wrong-password",
  invalidCode: "api-invalid-code",
  notACustomer: "api-not-a-customer",
} as const;

/** A customer as the content-service API shows them. */
export interface ApiUserDetails {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
  /** A block in force (better-auth's admin ban, unless its expiry passed). */
  blocked: boolean;
  role: string;
  company: string | null;
  phone: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** "local" when the account has a password, else the provider it was created with. */
  provider: string;
  /** The providers linked to the account ("credential" is the password). */
  linkedProviders: string[];
}

export async function findApiUser(userId: string, now = new Date()): Promise<ApiUserDetails | null> {
  const [row] = await getDb().select().from(user).where(eq(user.id, userId)).limit(1);
  if (!row) return null;
  const links = await getDb().select({ providerId: account.providerId }).from(account).where(eq(account.userId, userId)).orderBy(account.createdAt);
  const linkedProviders = links.map((link) => link.providerId);
  const firstProvider = linkedProviders.find((id) => id !== "credential");
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    emailVerified: row.emailVerified,
    blocked: row.banned && !(row.banExpires && row.banExpires < now),
    role: row.role ?? CUSTOMER_ROLE,
    company: row.company ?? null,
    phone: row.phone ?? null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    provider: linkedProviders.includes("credential") || !firstProvider ? "local" : firstProvider,
    linkedProviders,
  };
}

/**
 * After a refused API sign-in: whether it was refused only because the customer is blocked (the
 * password is right). The API then says so, as the seed's service does; any other refusal stays
 * one message for every wrong credential.
 */
export async function isBlockedCustomerWithPassword(input: { email: string; password: string }, now = new Date()): Promise<boolean> {
  const [row] = await getDb()
    .select({ hash: account.password })
    .from(user)
    .innerJoin(account, and(eq(account.userId, user.id), eq(account.providerId, "credential")))
    .where(
      and(
        eq(user.email, input.email.trim().toLowerCase()),
        eq(user.role, CUSTOMER_ROLE),
        eq(user.banned, true),
        or(isNull(user.banExpires), gt(user.banExpires, now)),
      ),
    )
    .limit(1);
  if (!row?.hash) return false;
  return (await getAuth().$context).password.verify({ hash: row.hash, password: input.password });
}

/** Creates a customer account (the path of /registro: better-auth queues the confirmation email) and its API session. */
export async function registerApiCustomer(
  meta: RequestMeta,
  input: { name: string; email: string; password: string; company?: string; phone?: string },
): Promise<Result<ApiSession>> {
  const [taken] = await getDb().select({ id: user.id }).from(user).where(eq(user.email, input.email.trim().toLowerCase())).limit(1);
  if (taken) return invalid(API_ACCOUNT_REFUSALS.emailTaken);
  const registered = await registerCustomer(apiClientMeta(meta), input);
  if (!registered.ok) return registered.kind === "invalid" && registered.fieldErrors.email ? invalid(API_ACCOUNT_REFUSALS.emailTaken) : registered;
  return openedApiSession(registered.value.headers, "customer");
}

/**
 * Sets a new password with the emailed reset code (the path of /recuperar/nueva: every session of
 * the account ends) and opens the API session. A code of a staff account is refused before use.
 */
export async function resetApiPasswordSignedIn(meta: RequestMeta, input: { code: string; password: string }): Promise<Result<ApiSession>> {
  // The same check as PocketBase's confirm-password-reset: a live reset code of a customer.
  if ((await checkApiResetToken("customer", input.code)) !== null) return invalid(API_ACCOUNT_REFUSALS.invalidCode);
  const reset = await resetPassword(apiClientMeta(meta), { token: input.code, password: input.password });
  if (!reset.ok) return invalid(API_ACCOUNT_REFUSALS.invalidCode);
  return openedApiSession(reset.value.headers, "customer");
}

/**
 * Changes the password of the API session's account (the path of /cuenta): every session of the
 * account ends — so every API token of it stops working — and a new one is opened for the caller.
 */
export async function changeApiPassword(meta: RequestMeta, current: ApiSession, input: { currentPassword: string; newPassword: string }): Promise<Result<ApiSession>> {
  const [row] = await getDb().select({ token: session.token }).from(session).where(eq(session.id, current.sessionId)).limit(1);
  if (!row) return invalid(API_ACCOUNT_REFUSALS.wrongPassword);
  // better-auth reads the session from its own bearer token: the session's, never the API's token.
  const headers = forwardHeaders(apiClientMeta(meta));
  headers.set("authorization", `Bearer ${row.token}`);
  try {
    const { headers: answered } = await getAuth().api.changePassword({
      body: { currentPassword: input.currentPassword, newPassword: input.newPassword, revokeOtherSessions: true },
      headers,
      returnHeaders: true,
    });
    return openedApiSession(answered, "customer");
  } catch (error) {
    const code = authErrorCode(error);
    // A provider-only account has no password to check.
    if (code === "INVALID_PASSWORD" || code === "CREDENTIAL_ACCOUNT_NOT_FOUND") return invalid(API_ACCOUNT_REFUSALS.wrongPassword);
    return authFailure(error);
  }
}

// The provider hand-over: a browser finished a provider sign-in started at the API's connect URL
// and holds the new session's cookie; the API client gets a one-time code for that session instead
// (the seed's `access_token`) and trades it for its token. Kept in better-auth's verification table,
// hashed, for five minutes; consumed atomically.

const PROVIDER_CODE_SECONDS = 5 * 60;

function providerCodeIdentifier(code: string): string {
  return `api-provider-code:${createHash("sha256").update(code).digest("base64url")}`;
}

/**
 * A one-time code for the browser's provider session (a customer's, opened since `sessionSince`:
 * the session the provider flow just made, not an older one), or a refusal.
 */
export async function issueApiProviderCode(meta: RequestMeta, providerId: string, options: { sessionSince: Date }): Promise<Result<string>> {
  const current = await getAuth().api.getSession({ headers: forwardHeaders(meta) });
  if (!current?.session || !current.user || current.user.banned) return invalid(API_ACCOUNT_REFUSALS.notACustomer);
  if (new Date(current.session.createdAt) < options.sessionSince) return invalid(API_ACCOUNT_REFUSALS.notACustomer);
  if ((current.user as { role?: string | null }).role !== CUSTOMER_ROLE) return invalid(API_ACCOUNT_REFUSALS.notACustomer);
  const code = randomBytes(32).toString("base64url");
  await (await getAuth().$context).internalAdapter.createVerificationValue({
    identifier: providerCodeIdentifier(code),
    value: JSON.stringify({ sessionId: current.session.id, userId: current.user.id, providerId }),
    expiresAt: new Date(Date.now() + PROVIDER_CODE_SECONDS * 1000),
  });
  return ok(code);
}

/** The live API session a provider code names (once; for the provider it was issued for), or null. */
export async function redeemApiProviderCode(code: string, providerId: string): Promise<ApiSession | null> {
  if (!code || code.length > 200) return null;
  const row = await (await getAuth().$context).internalAdapter.consumeVerificationValue(providerCodeIdentifier(code));
  if (!row) return null;
  let value: { sessionId?: unknown; userId?: unknown; providerId?: unknown };
  try {
    value = JSON.parse(row.value) as typeof value;
  } catch {
    return null;
  }
  if (typeof value.sessionId !== "string" || typeof value.userId !== "string" || value.providerId !== providerId) return null;
  return findApiSession({ userId: value.userId, sessionId: value.sessionId, kind: "customer" });
}
