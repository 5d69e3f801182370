import { consumeRateLimit, resetRateLimit, type RateLimitRule } from "./rate-limit.server";

// The per-account limit on password sign-ins (docs/decisions/0036). The per-IP limit stops one
// address; credential stuffing spreads one account's guesses over many, so every password sign-in
// path (/login, /admin/login, /api/auth/local, the record API's auth-with-password and better-auth's
// /api/sesion/sign-in/email) also counts against the account's normalized email. The counter is kept
// for any email, with or without an account, so the answers never tell which exist.

/** 5 password checks per account per 15 minutes; past them the account is locked until the window ends. */
export const ACCOUNT_SIGN_IN_RULE = { limit: 5, windowMs: 15 * 60_000, perAccount: true } as const satisfies RateLimitRule;

/** The one spelling of an email for counting: NFKC (full-width letters fold), trimmed, lower-case. */
export function normalizeAccountEmail(email: string): string {
  return email.normalize("NFKC").trim().toLowerCase();
}

function accountKey(email: string): string {
  return `account-sign-in:${normalizeAccountEmail(email)}`;
}

export type AccountAttempt =
  | { allowed: false; retryAfterSeconds: number }
  /** `lastBeforeLock`: this is the window's last allowed check; if it fails, the account locks now. */
  | { allowed: true; lastBeforeLock: boolean };

/**
 * Counts one password check against the account before it is made (atomic, so parallel guesses
 * cannot slip past the limit). Refused attempts are not checked at all: the right password during
 * a lock is refused too, so stuffing cannot succeed inside the window.
 */
export async function beginAccountAttempt(email: string, now = Date.now()): Promise<AccountAttempt> {
  const result = await consumeRateLimit(accountKey(email), ACCOUNT_SIGN_IN_RULE, now);
  if (!result.allowed) return { allowed: false, retryAfterSeconds: result.retryAfterSeconds };
  return { allowed: true, lastBeforeLock: result.remaining === 0 };
}

/** A sign-in with the right password, or a password reset, clears the account's failures. */
export async function clearAccountAttempts(email: string): Promise<void> {
  await resetRateLimit(accountKey(email));
}

export function accountLockMessage(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Demasiados intentos para esta cuenta. Intente de nuevo en ${minutes === 1 ? "un minuto" : `${minutes} minutos`} o restablezca su contraseña.`;
}
