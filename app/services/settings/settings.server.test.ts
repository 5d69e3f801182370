import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { getDb } from "~/db/client.server";
import { setupTestDatabaseWithChangeFeed } from "../../../tests/support/test-database";
import { DEFAULT_SETTINGS, isCronExpression } from "./settings-schema";
import { environmentOverrides, getSettings, patchSettings, settingsView } from "./settings.server";

// The technical settings on a real database with the change feed listening, as on the server
// (issue 17 §3, docs/decisions/0057): defaults, a PATCH merged field by field, secrets written but
// never answered and kept when omitted, Spanish validation, the environment winning, and a change
// made by another process (a row written behind this one's back) seen on the next read.

setupTestDatabaseWithChangeFeed();
afterEach(() => {
  vi.unstubAllEnvs();
});

async function until(check: () => Promise<boolean>): Promise<void> {
  for (const deadline = Date.now() + 5_000; !(await check()); ) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("settings", () => {
  it("starts from the defaults and merges a PATCH field by field", async () => {
    vi.stubEnv("SMTP_URL", "");
    vi.stubEnv("PUBLIC_URL", "");
    vi.stubEnv("MAIL_FROM", "");
    vi.stubEnv("LOGS_MAX_DAYS", "");
    expect(await getSettings()).toEqual(DEFAULT_SETTINGS);
    const patched = await patchSettings({ logs: { maxDays: 30 }, meta: { senderName: "Ventas Forja" } });
    expect(patched.ok).toBe(true);
    const settings = await getSettings();
    expect(settings.logs.maxDays).toBe(30);
    expect(settings.meta).toEqual({ ...DEFAULT_SETTINGS.meta, senderName: "Ventas Forja" });
    expect(settings.backups).toEqual(DEFAULT_SETTINGS.backups);
  });

  it("writes a secret but never answers it, and keeps it when a PATCH leaves it out or empty", async () => {
    vi.stubEnv("SMTP_URL", "");
    expect((await patchSettings({ smtp: { enabled: true, host: "smtp.forja.example", port: 465, username: "ventas", password: "Secreto-Correo-1", tls: true } })).ok).toBe(true);
    const view = (await settingsView()) as { smtp: Record<string, unknown> };
    expect(view.smtp).toMatchObject({ enabled: true, host: "smtp.forja.example", port: 465, username: "ventas" });
    expect(view.smtp).not.toHaveProperty("password");
    expect(JSON.stringify(view)).not.toContain("Secreto-Correo-1");
    expect((await patchSettings({ smtp: { port: 587 } })).ok).toBe(true);
    expect((await getSettings()).smtp.password).toBe("Secreto-Correo-1");
    expect((await patchSettings({ smtp: { password: "" } })).ok).toBe(true);
    expect((await getSettings()).smtp.password).toBe("Secreto-Correo-1");
    expect((await patchSettings({ smtp: { password: "Otro-Secreto-2" } })).ok).toBe(true);
    expect((await getSettings()).smtp.password).toBe("Otro-Secreto-2");
  });

  it("refuses bad values with Spanish messages per field and keeps what was stored", async () => {
    const before = await getSettings();
    const refused = await patchSettings({ smtp: { port: 70_000 }, backups: { cron: "cada día" }, meta: { senderAddress: "no-es-correo" } });
    expect(refused.ok).toBe(false);
    if (refused.ok || refused.kind !== "invalid") throw new Error("expected invalid");
    expect(refused.fieldErrors["smtp.port"]).toEqual(["El puerto va de 1 a 65535."]);
    expect(refused.fieldErrors["backups.cron"]?.[0]).toMatch(/^Escriba cinco campos de cron en hora UTC/);
    expect(refused.fieldErrors["meta.senderAddress"]?.[0]).toMatch(/^Escriba un correo válido/);
    expect(await getSettings()).toEqual(before);
    expect((await patchSettings("texto")).ok).toBe(false);
    expect((await patchSettings([1, 2])).ok).toBe(false);
  });

  it("lets the environment win: the value shown is the variable's, and changing it is refused naming the variable", async () => {
    vi.stubEnv("SMTP_URL", "smtp://usuario:clave@correo.forja.example:2525");
    vi.stubEnv("LOGS_MAX_DAYS", "14");
    const { fixed } = environmentOverrides();
    expect(fixed).toMatchObject({ smtp: "SMTP_URL", "logs.maxDays": "LOGS_MAX_DAYS" });
    const settings = await getSettings();
    expect(settings.smtp).toMatchObject({ enabled: true, host: "correo.forja.example", port: 2525, username: "usuario" });
    expect(settings.logs.maxDays).toBe(14);
    const view = (await settingsView()) as { fixedByEnvironment: Record<string, string>; smtp: Record<string, unknown> };
    expect(view.fixedByEnvironment).toMatchObject({ smtp: "SMTP_URL", "logs.maxDays": "LOGS_MAX_DAYS" });
    expect(JSON.stringify(view)).not.toContain("clave");
    // Sending back what is shown is fine (a settings screen posts the whole form); changing it is not.
    expect((await patchSettings({ logs: { maxDays: 14 }, smtp: { host: "correo.forja.example" } })).ok).toBe(true);
    const refused = await patchSettings({ logs: { maxDays: 3 } });
    if (refused.ok || refused.kind !== "invalid") throw new Error("expected invalid");
    expect(refused.fieldErrors["logs.maxDays"]).toEqual(["Este valor lo fija la variable de entorno LOGS_MAX_DAYS: cámbielo ahí."]);
  });

  it("sees a change another process made on its next read (the change feed's 'sistema' topic)", async () => {
    vi.stubEnv("LOGS_MAX_DAYS", "");
    await getSettings();
    // Another process's PATCH: a row written outside this module, announced by the table's trigger.
    await getDb().execute(sql`update system_settings set value = jsonb_set(value, '{logs,maxDays}', '90') where key = 'settings'`);
    await until(async () => (await getSettings()).logs.maxDays === 90);
  });

  it("knows a cron expression when it sees one", () => {
    for (const good of ["", "0 3 * * *", "*/15 * * * *", "0 0 1,15 * 1-5"]) expect(isCronExpression(good), good).toBe(true);
    for (const bad of ["cada día", "0 3 * *", "* * * * * *", "a b c d e"]) expect(isCronExpression(bad), bad).toBe(false);
  });
});
