import fs from "node:fs";
import { afterAll, describe, expect, it, vi } from "vitest";

// The one guard every public form and sign-in screen runs first, on the real database: honeypot,
// one-time token, per-IP limit, and one set of Spanish messages.
const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("form-guard"));

import { HONEYPOT_FIELD } from "~/lib/honeypot";
import { setupTestDatabase } from "../../../tests/support/test-database";
import { FORM_GUARD_MESSAGES, guardPublicForm, readFormData } from "./form-guard.server";
import { issueFormToken, MIN_FILL_MS } from "./form-token.server";

setupTestDatabase();
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
}

let ipCounter = 0;
const freshIp = () => `192.0.2.${++ipCounter}`;
const rule = { limit: 3, windowMs: 10 * 60_000 };
const passed = { ok: true, value: { tooFast: false, token: "" } };

describe("guardPublicForm", () => {
  it("lets a person's form through", async () => {
    expect(await guardPublicForm(form({ email: "a@b.mx", [HONEYPOT_FIELD]: "" }), { scope: "contacto", ip: freshIp(), rule })).toEqual(passed);
    expect(await guardPublicForm(form({ email: "a@b.mx" }), { scope: "contacto", ip: freshIp(), rule })).toEqual(passed);
    expect(await guardPublicForm(form({ [HONEYPOT_FIELD]: "   " }), { scope: "contacto", ip: freshIp(), rule })).toEqual(passed);
  });

  it("refuses a filled honeypot as invalid, with the bot message", async () => {
    const result = await guardPublicForm(form({ email: "bot@spam.mx", [HONEYPOT_FIELD]: "https://spam.example" }), { scope: "contacto", ip: freshIp(), rule });
    expect(result).toEqual({ ok: false, kind: "invalid", fieldErrors: {}, formErrors: [FORM_GUARD_MESSAGES.bot] });
  });

  it("answers 'limited' with the seconds to wait once an IP is over the limit, per scope and per IP", async () => {
    const ip = freshIp();
    for (let i = 0; i < rule.limit; i += 1) expect((await guardPublicForm(form({}), { scope: "registro", ip, rule })).ok).toBe(true);
    const refused = await guardPublicForm(form({}), { scope: "registro", ip, rule });
    expect(refused.ok).toBe(false);
    if (refused.ok || refused.kind !== "limited") throw new Error(`expected a limit, got ${JSON.stringify(refused)}`);
    expect(refused.message).toMatch(/^Demasiados intentos desde su conexión\. Espere (un minuto|\d+ minutos) e inténtelo de nuevo\.$/);
    expect(refused.retryAfterSeconds).toBeGreaterThan(0);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(rule.windowMs / 1000);

    expect((await guardPublicForm(form({}), { scope: "login", ip, rule })).ok).toBe(true);
    expect((await guardPublicForm(form({}), { scope: "registro", ip: freshIp(), rule })).ok).toBe(true);
  });

  it("does not count a honeypot hit against the limit", async () => {
    const ip = freshIp();
    for (let i = 0; i < rule.limit + 2; i += 1) {
      expect(await guardPublicForm(form({ [HONEYPOT_FIELD]: "x" }), { scope: "contacto", ip, rule })).toMatchObject({ ok: false, kind: "invalid" });
    }
    expect((await guardPublicForm(form({}), { scope: "contacto", ip, rule })).ok).toBe(true);
  });

  it("shares one bucket for requests without a known IP", async () => {
    const scope = `sin-ip-${process.pid}`;
    for (let i = 0; i < rule.limit; i += 1) expect((await guardPublicForm(form({}), { scope, ip: "", rule })).ok).toBe(true);
    expect(await guardPublicForm(form({}), { scope, ip: "", rule })).toMatchObject({ ok: false, kind: "limited" });
  });

  it("checks the form's token: expired or forged → the expired message; too fast → passed, marked", async () => {
    const ip = freshIp();
    const guard = { scope: "cotiza-token", ip, rule, token: { form: "cotiza" } };
    const old = issueFormToken("cotiza", Date.now() - 2 * MIN_FILL_MS);
    expect(await guardPublicForm(form({ formToken: old }), guard)).toEqual({ ok: true, value: { tooFast: false, token: old } });

    const expired = { ok: false, kind: "invalid", fieldErrors: {}, formErrors: [FORM_GUARD_MESSAGES.expired] };
    expect(await guardPublicForm(form({ formToken: issueFormToken("cotiza", Date.now() - 25 * 60 * 60 * 1000) }), guard)).toEqual(expired);
    expect(await guardPublicForm(form({ formToken: issueFormToken("contacto", Date.now() - 2 * MIN_FILL_MS) }), guard)).toEqual(expired);
    expect(await guardPublicForm(form({}), guard)).toEqual(expired);

    const fresh = issueFormToken("cotiza");
    expect(await guardPublicForm(form({ formToken: fresh }), guard)).toEqual({ ok: true, value: { tooFast: true, token: fresh } });
  });

  it("answers a form sent too fast and over the limit as a bot, not with the wait", async () => {
    const ip = freshIp();
    const guard = { scope: "cotiza-rapida", ip, rule, token: { form: "cotiza" } };
    for (let i = 0; i < rule.limit; i += 1) expect((await guardPublicForm(form({ formToken: issueFormToken("cotiza") }), guard)).ok).toBe(true);
    expect(await guardPublicForm(form({ formToken: issueFormToken("cotiza") }), guard)).toMatchObject({ ok: false, kind: "invalid", formErrors: [FORM_GUARD_MESSAGES.bot] });
  });

  it("reads a form body, or null when the body is not one", async () => {
    const body = new URLSearchParams({ email: "a@b.mx" });
    const good = await readFormData(new Request("http://localhost/x", { method: "POST", body, headers: { "Content-Type": "application/x-www-form-urlencoded" } }));
    expect(good?.get("email")).toBe("a@b.mx");
    const bad = await readFormData(new Request("http://localhost/x", { method: "POST", body: "{}", headers: { "Content-Type": "multipart/form-data; boundary=x" } }));
    expect(bad).toBeNull();
  });
});
