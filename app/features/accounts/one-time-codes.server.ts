import { createHmac, randomBytes, randomInt, randomUUID, timingSafeEqual } from "node:crypto";
import { isAPIError } from "better-auth/api";
import { and, eq, gt, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { account, session, user, verification } from "~/db/schema/auth";
import type { RequestMeta } from "~/lib/request-meta";
import { RATE_LIMITS, type RateLimitRule } from "~/services/security/rate-limit.server";
import { getAuthSecret } from "~/services/security/secret.server";
import { forwardHeaders } from "./accounts.server";
import { sendOneTimeCodeEmail } from "./account-emails.server";
import { accountKindOf, type ApiAccountKind } from "./api-sessions.server";
import { emailConfirmed, getAuth } from "./auth.server";
import { GRANT_PREFIX } from "./code-sign-in-plugin.server";

// One-time codes by email (docs/decisions/0061), PocketBase's OTPs: `request-otp {email}` answers an
// otpId (also for an unknown address, which gets no mail), the code goes by email, and
// `auth-with-otp {otpId, password: code}` signs in. A code is 8 digits, lives 3 minutes, works once,
// and dies after 5 wrong tries. Kept in better-auth's `verification` table as `otp:<otpId>`, with
// an HMAC of the code (never the code itself), the account and its kind, and the wrong tries.

export const ONE_TIME_CODE = { length: 8, seconds: 180, wrongTries: 5 } as const;
/**
 * Codes asked for per IP, on /login/codigo and request-otp alike (one counter, `one-time-code:<ip>`):
 * each one is an email. The settings' `rateLimits` label `oneTimeCode` changes it (docs/decisions/0065).
 */
export const ONE_TIME_CODE_REQUESTS: RateLimitRule = RATE_LIMITS.oneTimeCode;
const OTP_PREFIX = "otp:";
/** How long the grant between a proven code and its session lives (code-sign-in-plugin.server.ts). */
const GRANT_SECONDS = 60;

interface StoredCode {
  userId: string;
  kind: ApiAccountKind;
  hash: string;
  wrong: number;
}

/** A PocketBase-like id: 15 characters of [a-z0-9]. */
export function newRecordLikeId(): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  return Array.from(randomBytes(15), (byte) => alphabet[byte % alphabet.length]).join("");
}

function codeHash(otpId: string, code: string): string {
  return createHmac("sha256", getAuthSecret()).update(`otp:${otpId}:${code}`).digest("hex");
}

function newCode(): string {
  return Array.from({ length: ONE_TIME_CODE.length }, () => String(randomInt(10))).join("");
}

/** The account of an email that may receive a code of `kind` (not blocked), or undefined. */
async function accountForCode(kind: ApiAccountKind, email: string) {
  const [row] = await getDb()
    .select({ id: user.id, name: user.name, email: user.email, role: user.role, banned: user.banned })
    .from(user)
    .where(eq(user.email, email.trim().toLowerCase()))
    .limit(1);
  return row && !row.banned && accountKindOf(row.role) === kind ? row : undefined;
}

/**
 * Starts a one-time code for `email` among the accounts of `kind`. The otpId comes back at once;
 * `delivery` stores and mails the code (nothing for an address with no such account), so a caller
 * may answer before it ends and the answer's timing says nothing about the address.
 */
export function requestOneTimeCode(kind: ApiAccountKind, email: string): { otpId: string; delivery: Promise<void> } {
  const otpId = newRecordLikeId();
  const delivery = (async () => {
    const account = await accountForCode(kind, email);
    if (!account) return;
    const code = newCode();
    const stored: StoredCode = { userId: account.id, kind, hash: codeHash(otpId, code), wrong: 0 };
    await getDb().insert(verification).values({
      id: randomUUID(),
      identifier: `${OTP_PREFIX}${otpId}`,
      value: JSON.stringify(stored),
      expiresAt: new Date(Date.now() + ONE_TIME_CODE.seconds * 1000),
    });
    await sendOneTimeCodeEmail(account, code, ONE_TIME_CODE.seconds / 60);
  })();
  return { otpId, delivery };
}

