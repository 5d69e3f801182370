import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDatabase, getDb } from "~/db/client.server";
import { rateLimits } from "~/db/schema/security";
import { setupTestDatabase } from "../../../tests/support/test-database";
import { consumeRateLimit, countedRequests, KEY_CHARS, MemoryWindows, RATE_LIMITS, rateLimitMessage, resetRateLimit } from "./rate-limit.server";

// Fixed-window counters on the real database: in the process's memory on PGlite, in the
// rate_limits table on PostgreSQL (TEST_DATABASE_URL; docs/decisions/0079). Every test uses its own
// key; the clock is passed explicitly.

setupTestDatabase();

let keyCounter = 0;
const freshKey = (label: string) => `${label}:${process.pid}:${++keyCounter}`;
const T0 = Date.UTC(2026, 5, 1, 12, 0, 0);

const storedCount = countedRequests;

describe("consumeRateLimit", () => {
  it("counts per key and refuses above the limit with the seconds left in the window", async () => {
    const key = freshKey("login");
    const rule = { limit: 3, windowMs: 60_000 };
    const results = [];
    for (let i = 0; i < 5; i += 1) results.push(await consumeRateLimit(key, rule, T0 + i * 1_000));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false, false]);
    expect(results.map((r) => r.remaining)).toEqual([2, 1, 0, 0, 0]);
    expect(results[0].retryAfterSeconds).toBe(60);
    expect(results[3].retryAfterSeconds).toBe(57);
    expect(results[4].retryAfterSeconds).toBe(56);
    expect(await storedCount(key)).toBe(5);
  });

  it("starts a new window once the old one has passed", async () => {
    const key = freshKey("window");
    const rule = { limit: 2, windowMs: 10 * 60_000 };
    await consumeRateLimit(key, rule, T0);
    await consumeRateLimit(key, rule, T0 + 1);
    const blocked = await consumeRateLimit(key, rule, T0 + rule.windowMs - 1);
    expect(blocked).toEqual({ allowed: false, remaining: 0, retryAfterSeconds: 1 });

    const fresh = await consumeRateLimit(key, rule, T0 + rule.windowMs);
    expect(fresh).toEqual({ allowed: true, remaining: 1, retryAfterSeconds: 600 });
    expect(await storedCount(key)).toBe(1);
    expect((await consumeRateLimit(key, rule, T0 + rule.windowMs + 5_000)).allowed).toBe(true);
    expect((await consumeRateLimit(key, rule, T0 + rule.windowMs + 6_000)).allowed).toBe(false);
  });

  it("keeps different keys independent", async () => {
    const a = freshKey("a");
    const b = freshKey("b");
    const rule = { limit: 1, windowMs: 60_000 };
    expect((await consumeRateLimit(a, rule, T0)).allowed).toBe(true);
    expect((await consumeRateLimit(a, rule, T0)).allowed).toBe(false);
    expect((await consumeRateLimit(b, rule, T0)).allowed).toBe(true);
    expect(await storedCount(a)).toBe(2);
    expect(await storedCount(b)).toBe(1);
  });

  it("counts concurrent calls exactly (one atomic upsert each)", async () => {
    const key = freshKey("concurrent");
    const rule = { limit: 15, windowMs: 60_000 };
    const results = await Promise.all(Array.from({ length: 20 }, () => consumeRateLimit(key, rule, T0)));
    expect(await storedCount(key)).toBe(20);
    expect(results.filter((r) => r.allowed)).toHaveLength(15);
    expect(results.filter((r) => !r.allowed)).toHaveLength(5);
    // Each call saw its own count: the remaining values 14…0 each appear once among the allowed.
    expect(results.filter((r) => r.allowed).map((r) => r.remaining).sort((x, y) => x - y)).toEqual(Array.from({ length: 15 }, (_, i) => i));
  });

  it("counts concurrent calls on a fresh key and across a window reset exactly", async () => {
    const key = freshKey("concurrent-reset");
    const rule = { limit: 100, windowMs: 1_000 };
    await Promise.all(Array.from({ length: 7 }, () => consumeRateLimit(key, rule, T0)));
    expect(await storedCount(key)).toBe(7);
    await Promise.all(Array.from({ length: 20 }, () => consumeRateLimit(key, rule, T0 + 5_000)));
    expect(await storedCount(key)).toBe(20);
  });

  it("forgets a key's window on reset, and keeps the count where every process of the database sees it", async () => {
    const key = freshKey("reset");
    const rule = { limit: 2, windowMs: 60_000 };
    await consumeRateLimit(key, rule, T0);
    await consumeRateLimit(key, rule, T0 + 1);
    expect((await consumeRateLimit(key, rule, T0 + 2)).allowed).toBe(false);
    const [row] = await getDb().select({ count: rateLimits.count }).from(rateLimits).where(eq(rateLimits.key, key));
    // PGlite's files belong to one process: its memory sees every request. A server is shared.
    expect(row?.count).toBe(getDatabase().kind === "pglite" ? undefined : 3);
    await resetRateLimit(key);
    expect(await storedCount(key)).toBe(0);
    expect(await consumeRateLimit(key, rule, T0 + 3)).toEqual({ allowed: true, remaining: 1, retryAfterSeconds: 60 });
  });

  it("keeps a per-account count in the database on PGlite too, where no flood of other keys can evict it (0079)", async () => {
    const key = freshKey("account-sign-in");
    const rule = { limit: 2, windowMs: 60_000, perAccount: true } as const;
    await consumeRateLimit(key, rule, T0);
    expect((await consumeRateLimit(key, rule, T0 + 1)).remaining).toBe(0);
    const [row] = await getDb().select({ count: rateLimits.count }).from(rateLimits).where(eq(rateLimits.key, key));
    expect(row?.count).toBe(2);
    expect(await storedCount(key)).toBe(2);
    await resetRateLimit(key);
    expect(await storedCount(key)).toBe(0);
  });

  it("counts a key of any length under a bounded one, per address and per account", async () => {
    for (const rule of [{ limit: 2, windowMs: 60_000 }, { limit: 2, windowMs: 60_000, perAccount: true as const }]) {
      const key = `${freshKey("account-sign-in")}:${"a".repeat(1_000_000)}@ejemplo.mx`;
      expect((await consumeRateLimit(key, rule, T0)).remaining).toBe(1);
      expect((await consumeRateLimit(key, rule, T0 + 1)).remaining).toBe(0);
      expect((await consumeRateLimit(key, rule, T0 + 2)).allowed).toBe(false);
      expect(await storedCount(key)).toBe(3);
      const result = (await getDb().execute(sql`select coalesce(max(length(key)), 0)::int as longest from rate_limits`)) as unknown as { rows: { longest: number }[] };
      const longest = result.rows[0]!.longest;
      expect(longest).toBeLessThanOrEqual(KEY_CHARS);
    }
  });

  it("uses the current time by default", async () => {
    const key = freshKey("now");
    const result = await consumeRateLimit(key, { limit: 5, windowMs: 30_000 });
    expect(result).toEqual({ allowed: true, remaining: 4, retryAfterSeconds: 30 });
  });
});

