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

/** The account a reset link's token would set the password of; null when the token is unknown, used or expired. */
async function resetTokenOwner(token: string): Promise<{ email: string } | null> {
  if (!token) return null;
  const [row] = await getDb()
    .select({ email: user.email })
    .from(verification)
    .innerJoin(user, eq(user.id, verification.value))
    .where(and(eq(verification.identifier, `reset-password:${token}`), gt(verification.expiresAt, new Date())))
    .limit(1);
  return row ?? null;
}

/**
 * Whether a reset link's token can still set a password. Only reads (the token stays usable), so
 * /recuperar/nueva can say at once that a used or expired link no longer works instead of after the
 * new password is typed twice.
 */
export async function isPasswordResetTokenUsable(token: string): Promise<boolean> {
  return (await resetTokenOwner(token)) !== null;
}

/** Sets the new password (revoking every session), then signs the user in. */
export async function resetPassword(meta: RequestMeta, input: { token: string; password: string }): Promise<Result<SignedIn>> {
  // Read the token's owner first: better-auth deletes the token when it accepts it.
  const owner = await resetTokenOwner(input.token);
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