function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, "hex");
  const right = Buffer.from(b, "hex");
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Counts a wrong try in one statement (concurrent tries all count); at the limit the code is gone. */
async function countWrongTry(identifier: string): Promise<void> {
  const [row] = await getDb()
    .update(verification)
    .set({
      value: sql`jsonb_set(${verification.value}::jsonb, '{wrong}', to_jsonb(coalesce((${verification.value}::jsonb->>'wrong')::int, 0) + 1))::text`,
      updatedAt: new Date(),
    })
    .where(eq(verification.identifier, identifier))
    .returning({ value: verification.value });
  if (row && (JSON.parse(row.value) as StoredCode).wrong >= ONE_TIME_CODE.wrongTries) {
    await getDb().delete(verification).where(eq(verification.identifier, identifier));
  }
}

/**
 * Checks `code` for `otpId` among the codes of `kind`: the account's id when it is right (the code
 * is used up), or null for anything else (unknown, expired, used, dead, wrong, the other kind).
 */
export async function useOneTimeCode(kind: ApiAccountKind, otpId: string, code: string): Promise<string | null> {
  const identifier = `${OTP_PREFIX}${otpId}`;
  const [row] = await getDb()
    .select({ value: verification.value })
    .from(verification)
    .where(and(eq(verification.identifier, identifier), gt(verification.expiresAt, sql`now()`)))
    .limit(1);
  if (!row) return null;
  const stored = JSON.parse(row.value) as StoredCode;
  if (stored.kind !== kind || stored.wrong >= ONE_TIME_CODE.wrongTries) return null;
  if (!sameHash(stored.hash, codeHash(otpId, code.trim()))) {
    await countWrongTry(identifier);
    return null;
  }
  // Used once: of two callers with the right code, only the one whose DELETE finds the row wins.
  const [used] = await getDb()
    .delete(verification)
    .where(and(eq(verification.identifier, identifier), gt(verification.expiresAt, sql`now()`)))
    .returning({ id: verification.id });
  if (!used) return null;
  if (kind === "customer") await claimMailbox(stored.userId);
  return stored.userId;
}

/**
 * A customer's code proves the mailbox. An account whose email was never confirmed may have been
 * registered by someone else with that address, to read what its owner sends later (and, once
 * confirmed, the owner's earlier requests). So on that account the first code ends every session and
 * API token, removes the password chosen at registration (the owner can choose one with «¿Olvidó su
 * contraseña?») and confirms the email, which links the earlier requests (docs/decisions/0086).
 * Nothing changes on an account already confirmed.
 */
async function claimMailbox(userId: string): Promise<void> {
  const claimed = await getDb().transaction(async (tx) => {
    const [row] = await tx
      .update(user)
      .set({ emailVerified: true, updatedAt: new Date() })
      .where(and(eq(user.id, userId), eq(user.emailVerified, false)))
      .returning({ id: user.id, email: user.email });
    if (!row) return null;
    await tx.delete(session).where(eq(session.userId, userId));
    await tx.delete(account).where(and(eq(account.userId, userId), eq(account.providerId, "credential")));
    return row;
  });
  if (claimed) await emailConfirmed(claimed);
}

/**
 * Opens a better-auth session for an account that has proven itself (a code, or password and code):
 * the Set-Cookie lines and `set-auth-token` header a password sign-in answers.
 */
export async function openProvenSession(meta: RequestMeta, userId: string): Promise<Headers | null> {
  const grant = randomBytes(32).toString("base64url");
  await getDb().insert(verification).values({ id: randomUUID(), identifier: `${GRANT_PREFIX}${grant}`, value: userId, expiresAt: new Date(Date.now() + GRANT_SECONDS * 1000) });
  try {
    const { headers } = await getAuth().api.signInWithGrant({ body: { grant }, headers: forwardHeaders(meta), returnHeaders: true });
    return headers;
  } catch (error) {
    // better-auth refuses a blocked account (or one deleted meanwhile) with an APIError: no session.
    if (isAPIError(error)) return null;
    throw error;
  }
}
