import { randomUUID } from "node:crypto";
import { and, eq, gt, like, ne } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { account, session, user, verification } from "~/db/schema/auth";
import { logger } from "~/lib/logger.server";
import type { RequestMeta } from "~/lib/request-meta";
import { forbiddenResult, invalid, notFoundResult, ok, type Result } from "~/lib/result";
import { emit } from "~/services/events/events.server";
import { normalizeAccountEmail } from "~/services/security/account-limit.server";
import { signJwt, verifyJwt } from "~/services/security/jwt.server";
import { getAuthSecret } from "~/services/security/secret.server";
import { AUTH_COLLECTIONS } from "~/services/records/tokens.server";
import { sendEmailChangedNotice, sendEmailChangeEmail } from "./account-emails.server";
import { closeAccountGate, openAccountGate } from "./account-lock.server";
import { CUSTOMER_ROLE, getAuth } from "./auth.server";
import { signIn, type SignedIn } from "./sign-in.server";
import { isUniqueViolation } from "~/db/errors.server";

// A customer changes their account's email (docs/decisions/0062), as PocketBase's
// request-email-change / confirm-email-change: the signed-in customer names the new address, a link
// goes to that address, and the change happens only when the link is opened AND the account's
// password is typed. The link's token is a JWT shaped as PocketBase's (type "emailChange", id,
// collectionId, email, newEmail, exp), so the SDK recognizes it; what makes it single-use is a row
// of better-auth's `verification` table (`email-change:<jti>`), deleted in the transaction that
// changes the email. Confirming ends every session of the account (PocketBase renews the token key),
// marks the new address as confirmed and tells the old address.

/** PocketBase's default lifetime of an email-change token (30 minutes). */
export const EMAIL_CHANGE_MINUTES = 30;
const KEY_LABEL = "forja:accounts:email-change";
const IDENTIFIER_PREFIX = "email-change:";

/** The refusals, in the words the pages show; the record API maps each to PocketBase's code. */
export const EMAIL_CHANGE_REFUSALS = {
  same: "Ese ya es el correo de su cuenta. Escriba uno distinto.",
  taken: "Ese correo ya está registrado en otra cuenta. Escriba uno distinto.",
  staff: "Las cuentas del personal cambian su correo desde el panel de administración.",
  invalidToken: "El enlace para cambiar su correo no es válido, ya se usó o venció. Pida uno nuevo desde Mi cuenta.",
  newEmailTaken: "El correo nuevo ya pertenece a otra cuenta. Pida el cambio a otra dirección desde Mi cuenta.",
  wrongPassword: "La contraseña no es correcta. Escriba la contraseña con la que entra a su cuenta.",
} as const;

/** What a valid link says: whose account, from which address to which. */
export interface EmailChangeClaims {
  userId: string;
  email: string;
  newEmail: string;
  jti: string;
}

/**
 * Sends the confirmation link to `newEmail` for the customer `userId` (the caller proved who is
 * asking: a session or an API token). An address already used by any account is refused, as
 * PocketBase does; nothing changes until the link is confirmed.
 */
export async function requestEmailChange(input: { userId: string; newEmail: string }, now = new Date()): Promise<Result> {
  const newEmail = normalizeAccountEmail(input.newEmail);
  const db = getDb();
  const [owner] = await db.select({ id: user.id, name: user.name, email: user.email, role: user.role }).from(user).where(eq(user.id, input.userId)).limit(1);
  if (!owner) return notFoundResult("No encontramos su cuenta.");
  if (owner.role !== CUSTOMER_ROLE) return forbiddenResult(EMAIL_CHANGE_REFUSALS.staff);
  if (newEmail === owner.email) return invalid({ fieldErrors: { newEmail: [EMAIL_CHANGE_REFUSALS.same] } });
  const [taken] = await db.select({ id: user.id }).from(user).where(and(eq(user.email, newEmail), ne(user.id, owner.id))).limit(1);
  if (taken) return invalid({ fieldErrors: { newEmail: [EMAIL_CHANGE_REFUSALS.taken] } });

  const jti = randomUUID();
  const expiresAt = new Date(now.getTime() + EMAIL_CHANGE_MINUTES * 60_000);
  await db.insert(verification).values({ id: randomUUID(), identifier: `${IDENTIFIER_PREFIX}${jti}`, value: owner.id, expiresAt, createdAt: now, updatedAt: now });
  const token = signJwt(
    {
      type: "emailChange",
      id: owner.id,
      collectionId: AUTH_COLLECTIONS.users.id,
      email: owner.email,
      newEmail,
      jti,
      iat: Math.floor(now.getTime() / 1000),
      exp: Math.floor(expiresAt.getTime() / 1000),
    },
    getAuthSecret(),
    KEY_LABEL,
  );
  await sendEmailChangeEmail({ name: owner.name, email: newEmail }, token);
  return ok();
}

/** Why a token is refused: PocketBase's three token codes. */
export type EmailChangeTokenProblem = "payload" | "invalid" | "new-email-taken";

/** The `newEmail` a token claims without checking its signature (PocketBase reads it first, to name a malformed token). */
function claimedNewEmail(token: string): string {
  try {
    const payload: unknown = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8"));
    const value = payload && typeof payload === "object" ? (payload as Record<string, unknown>).newEmail : undefined;
    return typeof value === "string" ? value : "";
  } catch {
    return "";
  }
}

/**
 * The claims of a live email-change token: signed by us, unexpired, not used, for a customer whose
 * email is still the one the link was asked from, and the new address still free.
 */
