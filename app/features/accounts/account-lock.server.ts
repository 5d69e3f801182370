import { eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { user } from "~/db/schema/auth";
import { logger } from "~/lib/logger.server";
import { limited, type Failure } from "~/lib/result";
import {
  ACCOUNT_SIGN_IN_RULE,
  accountLockMessage,
  beginAccountAttempt,
  clearAccountAttempts,
  normalizeAccountEmail,
  type AccountAttempt,
} from "~/services/security/account-limit.server";
import { sendAccountLockedEmail } from "./account-emails.server";

// Every password sign-in of the site goes through these two calls (docs/decisions/0036): one
// before the password is checked, one with its outcome. They never look at whether the account
// exists, so a locked unknown email answers exactly as a locked real one.

export type AccountGate = { open: true; attempt: Extract<AccountAttempt, { allowed: true }>; email: string } | { open: false; failure: Failure };

/** Counts the attempt; a locked account is refused (429) before its password is looked at. */
export async function openAccountGate(email: string): Promise<AccountGate> {
  const attempt = await beginAccountAttempt(email);
  if (!attempt.allowed) {
    return { open: false, failure: limited(accountLockMessage(attempt.retryAfterSeconds), attempt.retryAfterSeconds) };
  }
  return { open: true, attempt, email };
}

/**
 * The password check's outcome: success clears the account's failures; the failure that locks it
 * mails the owner, if there is one. The mail is queued off the answer's path, so an existing
 * account does not answer later than an unknown one.
 */
export async function closeAccountGate(gate: Extract<AccountGate, { open: true }>, succeeded: boolean): Promise<void> {
  if (succeeded) return clearAccountAttempts(gate.email);
  if (gate.attempt.lastBeforeLock) {
    void notifyAccountLocked(gate.email).catch((error: unknown) => logger.error({ err: error }, "account lock email not queued"));
  }
}

async function notifyAccountLocked(email: string): Promise<void> {
  const [owner] = await getDb()
    .select({ name: user.name, email: user.email })
    .from(user)
    .where(eq(user.email, normalizeAccountEmail(email)))
    .limit(1);
  if (!owner) return;
  await sendAccountLockedEmail(owner, Math.round(ACCOUNT_SIGN_IN_RULE.windowMs / 60_000));
}
