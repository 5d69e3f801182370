import { createHash } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { getDatabase, getDb, type DbTransaction } from "~/db/client.server";
import { writeWithoutFlush } from "~/db/group-commit.server";
import { rateLimits } from "~/db/schema/security";
import { getSettings } from "~/services/settings/settings.server";
import { defaultRateLimit, type RateLimitLabel } from "./rate-limit-settings";

export interface RateLimitRule {
  /** Requests allowed per window. */
  limit: number;
  windowMs: number;
  /** A limit staff set in the settings' `rateLimits` (0065): its numbers there win over these. */
  label?: RateLimitLabel;
  /**
   * Counts per account, not per address: kept in the database on PGlite too, where no flood of
   * other keys can push a lock-out out of memory (docs/decisions/0079).
   */
  perAccount?: true;
}

export interface RateLimitResult {
  allowed: boolean;
  remaining: number;
  /** Seconds until the window resets; for Retry-After. */
  retryAfterSeconds: number;
}

/**
 * Counts one request against `key` in a fixed window.
 * - On a PostgreSQL server: one atomic upsert, so every process that shares the database shares the
 *   counter (inside a `withTransaction` scope it joins the caller's transaction).
 * - On PGlite, per address: in this process's memory. PGlite's files belong to one process, so that
 *   process sees every request and its count is exact; in the database each count cost a
 *   transaction of its own (four statements through the one connection), two per stored form
 *   (docs/decisions/0079). A restart forgets the windows, which loosens a limit for at most one
 *   window, as a crash before the next commit did when these counts committed without waiting for
 *   the disk (0075).
 * - On PGlite, per account (`perAccount`): in the database, in a transaction that commits without
 *   waiting for the disk (0075; inside a `withTransaction` scope it joins the caller's).
 * A key longer than KEY_CHARS (an e-mail address nobody has) is counted under its sha256.
 */
export async function consumeRateLimit(key: string, given: RateLimitRule, now = Date.now()): Promise<RateLimitResult> {
  const rule = await ruleInEffect(given);
  if (!rule) return { allowed: true, remaining: given.limit, retryAfterSeconds: 0 };
  const counted = boundedKey(key);
  const window = inMemory(rule) ? memory.count(counted, rule, now) : await writeWithoutFlush((db) => countRequest(db, counted, rule, now));
  const count = window?.count ?? 1;
  const startedAt = window?.windowStartedAt ?? now;
  return {
    allowed: count <= rule.limit,
    remaining: Math.max(0, rule.limit - count),
    retryAfterSeconds: Math.max(1, Math.ceil((startedAt + rule.windowMs - now) / 1000)),
  };
}

interface CountedWindow {
  count: number;
  windowStartedAt: number;
  /** When this window ends: past it the entry can go. */
  endsAt: number;
}

/**
 * Fixed-window counters in memory, by key, oldest window first (a new window moves its key to the
 * end). Past `maxKeys` keys (a flood of addresses), ended windows are swept, then the oldest windows
 * dropped until a tenth is free: each drop loosens that one key's limit, memory stays bounded.
 */
export class MemoryWindows {
  private readonly windows = new Map<string, CountedWindow>();
  constructor(private readonly maxKeys: number) {}

  count(key: string, rule: RateLimitRule, now: number): CountedWindow {
    let window = this.windows.get(key);
    if (!window || window.windowStartedAt <= now - rule.windowMs) {
      this.windows.delete(key);
      window = { count: 0, windowStartedAt: now, endsAt: now + rule.windowMs };
      this.windows.set(key, window);
      if (this.windows.size > this.maxKeys) this.sweep(now);
    }
    window.count += 1;
    return window;
  }

  counted(key: string): number {
    return this.windows.get(key)?.count ?? 0;
  }

  forget(key: string): void {
    this.windows.delete(key);
  }

  get size(): number {
    return this.windows.size;
  }

  private sweep(now: number): void {
    for (const [key, window] of this.windows) if (window.endsAt <= now) this.windows.delete(key);
    for (const key of this.windows.keys()) {
      if (this.windows.size <= this.maxKeys * 0.9) break;
      this.windows.delete(key);
    }
  }
}

/** PGlite's per-address counters: 100 000 keys of at most KEY_CHARS, some 30 MB at most. */
const memory = new MemoryWindows(100_000);

/** Longer keys are counted under their sha256 (a key is an address or an e-mail with its scope). */
export const KEY_CHARS = 200;

function boundedKey(key: string): string {
  return key.length <= KEY_CHARS ? key : `sha256:${createHash("sha256").update(key).digest("base64url")}`;
}

/** Whether `rule` counts in this process's memory: on PGlite, unless it counts per account. */
function inMemory(rule: RateLimitRule): boolean {
  return getDatabase().kind === "pglite" && !rule.perAccount;
}

/** Requests counted against `key` in its current window, wherever the counter lives (0 if none). */
export async function countedRequests(key: string): Promise<number> {
  const counted = boundedKey(key);
  const inProcess = getDatabase().kind === "pglite" ? memory.counted(counted) : 0;
  if (inProcess > 0) return inProcess;
  const [row] = await getDb().select({ count: rateLimits.count }).from(rateLimits).where(eq(rateLimits.key, counted));
  return row?.count ?? 0;
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
  return set ? { ...rule, limit: set.maxRequests, windowMs: set.duration * 1000 } : rule;
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
  const counted = boundedKey(key);
  if (getDatabase().kind === "pglite") memory.forget(counted);
  await getDb().delete(rateLimits).where(eq(rateLimits.key, counted));
}
