import { describe, expect, it, vi } from "vitest";

// Integration tests of signing in and out (customers and staff), the session's client IP and cookie sizes.
// The accounts kit: environment (set before the app reads it) in tests/support/feature-test-env,
// database in tests/support/test-file-database, sign-in helpers in tests/support/auth-requests.
const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/feature-test-env")).isolateAccountsTestEnv("accounts-sign-in"));

import { eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { session } from "~/db/schema/auth";
import { forbiddenResult, invalid } from "~/lib/result";
import {
  cookieHeaderFrom,
  nextTestIp,
  registerTestCustomer as register,
  requestMeta,
  SESSION_COOKIE,
  sessionCount,
  signedInStaff,
  signInTestCustomer as login,
  TEST_PASSWORD as PASSWORD,
  uniqueEmail,
  whoIs,
} from "../../../tests/support/auth-requests";
import { getSessionUser } from "./accounts.server";
import { signedInHeaders } from "./guards.server";
import { signIn, signInStaff, signOut } from "./sign-in.server";
import { upsertStaffAccount } from "./staff-account.server";
import { useTestFileDatabase } from "../../../tests/support/test-file-database";

useTestFileDatabase(dataDir);

const STAFF_EMAIL = `personal-${process.pid}@forja.mx`;
const STAFF_PASSWORD = "Panel-Forja-Seguro-1";
let staffReady = false;

/** The staff account these tests sign in with, created once. */
async function ensureStaff(): Promise<void> {
  if (staffReady) return;
  await signedInStaff(STAFF_EMAIL, STAFF_PASSWORD);
  staffReady = true;
}

describe("signIn", () => {
  it("signs in with the right password and gives a working session cookie", async () => {
    const { email, user: created } = await register("entrar");
    const { user: signedIn, cookie } = await login(email);
    expect(signedIn.id).toBe(created.id);
    expect((await whoIs(cookie))?.id).toBe(created.id);
  });

  it("answers a wrong password and an unknown email with the same Spanish message", async () => {
    const { email } = await register("incorrecta");
    const wrong = await signIn(requestMeta("/login", { ip: nextTestIp() }), { email, password: "No-Es-La-Clave-1" });
    const unknown = await signIn(requestMeta("/login", { ip: nextTestIp() }), { email: uniqueEmail("nadie"), password: PASSWORD });
    expect(wrong).toEqual(invalid("El correo o la contraseña no son correctos."));
    expect(unknown).toEqual(wrong);
  });

  it("ends the session on signOut", async () => {
    const { cookie } = await register("salir");
    expect(await whoIs(cookie)).not.toBeNull();
    const headers = await signOut(requestMeta("/logout", { cookie, method: "POST" }));
    expect(headers.getSetCookie().some((line) => line.startsWith(`${SESSION_COOKIE}=;`) || /max-age=0/i.test(line))).toBe(true);
    expect(await whoIs(cookie)).toBeNull();
  });

  it("accepts the session token as a bearer token (API clients)", async () => {
    const { email, user: created } = await register("bearer");
    const result = await signIn(requestMeta("/login", { ip: nextTestIp() }), { email, password: PASSWORD });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const token = result.value.headers.get("set-auth-token");
    expect(token).toBeTruthy();
    const current = await getSessionUser(requestMeta("/api/users/me", { authorization: `Bearer ${token}` }));
    expect(current?.id).toBe(created.id);
    expect(await getSessionUser(requestMeta("/api/users/me", { authorization: "Bearer nada.valido" }))).toBeNull();
  });
});

describe("client IP", () => {
  it("records the trusted client IP on the session, never an address header the client sent", async () => {
    const { email, user: customer } = await register("ip");
    const spoofed = { "x-forja-client-ip": "6.6.6.6", "x-forwarded-for": "7.7.7.7", "x-real-ip": "8.8.8.8" };
    const result = await signIn(requestMeta("/login", { ip: "203.0.113.9", headers: spoofed }), { email, password: PASSWORD });
    expect(result.ok).toBe(true);
    const rows = await getDb().select({ ip: session.ipAddress }).from(session).where(eq(session.userId, customer.id));
    expect(rows.map((row) => row.ip)).toContain("203.0.113.9");
    expect(rows.map((row) => row.ip)).not.toContain("6.6.6.6");
    expect(rows.map((row) => row.ip)).not.toContain("7.7.7.7");
  });
});

describe("signInStaff", () => {
  it("refuses a customer with 403 and leaves no session from that attempt", async () => {
    const { email, user: customer } = await register("no-personal");
    const before = await sessionCount(customer.id);
    const result = await signInStaff(requestMeta("/admin/login", { ip: nextTestIp() }), { email, password: PASSWORD });
    expect(result).toEqual(forbiddenResult("Esta cuenta no tiene acceso al panel de administración."));
    expect(await sessionCount(customer.id)).toBe(before);
  });

  it("refuses wrong staff credentials with the generic message", async () => {
    await ensureStaff();
    const result = await signInStaff(requestMeta("/admin/login", { ip: nextTestIp() }), { email: STAFF_EMAIL, password: "Otra-Clave-99" });
    expect(result).toEqual(invalid("El correo o la contraseña no son correctos."));
  });

  it("signs staff in with the admin role", async () => {
    const email = uniqueEmail("admin");
    expect(await upsertStaffAccount({ email, password: STAFF_PASSWORD, name: "Jefa de Taller" })).toBe("created");
    const result = await signInStaff(requestMeta("/admin/login", { ip: nextTestIp() }), { email, password: STAFF_PASSWORD });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.user).toMatchObject({ email, role: "admin", emailVerified: true, name: "Jefa de Taller" });
    expect(await whoIs(cookieHeaderFrom(result.value.headers))).toMatchObject({ email, role: "admin" });
  });
});

describe("cookie sizes", () => {
  it("keeps every cookie from register, sign-in and staff sign-in under 4096 bytes", async () => {
    const longName = "Ñ".repeat(120);
    const { email, headers: registerHeaders } = await register("galleta", { name: longName, company: "C".repeat(160), phone: "+52 55 1234 5678" });
    const signInResult = await signIn(requestMeta("/login", { ip: nextTestIp() }), { email, password: PASSWORD });
    expect(signInResult.ok).toBe(true);
    await ensureStaff();
    const staffResult = await signInStaff(requestMeta("/admin/login", { ip: nextTestIp() }), { email: STAFF_EMAIL, password: STAFF_PASSWORD });
    expect(staffResult.ok).toBe(true);

    const all = [registerHeaders, signInResult.ok ? signInResult.value.headers : new Headers(), staffResult.ok ? staffResult.value.headers : new Headers()];
    const lines = all.flatMap((headers) => signedInHeaders(headers).getSetCookie());
    expect(lines.length).toBeGreaterThanOrEqual(6);
    for (const line of lines) expect(Buffer.byteLength(line, "utf8"), line.slice(0, 60)).toBeLessThan(4096);
  });
});
