import { and, eq, gt } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { user, verification } from "~/db/schema/auth";
import type { RequestMeta } from "~/lib/request-meta";
import { ok, type Result } from "~/lib/result";
import { forwardHeaders } from "./accounts.server";
import { authErrorCode, authFailure, invalidTokenFailure } from "./auth-errors.server";
import { getAuth } from "./auth.server";
import { signIn, type SignedIn } from "./sign-in.server";

// Forgotten and changed passwords. Resetting and changing end with a new session, so those two are
// part of the auth adapter (RequestMeta in, Set-Cookie headers out); asking for a link is not.

/** Always resolves the same way whether or not the email has an account. */
export async function requestPasswordReset(email: string): Promise<void> {
  try {
    await getAuth().api.requestPasswordReset({ body: { email, redirectTo: "/recuperar/nueva" } });
  } catch (error) {
    if (!authErrorCode(error)) throw error;
  }
}

/**
 * Whether a reset link's token can still set a password: it exists, has not expired and its account
 * is there. Only reads (the token stays usable), so /recuperar/nueva can say at once that a used or
 * expired link no longer works instead of after the new password is typed twice.
 */
export async function isPasswordResetTokenUsable(token: string): Promise<boolean> {
  if (!token) return false;
  const [row] = await getDb()
    .select({ id: user.id })
    .from(verification)
    .innerJoin(user, eq(user.id, verification.value))
    .where(and(eq(verification.identifier, `reset-password:${token}`), gt(verification.expiresAt, new Date())))
    .limit(1);
  return Boolean(row);
}

/** Sets the new password (revoking every session), then signs the user in. */
export async function resetPassword(meta: RequestMeta, input: { token: string; password: string }): Promise<Result<SignedIn>> {
  // Read the token's owner first: better-auth deletes the token when it accepts it.
  const [pending] = await getDb()
    .select({ userId: verification.value })
    .from(verification)
    .where(eq(verification.identifier, `reset-password:${input.token}`))
    .limit(1);
  const [owner] = pending ? await getDb().select({ email: user.email }).from(user).where(eq(user.id, pending.userId)).limit(1) : [];
  try {
    await getAuth().api.resetPassword({ body: { token: input.token, newPassword: input.password }, headers: forwardHeaders(meta) });
  } catch (error) {
    return authFailure(error);
  }
  if (!owner) return invalidTokenFailure();
  return signIn(meta, { email: owner.email, password: input.password });
}

/** Changes the signed-in user's password, ending their other sessions; the headers of the new session. */
export async function changePassword(meta: RequestMeta, input: { currentPassword: string; newPassword: string }): Promise<Result<{ headers: Headers }>> {
  try {
    const { headers } = await getAuth().api.changePassword({
      body: { currentPassword: input.currentPassword, newPassword: input.newPassword, revokeOtherSessions: true },
      headers: forwardHeaders(meta),
      returnHeaders: true,
    });
    return ok({ headers });
  } catch (error) {
    return authFailure(error);
  }
}
