import { randomUUID } from "node:crypto";
import { and, eq, gt, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { session, user, verification } from "~/db/schema/auth";
import type { ApiAccountKind } from "./api-sessions.server";
import type { RequestMeta } from "~/lib/request-meta";
import { invalid, type Result } from "~/lib/result";
import { STAFF_ROLE, sessionTokenOf } from "./auth.server";
import { newRecordLikeId } from "./one-time-codes.server";
import { signIn, type SignedIn } from "./sign-in.server";

// Two-step sign-in for staff with the `admin` role (docs/decisions/0061), PocketBase's MFA: the first
// proof (password or emailed code) answers an mfaId instead of a session; the other proof, sent with
// that mfaId, signs in. An mfaId lives 10 minutes and is used once; it is a `verification` row
// `mfa:<mfaId>` with the account, its kind and the method of the first proof.
// An admin account may be exempt only through a `mfa-exempt:<userId>` row, which nothing in the
// product writes: the test fixtures' admins use it (exemptFromMfa), so other tests sign in in one step.

export const MFA_SECONDS = 600;
const MFA_PREFIX = "mfa:";
const EXEMPT_PREFIX = "mfa-exempt:";

export type SignInMethod = "password" | "otp";

interface StoredMfa {
  userId: string;
  kind: ApiAccountKind;
  method: SignInMethod;
}

/** PocketBase's refusals of a second step (its messages are the API's; the pages say them in Spanish). */
export type MfaProblem = "expired" | "other-account" | "same-method";

export type SecondFactorStep = { step: "sign-in" } | { step: "mfa"; mfaId: string } | { step: "refused"; problem: MfaProblem };

/** Whether the account must give a second proof: role `admin`, not exempt. */
export async function requiresMfa(userId: string): Promise<boolean> {
  const [row] = await getDb().select({ role: user.role }).from(user).where(eq(user.id, userId)).limit(1);
  if (row?.role !== STAFF_ROLE) return false;
  const [exempt] = await getDb().select({ id: verification.id }).from(verification).where(eq(verification.identifier, `${EXEMPT_PREFIX}${userId}`)).limit(1);
  return !exempt;
}

/**
 * After a first proof by `method`: sign in (no MFA needed, or `mfaId` names a live first step of the
 * same account by the other method, now used up), ask for the other proof (a new mfaId), or refuse.
 */
export async function secondFactorStep(input: { userId: string; kind: ApiAccountKind; method: SignInMethod; mfaId?: string }): Promise<SecondFactorStep> {
  if (!(await requiresMfa(input.userId))) return { step: "sign-in" };
  if (!input.mfaId) {
    const mfaId = newRecordLikeId();
    const stored: StoredMfa = { userId: input.userId, kind: input.kind, method: input.method };
    await getDb().insert(verification).values({ id: randomUUID(), identifier: `${MFA_PREFIX}${mfaId}`, value: JSON.stringify(stored), expiresAt: new Date(Date.now() + MFA_SECONDS * 1000) });
    return { step: "mfa", mfaId };
  }
  const identifier = `${MFA_PREFIX}${input.mfaId}`;
  const [row] = await getDb()
    .select({ value: verification.value })
    .from(verification)
    .where(and(eq(verification.identifier, identifier), gt(verification.expiresAt, sql`now()`)))
    .limit(1);
  if (!row) return { step: "refused", problem: "expired" };
  const stored = JSON.parse(row.value) as StoredMfa;
  if (stored.userId !== input.userId || stored.kind !== input.kind) return { step: "refused", problem: "other-account" };
  if (stored.method === input.method) return { step: "refused", problem: "same-method" };
  const [used] = await getDb().delete(verification).where(eq(verification.identifier, identifier)).returning({ id: verification.id });
  return used ? { step: "sign-in" } : { step: "refused", problem: "expired" };
}

/** Ends a session a first proof opened when the account still owes its second one. */
export async function endSession(sessionId: string): Promise<void> {
  await getDb().delete(session).where(eq(session.id, sessionId));
}

/** Exempts an admin account from the second step (test fixtures only; see the note above). */
export async function exemptFromMfa(userId: string): Promise<void> {
  const identifier = `${EXEMPT_PREFIX}${userId}`;
  const [existing] = await getDb().select({ id: verification.id }).from(verification).where(eq(verification.identifier, identifier)).limit(1);
  if (existing) return;
  await getDb().insert(verification).values({ id: randomUUID(), identifier, value: userId, expiresAt: new Date("9999-12-31T00:00:00Z") });
}

/** What a one-step door (better-auth's sign-in endpoint, /login) answers an admin whose password was right. */
export const TWO_STEP_REQUIRED =
  "Las cuentas de administración entran en dos pasos: su contraseña y un código que le enviamos por correo. Entre desde el acceso del personal, /admin/login.";

/**
 * Ends the session a one-step door just opened (its `set-auth-token`) when the account owes a second
 * proof; whether it did. An admin signs in only through /admin/login's two steps or the API's mfaId.
 */
export async function endOneStepSession(headers: Headers): Promise<boolean> {
  const token = sessionTokenOf(headers);
  if (!token) return false;
  const [opened] = await getDb().select({ userId: session.userId }).from(session).where(eq(session.token, token)).limit(1);
  if (!opened || !(await requiresMfa(opened.userId))) return false;
  await getDb().delete(session).where(eq(session.token, token));
  return true;
}

/** /login's email and password: a session, except for an account that owes a second step (TWO_STEP_REQUIRED, no session). */
export async function signInOneStep(meta: RequestMeta, input: { email: string; password: string }): Promise<Result<SignedIn>> {
  const result = await signIn(meta, input);
  if (result.ok && (await endOneStepSession(result.value.headers))) return invalid(TWO_STEP_REQUIRED);
  return result;
}