export async function checkEmailChangeToken(token: string, now = new Date()): Promise<{ ok: true; claims: EmailChangeClaims } | { ok: false; problem: EmailChangeTokenProblem }> {
  if (!claimedNewEmail(token)) return { ok: false, problem: "payload" };
  const payload = verifyJwt(token, getAuthSecret(), KEY_LABEL);
  if (!payload) return { ok: false, problem: "invalid" };
  const { type, id, collectionId, email, newEmail, jti, exp } = payload;
  if (type !== "emailChange" || collectionId !== AUTH_COLLECTIONS.users.id) return { ok: false, problem: "invalid" };
  if (typeof id !== "string" || typeof email !== "string" || typeof newEmail !== "string" || typeof jti !== "string") return { ok: false, problem: "invalid" };
  if (typeof exp !== "number" || exp * 1000 <= now.getTime()) return { ok: false, problem: "invalid" };
  const db = getDb();
  const [row] = await db
    .select({ email: user.email, role: user.role })
    .from(verification)
    .innerJoin(user, eq(user.id, verification.value))
    .where(and(eq(verification.identifier, `${IDENTIFIER_PREFIX}${jti}`), eq(verification.value, id), gt(verification.expiresAt, now)))
    .limit(1);
  // The email changed since (another link was confirmed): PocketBase's token key changed too.
  if (!row || row.role !== CUSTOMER_ROLE || row.email !== email) return { ok: false, problem: "invalid" };
  const [taken] = await db.select({ id: user.id }).from(user).where(eq(user.email, newEmail)).limit(1);
  if (taken) return { ok: false, problem: "new-email-taken" };
  return { ok: true, claims: { userId: id, email, newEmail, jti } };
}

const PROBLEM_MESSAGES: Record<EmailChangeTokenProblem, string> = {
  payload: EMAIL_CHANGE_REFUSALS.invalidToken,
  invalid: EMAIL_CHANGE_REFUSALS.invalidToken,
  "new-email-taken": EMAIL_CHANGE_REFUSALS.newEmailTaken,
};

export function emailChangeTokenMessage(problem: EmailChangeTokenProblem): string {
  return PROBLEM_MESSAGES[problem];
}

async function passwordMatches(userId: string, password: string): Promise<boolean> {
  const [row] = await getDb()
    .select({ hash: account.password })
    .from(account)
    .where(and(eq(account.userId, userId), eq(account.providerId, "credential")))
    .limit(1);
  // An account made through a provider has no password: it cannot confirm until it sets one (/recuperar).
  return row?.hash ? (await getAuth().$context).password.verify({ hash: row.hash, password }) : false;
}

/**
 * Changes the email when the token is live and `password` is the account's: the token is used up,
 * every pending link of the account dies, the new email counts as confirmed, every session ends.
 * The password check counts against the account's sign-in limit (docs/decisions/0036), so a stolen
 * link cannot be used to guess the password.
 */
export async function confirmEmailChange(input: { token: string; password: string }, now = new Date()): Promise<Result<{ email: string }>> {
  const checked = await checkEmailChangeToken(input.token, now);
  if (!checked.ok) return invalid({ fieldErrors: { token: [emailChangeTokenMessage(checked.problem)] } });
  const { claims } = checked;
  const gate = await openAccountGate(claims.email);
  if (!gate.open) return gate.failure;
  const matches = await passwordMatches(claims.userId, input.password);
  await closeAccountGate(gate, matches);
  if (!matches) return invalid({ fieldErrors: { password: [EMAIL_CHANGE_REFUSALS.wrongPassword] } });

  const changed = await getDb()
    .transaction(async (tx) => {
      const [used] = await tx.delete(verification).where(and(eq(verification.identifier, `${IDENTIFIER_PREFIX}${claims.jti}`), gt(verification.expiresAt, now))).returning({ id: verification.id });
      if (!used) return "used" as const;
      const [updated] = await tx
        .update(user)
        .set({ email: claims.newEmail, emailVerified: true, updatedAt: now })
        .where(and(eq(user.id, claims.userId), eq(user.email, claims.email)))
        .returning({ name: user.name });
      if (!updated) return "used" as const;
      await tx.delete(verification).where(and(eq(verification.value, claims.userId), like(verification.identifier, `${IDENTIFIER_PREFIX}%`)));
      await tx.delete(session).where(eq(session.userId, claims.userId));
      return updated;
    })
    .catch((error: unknown) => {
      // Another account took the address between the check and the update (the column is unique).
      if (isUniqueViolation(error)) return "taken" as const;
      throw error;
    });
  if (changed === "used") return invalid({ fieldErrors: { token: [EMAIL_CHANGE_REFUSALS.invalidToken] } });
  if (changed === "taken") return invalid({ fieldErrors: { token: [EMAIL_CHANGE_REFUSALS.newEmailTaken] } });

  await sendEmailChangedNotice({ name: changed.name, email: claims.email }, claims.newEmail).catch((error: unknown) =>
    logger.error({ err: error }, "email change: the notice to the old address was not queued"),
  );
  // The new address is proven: earlier requests made with it join the account, as after a confirmation.
  await emit("cuenta.correo-confirmado", { userId: claims.userId, email: claims.newEmail });
  return ok({ email: claims.newEmail });
}

/**
 * The page's confirmation (/cuenta/confirmar-correo): the change, then a new session with the new
 * email and the password just typed, since the change ended every session of the account.
 */
export async function confirmEmailChangeAndSignIn(meta: RequestMeta, input: { token: string; password: string }): Promise<Result<SignedIn>> {
  const confirmed = await confirmEmailChange(input);
  if (!confirmed.ok) return confirmed;
  return signIn(meta, { email: confirmed.value.email, password: input.password });
}
