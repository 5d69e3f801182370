import type { RequestMeta } from "~/lib/request-meta";
import { ok, type Result } from "~/lib/result";
import { forwardHeaders } from "./accounts.server";
import { authFailure } from "./auth-errors.server";
import { getAuth } from "./auth.server";

// The link in the confirmation email. Confirming signs the person in, so confirmEmail is part of the
// auth adapter (RequestMeta in, Set-Cookie headers out). better-auth then emits
// "cuenta.correo-confirmado" (see auth.server.ts) for the features that link earlier records.

export async function confirmEmail(meta: RequestMeta, token: string): Promise<Result<{ headers: Headers }>> {
  try {
    const { headers } = await getAuth().api.verifyEmail({ query: { token }, headers: forwardHeaders(meta), returnHeaders: true });
    return ok({ headers });
  } catch (error) {
    return authFailure(error);
  }
}

/** Queues a new confirmation link for an account's email. */
export async function resendConfirmation(email: string): Promise<Result> {
  try {
    await getAuth().api.sendVerificationEmail({ body: { email } });
    return ok();
  } catch (error) {
    return authFailure(error);
  }
}
