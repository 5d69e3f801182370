import { eq, sql } from "drizzle-orm";
import { getDatabase, getDb, inTransactionScope, type DbTransaction } from "~/db/client.server";
import { rateLimits } from "~/db/schema/security";
import { getSettings } from "~/services/settings/settings.server";
import { defaultRateLimit, type RateLimitLabel } from "./rate-limit-settings";

export interface RateLimitRule {
  /** Requests allowed per window. */
  limit: number;
  windowMs: number;
  /** A limit staff set in the settings' `rateLimits` (0065): its numbers there win over these. */
  label?: RateLimitLabel;
}

export interface RateLimitResult {
  allowed: boolean;
  remaining: number;
  /** Seconds until the window resets; for Retry-After. */
  retryAfterSeconds: number;
}

/**
 * Counts one request against `key` in a fixed window. One atomic upsert, so every process that
 * shares the database shares the counter. On PGlite, on its own (outside a `withTransaction` scope,
 * where it joins the caller's transaction), it commits without waiting for the disk: a counter is
 * not worth a WAL flush, about a third of its time (docs/decisions/0075). PGlite has no WAL writer,
 * so such a count reaches the disk with the next commit that waits (every other one) or the next
 * checkpoint: a crash can forget the counts since then, which loosens a limit for at most one window
 * and never makes the database inconsistent. On a PostgreSQL server it stays one statement.
 */
export async function consumeRateLimit(key: string, given: RateLimitRule, now = Date.now()): Promise<RateLimitResult> {
  const rule = await ruleInEffect(given);
  if (!rule) return { allowed: true, remaining: given.limit, retryAfterSeconds: 0 };
  const row =
    inTransactionScope() || getDatabase().kind !== "pglite"
      ? await countRequest(getDb() as unknown as DbTransaction, key, rule, now)
      : await getDb().transaction(async (tx) => {
          await tx.execute(sql`set local synchronous_commit = off`);
          return countRequest(tx, key, rule, now);
        });
  const count = row?.count ?? 1;
  const startedAt = row?.windowStartedAt ?? now;
  return {
    allowed: count <= rule.limit,
    remaining: Math.max(0, rule.limit - count),
    retryAfterSeconds: Math.max(1, Math.ceil((startedAt + rule.windowMs - now) / 1000)),
  };
}

/** The upsert itself, on `db` (the database, or a transaction). */
async function countRequest(db: DbTransaction, key: string, rule: RateLimitRule, now: number): Promise<{ count: number; windowStartedAt: number } | undefined> {
  const windowStart = now - rule.windowMs;
  const [row] = await db
    .insert(rateLimits)
    .values({ key, count: 1, windowStartedAt: now })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${rateLimits.windowStartedAt} <= ${windowStart} then 1 else ${rateLimits.count} + 1 end`,
        windowStartedAt: sql`case when ${rateLimits.windowStartedAt} <= ${windowStart} then ${now} else ${rateLimits.windowStartedAt} end`,
      },
    })
    .returning({ count: rateLimits.count, windowStartedAt: rateLimits.windowStartedAt });
  return row;
}

/**
 * A labelled rule as the settings have it now (read from memory in every process, so a PATCH of
 * `rateLimits` applies everywhere at once): null when staff turned the settings' limits off.
 */
async function ruleInEffect(rule: RateLimitRule): Promise<RateLimitRule | null> {
  if (!rule.label) return rule;
  const { rateLimits: settings } = await getSettings();
  if (!settings.enabled) return null;
  const set = settings.rules.find((candidate) => candidate.label === rule.label);
  return set ? { label: rule.label, limit: set.maxRequests, windowMs: set.duration * 1000 } : rule;
}

/** A labelled limit with its default numbers (rate-limit-settings.ts). */
function labelled(label: RateLimitLabel): RateLimitRule {
  const { maxRequests, duration } = defaultRateLimit(label);
  return { label, limit: maxRequests, windowMs: duration * 1000 };
}

/** The limits of the public forms and sign-in screens, per client IP; the settings' `rateLimits` change them. */
export const RATE_LIMITS = {
  signIn: labelled("signIn"),
  register: labelled("register"),
  passwordReset: labelled("passwordReset"),
  adminSignIn: labelled("adminSignIn"),
  publicForm: labelled("publicForm"),
  publicFormAttempts: labelled("publicFormAttempts"),
  oneTimeCode: labelled("oneTimeCode"),
} as const satisfies Record<RateLimitLabel, RateLimitRule>;

export function rateLimitMessage(result: RateLimitResult): string {
  const minutes = Math.ceil(result.retryAfterSeconds / 60);
  return `Demasiados intentos desde su conexión. Espere ${minutes === 1 ? "un minuto" : `${minutes} minutos`} e inténtelo de nuevo.`;
}

/** Forgets `key`'s window (after a sign-in proved the password, or a reset proved the mailbox). */
export async function resetRateLimit(key: string): Promise<void> {
  await getDb().delete(rateLimits).where(eq(rateLimits.key, key));
}
