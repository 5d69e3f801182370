import { logger } from "~/lib/logger.server";
import type { RequestMeta } from "~/lib/request-meta";
import { invalid, ok, type Result } from "~/lib/result";
import { getAuth, sessionTokenOf } from "./auth.server";
import { secondFactorStep } from "./mfa.server";
import { openProvenSession, requestOneTimeCode, useOneTimeCode } from "./one-time-codes.server";
import { signInStaff } from "./sign-in.server";

// The screens' sign-ins by emailed code (docs/decisions/0061): /login/codigo for customers (email →
// code → session) and /admin/login's two steps for admins (password → code → session).

/** /login/codigo, which offers «Pedir otro código» under the field. */
export const CODE_REFUSED = "El código no es correcto o ya venció. Revise el correo más reciente o pida un código nuevo.";
/** /admin/login's second step, whose only way to a new code is «Empezar de nuevo» (the password again). */
export const STAFF_CODE_REFUSED =
  "El código no es correcto o ya venció. Revise el correo más reciente o elija «Empezar de nuevo» para recibir otro código.";
const STEP_EXPIRED = "Su acceso en dos pasos venció. Escriba de nuevo su correo y contraseña.";

/** /admin/login after the password: signed in, or (an admin) a code on its way and the ids of the second step. */
export type StaffFirstStep = { step: "signed-in"; headers: Headers } | { step: "code"; mfaId: string; otpId: string; email: string };

/** Ends the session a password opened when the account owes its second step. */
async function endOpenedSession(headers: Headers): Promise<void> {
  const token = sessionTokenOf(headers);
  if (token) await (await getAuth().$context).internalAdapter.deleteSession(token);
}

/** Starts a staff code and waits until it is stored and queued (the password already proved the account). */
async function sendStaffCode(email: string): Promise<string> {
  const { otpId, delivery } = requestOneTimeCode("staff", email);
  await delivery;
  return otpId;
}

export async function beginStaffSignIn(meta: RequestMeta, input: { email: string; password: string }): Promise<Result<StaffFirstStep>> {
  const signedIn = await signInStaff(meta, input);
  if (!signedIn.ok) return signedIn;
  const { user, headers } = signedIn.value;
  const step = await secondFactorStep({ userId: user.id, kind: "staff", method: "password" });
  if (step.step === "sign-in") return ok({ step: "signed-in", headers });
  await endOpenedSession(headers);
  if (step.step === "refused") return invalid(STEP_EXPIRED);
  return ok({ step: "code", mfaId: step.mfaId, otpId: await sendStaffCode(user.email), email: user.email });
}

export async function finishStaffSignIn(meta: RequestMeta, input: { mfaId: string; otpId: string; code: string }): Promise<Result<Headers>> {
  const userId = await useOneTimeCode("staff", input.otpId, input.code);
  if (!userId) return invalid({ fieldErrors: { code: [STAFF_CODE_REFUSED] } });
  const step = await secondFactorStep({ userId, kind: "staff", method: "otp", mfaId: input.mfaId });
  if (step.step !== "sign-in") return invalid(STEP_EXPIRED);
  const headers = await openProvenSession(meta, userId);
  return headers ? ok(headers) : invalid(STEP_EXPIRED);
}

/**
 * /login/codigo's first step: an otpId whatever the address (a code goes only to a customer's
 * account), answered before the code is stored, so the timing says nothing about the address.
 */
export function requestCustomerCode(email: string): string {
  const { otpId, delivery } = requestOneTimeCode("customer", email);
  delivery.catch((error: unknown) => logger.error({ err: error }, "login: could not send the one-time code"));
  return otpId;
}

/** /login/codigo's second step: the session's Set-Cookie lines. */
export async function signInCustomerWithCode(meta: RequestMeta, input: { otpId: string; code: string }): Promise<Result<Headers>> {
  const userId = await useOneTimeCode("customer", input.otpId, input.code);
  if (!userId) return invalid({ fieldErrors: { code: [CODE_REFUSED] } });
  const headers = await openProvenSession(meta, userId);
  return headers ? ok(headers) : invalid({ fieldErrors: { code: [CODE_REFUSED] } });
}
