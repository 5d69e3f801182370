import { describe, expect, it, vi } from "vitest";

// Integration tests of better-auth's HTTP API as API clients reach it.
// The accounts kit: environment (set before the app reads it) in tests/support/feature-test-env,
// database in tests/support/test-file-database, sign-in helpers in tests/support/auth-requests.
const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/feature-test-env")).isolateAccountsTestEnv("accounts-auth-api"));

import { eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { session } from "~/db/schema/auth";
import { ACCOUNT_SIGN_IN_RULE } from "~/services/security/account-limit.server";
import { RATE_LIMITS } from "~/services/security/rate-limit.server";
import { nextTestIp, registerTestCustomer as register, requestMeta, SESSION_COOKIE, TEST_PASSWORD as PASSWORD, uniqueEmail } from "../../../tests/support/auth-requests";
import { getSessionUser } from "./accounts.server";
import { handleAuthRequest } from "./auth-api.server";
import { useTestFileDatabase } from "../../../tests/support/test-file-database";

useTestFileDatabase(dataDir);

describe("handleAuthRequest (better-auth's HTTP API for API clients)", () => {
  function apiSignIn(body: object, ip: string, headers: Record<string, string> = {}) {
    return handleAuthRequest(
      new Request("http://localhost/api/sesion/sign-in/email", {
        method: "POST",
        headers: { "content-type": "application/json", origin: "http://localhost:3000", ...headers },
        body: JSON.stringify(body),
      }),
      ip,
    );
  }

  it("signs in over HTTP with the trusted IP, ignoring a spoofed client-IP header", async () => {
    const { email, user: customer } = await register("api");
    const response = await apiSignIn({ email, password: PASSWORD }, "198.51.100.4", { "x-forja-client-ip": "6.6.6.6" });
    expect(response.status).toBe(200);
    const token = response.headers.get("set-auth-token");
    expect(token).toBeTruthy();
    expect(response.headers.getSetCookie().some((line) => line.startsWith(`${SESSION_COOKIE}=`))).toBe(true);
    expect((await getSessionUser(requestMeta("/api/users/me", { authorization: `Bearer ${token}` })))?.id).toBe(customer.id);
    const rows = await getDb().select({ ip: session.ipAddress }).from(session).where(eq(session.userId, customer.id));
    expect(rows.map((row) => row.ip)).toContain("198.51.100.4");
    expect(rows.map((row) => row.ip)).not.toContain("6.6.6.6");
  });

  it("rate-limits sign-in attempts per IP with a Spanish 429 and Retry-After", async () => {
    const ip = nextTestIp();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < RATE_LIMITS.signIn.limit; attempt += 1) {
      statuses.push((await apiSignIn({ email: uniqueEmail("limite"), password: "No-Existe-1234" }, ip)).status);
    }
    expect(statuses.every((status) => status === 401)).toBe(true);
    const limited = await apiSignIn({ email: uniqueEmail("limite"), password: "No-Existe-1234" }, ip);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await limited.json()).toMatchObject({ code: 429, message: expect.stringMatching(/^Demasiados intentos/) });
    // Another address is not affected.
    expect((await apiSignIn({ email: uniqueEmail("limite"), password: "No-Existe-1234" }, nextTestIp())).status).toBe(401);
  });

  it("counts a sign-in against its account however the body is padded, and refuses a body it cannot read", async () => {
    const email = uniqueEmail("relleno");
    const padding = "x".repeat(200 * 1024);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < ACCOUNT_SIGN_IN_RULE.limit + 1; attempt += 1) {
      statuses.push((await apiSignIn({ email, password: "No-Existe-1234", relleno: padding }, nextTestIp())).status);
    }
    expect(statuses).toEqual([...Array.from({ length: ACCOUNT_SIGN_IN_RULE.limit }, () => 401), 429]);
    const garbage = await handleAuthRequest(
      new Request("http://localhost/api/sesion/sign-in/email", { method: "POST", headers: { "content-type": "application/json", origin: "http://localhost:3000" }, body: "{no es json" }),
      nextTestIp(),
    );
    expect(garbage.status).toBe(400);
  });

  function post(endpoint: string, body: object, headers: Record<string, string> = {}) {
    return handleAuthRequest(
      new Request(`http://localhost/api/sesion/${endpoint}`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: "http://localhost:3000", ...headers },
        body: JSON.stringify(body),
      }),
      nextTestIp(),
    );
  }

  it("applies the screens' rules to what its endpoints would store: a common password, a name with line breaks, NUL", async () => {
    const common = await post("sign-up/email", { email: uniqueEmail("comun"), password: "12345678", name: "Ana Ruiz" });
    expect(common.status).toBe(400);
    expect(await common.json()).toEqual({ code: 400, message: "Esa contraseña es de las más usadas y fáciles de adivinar. Elija otra." });

    const empty = await post("sign-up/email", { email: uniqueEmail("vacio"), password: "Clave-larga-cliente-1", name: "" });
    expect(empty.status).toBe(400);
    expect((await empty.json()).message).toBe("Escriba su nombre completo.");

    const { cookie } = await register("api-perfil");
    const header = await post("update-user", { name: "Ana\r\nBcc: otra@ejemplo.mx" }, { cookie });
    expect(header.status).toBe(400);
    expect((await header.json()).message).toBe("El nombre no puede llevar saltos de línea ni caracteres de control.");
    const huge = await post("update-user", { name: "A".repeat(500_000) }, { cookie });
    expect(huge.status).toBe(400);

    for (const [endpoint, body] of [
      ["update-user", { name: "A\u0000B" }],
      ["reset-password", { token: "a\u0000b", newPassword: "Clave-larga-cliente-1" }],
    ] as const) {
      const nul = await post(endpoint, body, { cookie });
      expect(nul.status, endpoint).toBe(400);
      expect((await nul.json()).message).toMatch(/sin caracteres nulos/);
    }
    const weak = await post("change-password", { currentPassword: PASSWORD, newPassword: "12345678" }, { cookie });
    expect(weak.status).toBe(400);

    // What follows the rules still goes through.
    const renamed = await post("update-user", { name: "Ana Ruiz Pérez" }, { cookie });
    expect(renamed.status).toBe(200);
    const signedUp = await post("sign-up/email", { email: uniqueEmail("valida"), password: "Clave-larga-cliente-1", name: "Ana Ruiz" });
    expect(signedUp.status).toBe(200);
  });

  it("lists a user's sessions without their tokens: one session's holder cannot take the others", async () => {
    const { email, user: customer } = await register("sesiones");
    const first = await apiSignIn({ email, password: PASSWORD }, nextTestIp());
    const second = await apiSignIn({ email, password: PASSWORD }, nextTestIp());
    const firstToken = first.headers.get("set-auth-token")!;
    const secondToken = second.headers.get("set-auth-token")!;
    expect(firstToken && secondToken).toBeTruthy();

    const listed = await handleAuthRequest(new Request("http://localhost/api/sesion/list-sessions", { headers: { authorization: `Bearer ${firstToken}` } }), nextTestIp());
    expect(listed.status).toBe(200);
    expect(listed.headers.get("cache-control")).toBe("private, no-store");
    const text = await listed.text();
    const sessions = JSON.parse(text) as Record<string, unknown>[];
    const ids = (await getDb().select({ id: session.id }).from(session).where(eq(session.userId, customer.id))).map((row) => row.id);
    expect(sessions.map((entry) => entry.id).sort()).toEqual([...ids].sort());
    expect(sessions.length).toBeGreaterThanOrEqual(2);
    for (const entry of sessions) {
      expect(entry).not.toHaveProperty("token");
      expect(entry).toMatchObject({ userId: customer.id, expiresAt: expect.any(String) });
    }
    expect(text).not.toContain(secondToken);
    expect(text).not.toContain(firstToken);

    // The others still end from the first, without knowing their tokens.
    const revoked = await handleAuthRequest(
      new Request("http://localhost/api/sesion/revoke-other-sessions", { method: "POST", headers: { authorization: `Bearer ${firstToken}`, "content-type": "application/json", origin: "http://localhost:3000" }, body: "{}" }),
      nextTestIp(),
    );
    expect(revoked.status).toBe(200);
    expect(await getSessionUser(requestMeta("/api/users/me", { authorization: `Bearer ${secondToken}` }))).toBeNull();
    expect((await getSessionUser(requestMeta("/api/users/me", { authorization: `Bearer ${firstToken}` })))?.id).toBe(customer.id);

    // Without a session there is no list, as before.
    expect((await handleAuthRequest(new Request("http://localhost/api/sesion/list-sessions"), nextTestIp())).status).toBe(401);
  });
});
