import type { RequestMeta } from "~/lib/request-meta";
import { apiClientMeta, openedApiSession, signInApiClient, type ApiAccountKind, type ApiSession } from "./api-sessions.server";
import { endSession, secondFactorStep, type MfaProblem } from "./mfa.server";
import { ONE_TIME_CODE, openProvenSession, requestOneTimeCode, useOneTimeCode } from "./one-time-codes.server";

export { MFA_SECONDS } from "./mfa.server";
/** How long a code lives, for auth-methods. */
export const ONE_TIME_CODE_SECONDS = ONE_TIME_CODE.seconds;

// The record API's sign-ins with their second step (docs/decisions/0061): auth-with-password and
// auth-with-otp either sign in, or, for an account that owes a second proof, answer an mfaId.

export type ApiAuthOutcome =
  | { outcome: "signed-in"; session: ApiSession }
  | { outcome: "mfa"; mfaId: string }
  | { outcome: "refused"; reason: "credentials" | "code" | MfaProblem }
  | { outcome: "limited"; message: string; retryAfterSeconds: number };

/** After a first proof opened `session`: keep it, or end it and ask for (or refuse) the second step. */
async function withSecondStep(session: ApiSession, kind: ApiAccountKind, method: "password" | "otp", mfaId: string): Promise<ApiAuthOutcome> {
  const step = await secondFactorStep({ userId: session.account.id, kind, method, mfaId: mfaId || undefined });
  if (step.step === "sign-in") return { outcome: "signed-in", session };
  await endSession(session.sessionId);
  return step.step === "mfa" ? { outcome: "mfa", mfaId: step.mfaId } : { outcome: "refused", reason: step.problem };
}

/** auth-with-password: the password, then (for an admin) the second step. */
export async function authApiClientWithPassword(meta: RequestMeta, kind: ApiAccountKind, input: { email: string; password: string; mfaId: string }): Promise<ApiAuthOutcome> {
  const signedIn = await signInApiClient(meta, kind, input);
  if (!signedIn.ok && signedIn.kind === "limited") return { outcome: "limited", message: signedIn.message, retryAfterSeconds: signedIn.retryAfterSeconds };
  if (!signedIn.ok) return { outcome: "refused", reason: "credentials" };
  return withSecondStep(signedIn.value, kind, "password", input.mfaId);
}

/** auth-with-otp: the emailed code, then (for an admin) the second step. */
export async function authApiClientWithCode(meta: RequestMeta, kind: ApiAccountKind, input: { otpId: string; code: string; mfaId: string }): Promise<ApiAuthOutcome> {
  const userId = await useOneTimeCode(kind, input.otpId, input.code);
  if (!userId) return { outcome: "refused", reason: "code" };
  const headers = await openProvenSession(apiClientMeta(meta), userId);
  const opened = headers ? await openedApiSession(headers, kind) : null;
  if (!opened?.ok) return { outcome: "refused", reason: "code" };
  return withSecondStep(opened.value, kind, "otp", input.mfaId);
}

/** request-otp: an otpId for any address; the code goes only to an account of `kind`. */
export function requestApiCode(kind: ApiAccountKind, email: string): { otpId: string; delivery: Promise<void> } {
  return requestOneTimeCode(kind, email);
}