describe("MemoryWindows (PGlite's counters)", () => {
  const minute = { limit: 3, windowMs: 60_000 };
  const hour = { limit: 3, windowMs: 3_600_000 };

  it("sweeps ended windows first when the keys overflow, keeping a live one however old", () => {
    const counters = new MemoryWindows(10);
    for (let i = 0; i < 9; i += 1) counters.count(`corta-${i}`, minute, T0);
    counters.count("larga", hour, T0);
    counters.count("larga", hour, T0 + 1_000);
    expect(counters.size).toBe(10);
    counters.count("nueva", minute, T0 + 61_000);
    expect(counters.size).toBe(2);
    expect(counters.counted("larga")).toBe(2);
    expect(counters.counted("corta-0")).toBe(0);
    expect(counters.counted("nueva")).toBe(1);
  });

  it("drops the oldest windows when a flood of live keys overflows, and stays bounded", () => {
    const counters = new MemoryWindows(10);
    for (let i = 0; i < 1_000; i += 1) {
      counters.count(`ip-${i}`, hour, T0 + i);
      expect(counters.size).toBeLessThanOrEqual(10);
    }
    expect(counters.counted("ip-0")).toBe(0);
    expect(counters.counted("ip-999")).toBe(1);
  });

  it("takes a window that starts again as the newest: dropped after every older one", () => {
    const counters = new MemoryWindows(10);
    for (let i = 0; i < 10; i += 1) counters.count(`ip-${i}`, minute, T0 + i);
    counters.count("ip-0", minute, T0 + 60_000);
    // The eleventh key overflows: none has ended, so the two oldest windows go (down to nine keys).
    counters.count("nueva", hour, T0 + 60_000);
    expect(counters.size).toBe(9);
    expect(["ip-0", "ip-1", "ip-2", "ip-3"].map((key) => counters.counted(key))).toEqual([1, 0, 0, 1]);
  });
});

describe("rateLimitMessage and RATE_LIMITS", () => {
  it.each([
    [1, "Demasiados intentos desde su conexión. Espere un minuto e inténtelo de nuevo."],
    [60, "Demasiados intentos desde su conexión. Espere un minuto e inténtelo de nuevo."],
    [61, "Demasiados intentos desde su conexión. Espere 2 minutos e inténtelo de nuevo."],
    [3_600, "Demasiados intentos desde su conexión. Espere 60 minutos e inténtelo de nuevo."],
  ])("after %i s says %j", (seconds, message) => {
    expect(rateLimitMessage({ allowed: false, remaining: 0, retryAfterSeconds: seconds })).toBe(message);
  });

  it("limits every sign-in and public form screen", () => {
    for (const rule of Object.values(RATE_LIMITS)) {
      expect(rule.limit).toBeGreaterThan(0);
      expect(rule.windowMs).toBeGreaterThanOrEqual(60_000);
    }
    expect(Object.keys(RATE_LIMITS).sort()).toEqual(["adminSignIn", "oneTimeCode", "passwordReset", "publicForm", "publicFormAttempts", "register", "signIn"]);
  });
});
