import { describe, expect, it } from "vitest";
import { HONEYPOT_FIELD } from "~/lib/honeypot";
import { setupTestDatabase } from "../../../tests/support/test-database";
import { checkPublicForm } from "./form-guard.server";

// The honeypot and per-IP limit every public form runs first, on the real database.

setupTestDatabase();

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
}

let ipCounter = 0;
const freshIp = () => `192.0.2.${++ipCounter}`;
const rule = { limit: 3, windowMs: 10 * 60_000 };

describe("checkPublicForm", () => {
  it("lets a normal solicitud through", async () => {
    expect(await checkPublicForm(form({ email: "a@b.mx", [HONEYPOT_FIELD]: "" }), { scope: "contacto", ip: freshIp(), rule })).toBeNull();
    expect(await checkPublicForm(form({ email: "a@b.mx" }), { scope: "contacto", ip: freshIp(), rule })).toBeNull();
    expect(await checkPublicForm(form({ [HONEYPOT_FIELD]: "   " }), { scope: "contacto", ip: freshIp(), rule })).toBeNull();
  });

  it("refuses a filled honeypot with 400 and a Spanish message", async () => {
    const result = await checkPublicForm(form({ email: "bot@spam.mx", [HONEYPOT_FIELD]: "https://spam.example" }), { scope: "contacto", ip: freshIp(), rule });
    expect(result).toEqual({
      status: 400,
      message: "No pudimos procesar el formulario. Si usa un programa que llena formularios, desactívelo e intente de nuevo.",
    });
  });

  it("answers 429 with Retry-After once an IP is over the limit, per scope and per IP", async () => {
    const ip = freshIp();
    for (let i = 0; i < rule.limit; i += 1) expect(await checkPublicForm(form({}), { scope: "registro", ip, rule })).toBeNull();
    const limited = await checkPublicForm(form({}), { scope: "registro", ip, rule });
    expect(limited?.status).toBe(429);
    expect(limited?.message).toMatch(/^Demasiados intentos desde su conexión\. Espere (un minuto|\d+ minutos) e inténtelo de nuevo\.$/);
    const retryAfter = Number(limited?.headers?.["Retry-After"]);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(rule.windowMs / 1000);

    expect(await checkPublicForm(form({}), { scope: "login", ip, rule })).toBeNull();
    expect(await checkPublicForm(form({}), { scope: "registro", ip: freshIp(), rule })).toBeNull();
  });

  it("does not count a honeypot hit against the limit", async () => {
    const ip = freshIp();
    for (let i = 0; i < rule.limit + 2; i += 1) {
      expect((await checkPublicForm(form({ [HONEYPOT_FIELD]: "x" }), { scope: "contacto", ip, rule }))?.status).toBe(400);
    }
    expect(await checkPublicForm(form({}), { scope: "contacto", ip, rule })).toBeNull();
  });

  it("shares one bucket for requests without a known IP", async () => {
    const scope = `sin-ip-${process.pid}`;
    for (let i = 0; i < rule.limit; i += 1) expect(await checkPublicForm(form({}), { scope, ip: "", rule })).toBeNull();
    expect((await checkPublicForm(form({}), { scope, ip: "", rule }))?.status).toBe(429);
  });
});
