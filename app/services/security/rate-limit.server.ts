import { eq, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { rateLimits } from "~/db/schema/security";

export interface RateLimitRule {
  /** Requests allowed per window. */
  limit: number;
  windowMs: number;
}

export interface RateLimitResult {
  allowed: boolean;
  remaining: number;
  /** Seconds until the window resets; for Retry-After. */
  retryAfterSeconds: number;
}

/**
 * Counts one request against `key` in a fixed window. One atomic upsert, so every process that
 * shares the database shares the counter.
 */
export async function consumeRateLimit(key: string, rule: RateLimitRule, now = Date.now()): Promise<RateLimitResult> {
  const windowStart = now - rule.windowMs;
  const [row] = await getDb()
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
  const count = row?.count ?? 1;
  const startedAt = row?.windowStartedAt ?? now;
  return {
    allowed: count <= rule.limit,
    remaining: Math.max(0, rule.limit - count),
    retryAfterSeconds: Math.max(1, Math.ceil((startedAt + rule.windowMs - now) / 1000)),
  };
}

/** The limits of the public forms and sign-in screens, per client IP. */
export const RATE_LIMITS = {
  signIn: { limit: 10, windowMs: 10 * 60_000 },
  register: { limit: 5, windowMs: 60 * 60_000 },
  passwordReset: { limit: 5, windowMs: 60 * 60_000 },
  adminSignIn: { limit: 10, windowMs: 10 * 60_000 },
  publicForm: { limit: 5, windowMs: 10 * 60_000 },
  publicFormAttempts: { limit: 30, windowMs: 10 * 60_000 },
} as const satisfies Record<string, RateLimitRule>;

export function rateLimitMessage(result: RateLimitResult): string {
  const minutes = Math.ceil(result.retryAfterSeconds / 60);
  return `Demasiados intentos desde su conexión. Espere ${minutes === 1 ? "un minuto" : `${minutes} minutos`} e inténtelo de nuevo.`;
}

/** Forgets `key`'s window (after a sign-in proved the password, or a reset proved the mailbox). */
export async function resetRateLimit(key: string): Promise<void> {
  await getDb().delete(rateLimits).where(eq(rateLimits.key, key));
}
