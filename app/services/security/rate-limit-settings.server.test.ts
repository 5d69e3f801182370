import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { getSettings, patchSettings, settingsView } from "~/services/settings/settings.server";
import { setupTestDatabaseWithChangeFeed } from "../../../tests/support/test-database";
import { DEFAULT_RATE_LIMITS, RATE_LIMIT_LABELS } from "./rate-limit-settings";
import { consumeRateLimit, RATE_LIMITS } from "./rate-limit.server";

// The settings' `rateLimits` section (PocketBase's shape, docs/decisions/0065) on a real database
// with the change feed listening, as on the server: the limiter follows a PATCH at once, a change
// another process wrote on its next read, `enabled: false` turns the limits off, and bad values are
// refused in Spanish.

setupTestDatabaseWithChangeFeed();

let keyCounter = 0;
const freshKey = () => `login:limite-${process.pid}-${++keyCounter}`;
const T0 = Date.UTC(2026, 5, 1, 12, 0, 0);

/** `count` sign-in attempts on one fresh key, a second apart: which were allowed. */
async function attempts(count: number): Promise<boolean[]> {
  const key = freshKey();
  const allowed: boolean[] = [];
  for (let i = 0; i < count; i += 1) allowed.push((await consumeRateLimit(key, RATE_LIMITS.signIn, T0 + i * 1_000)).allowed);
  return allowed;
}

async function until(check: () => Promise<boolean>): Promise<void> {
  for (const deadline = Date.now() + 5_000; !(await check()); ) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("rate limits in the settings", () => {
  it("answers every limit in PocketBase's shape, with Forja's defaults", async () => {
    const view = (await settingsView()) as { rateLimits: typeof DEFAULT_RATE_LIMITS };
    expect(view.rateLimits).toEqual(DEFAULT_RATE_LIMITS);
    expect(view.rateLimits.rules.map((rule) => rule.label)).toEqual([...RATE_LIMIT_LABELS]);
    expect(view.rateLimits.rules.find((rule) => rule.label === "signIn")).toEqual({ label: "signIn", maxRequests: RATE_LIMITS.signIn.limit, duration: RATE_LIMITS.signIn.windowMs / 1000, audience: "" });
    expect(await attempts(RATE_LIMITS.signIn.limit + 1)).toEqual([...Array.from({ length: RATE_LIMITS.signIn.limit }, () => true), false]);
  });

  it("applies a PATCH to the limiter at once; a label left out keeps its default", async () => {
    const patched = await patchSettings({ rateLimits: { rules: [{ label: "signIn", maxRequests: 2, duration: 30, audience: "" }] } });
    expect(patched.ok).toBe(true);
    const settings = await getSettings();
    expect(settings.rateLimits.enabled).toBe(true);
    expect(settings.rateLimits.rules.find((rule) => rule.label === "signIn")).toEqual({ label: "signIn", maxRequests: 2, duration: 30, audience: "" });
    expect(settings.rateLimits.rules.find((rule) => rule.label === "register")).toEqual(DEFAULT_RATE_LIMITS.rules.find((rule) => rule.label === "register"));
    expect(await attempts(3)).toEqual([true, true, false]);
    // The window is the setting's: 30 s after the first attempt the count starts again.
    const key = freshKey();
    await consumeRateLimit(key, RATE_LIMITS.signIn, T0);
    await consumeRateLimit(key, RATE_LIMITS.signIn, T0 + 1_000);
    const refused = await consumeRateLimit(key, RATE_LIMITS.signIn, T0 + 2_000);
    expect(refused).toMatchObject({ allowed: false, retryAfterSeconds: 28 });
    expect((await consumeRateLimit(key, RATE_LIMITS.signIn, T0 + 30_000)).allowed).toBe(true);
  });

  it("turns the listed limits off with enabled: false, and on again", async () => {
    expect((await patchSettings({ rateLimits: { enabled: false } })).ok).toBe(true);
    expect(await attempts(RATE_LIMITS.signIn.limit + 5)).toEqual(Array.from({ length: RATE_LIMITS.signIn.limit + 5 }, () => true));
    expect((await patchSettings({ rateLimits: { enabled: true, rules: [] } })).ok).toBe(true);
    expect((await getSettings()).rateLimits).toEqual(DEFAULT_RATE_LIMITS);
    expect((await attempts(RATE_LIMITS.signIn.limit + 1)).at(-1)).toBe(false);
  });

  it("follows a change another process made (the change feed's 'sistema' topic)", async () => {
    await getSettings();
    const rules = JSON.stringify([{ label: "signIn", maxRequests: 1, duration: 60, audience: "" }]);
    await getDb().execute(sql`update system_settings set value = jsonb_set(value, '{rateLimits}', jsonb_build_object('enabled', true, 'rules', ${rules}::jsonb)) where key = 'settings'`);
    await until(async () => (await getSettings()).rateLimits.rules.find((rule) => rule.label === "signIn")?.maxRequests === 1);
    expect(await attempts(2)).toEqual([true, false]);
    expect((await patchSettings({ rateLimits: { rules: [] } })).ok).toBe(true);
  });

  it("refuses bad rules with Spanish messages and keeps what was stored", async () => {
    const before = await getSettings();
    const cases: [unknown, RegExp][] = [
      [{ enabled: "sí" }, /^Indique sí o no\.$/],
      [{ rules: "todas" }, /^Envíe las reglas como una lista\.$/],
      [{ rules: [{ label: "*:auth", maxRequests: 5, duration: 60 }] }, /^Use una de estas etiquetas: signIn, register/],
      [{ rules: [{ label: "signIn", maxRequests: 0, duration: 60 }] }, /^Permita al menos 1 solicitud\.$/],
      [{ rules: [{ label: "signIn", maxRequests: 2.5, duration: 60 }] }, /^Escriba un número entero de solicitudes\.$/],
      [{ rules: [{ label: "signIn", maxRequests: 5, duration: 86_400 * 8 }] }, /^El periodo dura como máximo 7 días/],
      [{ rules: [{ label: "signIn", maxRequests: 5, duration: 60, audience: "@guest" }] }, /deje «audience» vacío\.$/],
      [
        {
          rules: [
            { label: "signIn", maxRequests: 5, duration: 60 },
            { label: "signIn", maxRequests: 6, duration: 60 },
          ],
        },
        /^Cada límite aparece una sola vez en la lista\.$/,
      ],
    ];
    for (const [rateLimits, message] of cases) {
      const refused = await patchSettings({ rateLimits });
      if (refused.ok || refused.kind !== "invalid") throw new Error(`expected ${JSON.stringify(rateLimits)} to be refused`);
      const messages = Object.entries(refused.fieldErrors).filter(([key]) => key.startsWith("rateLimits"));
      expect(messages.flatMap(([, list]) => list).some((text) => message.test(text)), `${JSON.stringify(rateLimits)}: ${JSON.stringify(refused.fieldErrors)}`).toBe(true);
    }
    expect(await getSettings()).toEqual(before);
  });
});
