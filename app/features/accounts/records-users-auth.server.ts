import { createHmac, timingSafeEqual } from "node:crypto";
import { and, eq, gt, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { user, verification } from "~/db/schema/auth";
import type { RequestMeta } from "~/lib/request-meta";
import { ok, type Result } from "~/lib/result";
import { getAuthSecret } from "~/services/security/secret.server";
import { accountKindOf, type ApiAccountKind } from "./api-sessions.server";
import { authFailure } from "./auth-errors.server";
import { CLIENT_IP_HEADER, CUSTOMER_ROLE, getAuth } from "./auth.server";
import { isCommonPassword } from "./common-passwords";
import { confirmEmail, resendConfirmation } from "./email-confirmation.server";
import { requestPasswordReset } from "./password.server";

// The emailed links of the record API's auth collections (docs/decisions/0018): PocketBase's
// request/confirm password reset and request/confirm verification over Forja's own emails and
// better-auth's tokens. PocketBase's `token` is exactly the token of the link Forja mails:
// - password reset: better-auth's one-time reset token (`/recuperar/nueva?token=…`), kept in the
//   verification table as `reset-password:<token>` for an hour;
// - verification: better-auth's signed email-verification JWT (`/cuenta/confirmar?token=…`).
// A token works at the collection of its account's kind only (customers `users`, staff
// `_superusers`), as PocketBase's tokens do. Nothing here answers whether an email has an account.

/** Why PocketBase's form refuses a token (its `data.token.code`). */
export type ApiTokenProblem = "invalid" | "other-collection" | "missing-email" | "email-mismatch";


/** The account of an email (better-auth keeps emails in lower case), or undefined. */
async function accountByEmail(email: string) {
  const [row] = await getDb()
    .select({ id: user.id, email: user.email, role: user.role, verified: user.emailVerified })
    .from(user)
    .where(eq(user.email, email.trim().toLowerCase()))
    .limit(1);
  return row;
}

/** better-auth sees only who the client says it is and its IP: never the caller's cookie or token. */
function apiClientMeta(meta: RequestMeta): RequestMeta {
  const headers = new Headers();
  for (const name of ["user-agent", "accept-language"]) {
    const value = meta.request.headers.get(name);
    if (value) headers.set(name, value);
  }
  headers.set(CLIENT_IP_HEADER, meta.ip);
  return { request: new Request(meta.request.url, { headers }), ip: meta.ip };
}

/** A new password must not be one of the most common ones, as on /recuperar/nueva. */
export function isWeakApiPassword(password: string): boolean {
  return isCommonPassword(password);
}

/** Sends Forja's reset email when `email` is an account of `kind`; resolves the same way otherwise. */
export async function requestApiPasswordReset(kind: ApiAccountKind, email: string): Promise<void> {
  const account = await accountByEmail(email);
  if (account && accountKindOf(account.role) === kind) await requestPasswordReset(account.email);
}

/** Whether `token` is a live reset token of an account of `kind`. */
export async function checkApiResetToken(kind: ApiAccountKind, token: string): Promise<ApiTokenProblem | null> {
  const [row] = await getDb()
    .select({ role: user.role })
    .from(verification)
    .innerJoin(user, eq(user.id, verification.value))
    .where(and(eq(verification.identifier, `reset-password:${token}`), gt(verification.expiresAt, sql`now()`)))
    .limit(1);
  if (!row) return "invalid";
  return accountKindOf(row.role) === kind ? null : "other-collection";
}

/**
 * Sets the new password through better-auth's reset (the path of /recuperar/nueva): the token is
 * used up and every session of the account ends, so every API token of it stops working. Unlike
 * the page it opens no new session: PocketBase answers 204 and the client signs in again.
 */
export async function resetApiPassword(meta: RequestMeta, input: { token: string; password: string }): Promise<Result> {
  try {
    const { headers } = apiClientMeta(meta).request;
    await getAuth().api.resetPassword({ body: { token: input.token, newPassword: input.password }, headers });
    return ok();
  } catch (error) {
    return authFailure(error);
  }
}

/** Queues a new confirmation email when `email` is a customer's account that is not confirmed yet. */
export async function requestApiVerification(email: string): Promise<void> {
  const account = await accountByEmail(email);
  if (account?.role !== CUSTOMER_ROLE || account.verified) return;
  // A refusal (confirmed meanwhile) tells the caller nothing either.
  await resendConfirmation(account.email);
}

/** The claims of a verification token signed by better-auth (HS256 with the app's secret), or null. */
function verificationClaims(token: string): Record<string, unknown> | null {
  const [header, payload, signature] = token.split(".");
  if (!header || !payload || !signature) return null;
  const expected = createHmac("sha256", getAuthSecret()).update(`${header}.${payload}`).digest();
  const given = Buffer.from(signature, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const parsedHeader = JSON.parse(Buffer.from(header, "base64url").toString("utf8")) as { alg?: unknown };
    if (parsedHeader.alg !== "HS256") return null;
    const claims: unknown = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    if (!claims || typeof claims !== "object" || Array.isArray(claims)) return null;
    return claims as Record<string, unknown>;
  } catch {
    return null;
  }
}

/** PocketBase's checks of a verification token: signed and unexpired, for a customer, for their current email. */
export async function checkApiVerificationToken(token: string): Promise<ApiTokenProblem | null> {
  const claims = verificationClaims(token);
  if (!claims) return "invalid";
  const email = typeof claims.email === "string" ? claims.email : "";
  if (!email) return "missing-email";
  // A change-of-email token is another flow (better-auth's change-email); not this endpoint's.
  if (claims.updateTo !== undefined || claims.requestType !== undefined) return "invalid";
  if (typeof claims.exp !== "number" || claims.exp * 1000 <= Date.now()) return "invalid";
  const account = await accountByEmail(email);
  if (!account) return "invalid";
  if (typeof claims.userId === "string" && claims.userId !== account.id) return "email-mismatch";
  return account.role === CUSTOMER_ROLE ? null : "other-collection";
}

/**
 * Confirms the email through the page's own path (better-auth's verifyEmail, which emits
 * "cuenta.correo-confirmado" so earlier requests get linked). better-auth then signs the person in;
 * an API client asked for no session, so the one it opened is ended at once.
 */
export async function confirmApiVerification(meta: RequestMeta, token: string): Promise<Result> {
  const confirmed = await confirmEmail(apiClientMeta(meta), token);
  if (!confirmed.ok) return confirmed;
  const opened = confirmed.value.headers.get("set-auth-token");
  const sessionToken = opened ? decodeURIComponent(opened).split(".")[0] : "";
  if (sessionToken) await (await getAuth().$context).internalAdapter.deleteSession(sessionToken);
  return ok();
}
