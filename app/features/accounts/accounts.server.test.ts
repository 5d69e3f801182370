import fs from "node:fs";
import { and, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// Integration tests of the account commands and queries: real database (PGlite, or PostgreSQL with
// TEST_DATABASE_URL), real better-auth, real Request objects carrying the cookies better-auth set.
// Mail is only written to the outbox here (no worker runs), so the tests read the outbox table.

// Set before ~/lib/env.server is first read (getEnv() caches it): a temporary DATA_DIR (the auth
// secret and any .eml land there), no SMTP, no DATABASE_URL, and one configured provider.
const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("accounts", { unset: ["MICROSOFT_CLIENT_ID", "OIDC_ISSUER"], set: { GOOGLE_CLIENT_ID: "forja-test-google-client", GOOGLE_CLIENT_SECRET: "forja-test-google-secret" } }));

import { getDb } from "~/db/client.server";
import { account, session, user, verification } from "~/db/schema/auth";
import { outbox } from "~/db/schema/outbox";
import { cookieHeaderFrom, nextTestIp, requestMeta } from "../../../tests/support/auth-requests";
import { closeTestDatabase, createTestDatabase } from "../../../tests/support/test-database";
import {
  changePassword,
  confirmEmail,
  CUSTOMERS_PAGE_SIZE,
  getCurrentUserPayload,
  getSessionUser,
  handleAuthRequest,
  listCustomers,
  listLinkedProviders,
  parsePopulate,
  registerCustomer,
  requestPasswordReset,
  resendConfirmation,
  resetPassword,
  setCustomerBlocked,
  signIn,
  signInStaff,
  signOut,
  updateProfile,
  upsertStaffAccount,
  type SessionUser,
} from "./accounts.server";
import { SESSION_COOKIE_PREFIX } from "./auth.server";
import { signedInHeaders } from "./guards.server";
import { RATE_LIMITS } from "~/services/security/rate-limit.server";

let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await closeTestDatabase(database);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const PASSWORD = "Fresadora-CNC-42";
const SESSION_COOKIE = `${SESSION_COOKIE_PREFIX}.session_token`;
let emailCounter = 0;

function uniqueEmail(label: string): string {
  emailCounter += 1;
  return `${label}-${emailCounter}-${process.pid}@ejemplo.mx`;
}

async function register(label: string, extra: { company?: string; phone?: string; name?: string } = {}) {
  const email = uniqueEmail(label);
  const result = await registerCustomer(requestMeta("/cuenta/registro", { ip: nextTestIp(), method: "POST" }), {
    name: extra.name ?? "Cliente de Prueba",
    email,
    password: PASSWORD,
    company: extra.company,
    phone: extra.phone,
  });
  if (!result.ok) throw new Error(`register failed: ${result.message}`);
  return { email, user: result.value, headers: result.headers, cookie: cookieHeaderFrom(result.headers) };
}

async function login(email: string, password = PASSWORD) {
  const result = await signIn(requestMeta("/login", { ip: nextTestIp(), method: "POST" }), { email, password });
  if (!result.ok) throw new Error(`sign-in failed: ${result.message}`);
  return { user: result.value, headers: result.headers, cookie: cookieHeaderFrom(result.headers) };
}

function whoIs(cookie: string): Promise<SessionUser | null> {
  return getSessionUser(requestMeta("/cuenta", { cookie }));
}

async function sessionCount(userId: string): Promise<number> {
  return (await getDb().select({ id: session.id }).from(session).where(eq(session.userId, userId))).length;
}

async function outboxFor(email: string) {
  return getDb().select().from(outbox).where(eq(outbox.to, email)).orderBy(desc(outbox.createdAt));
}

function tokenFromMail(mail: { html: string; text: string }, path: string): string {
  const pattern = new RegExp(`${path.replace(/[/?]/g, "\\$&")}\\?token=([^\\s"'<>&]+)`);
  const inText = mail.text.match(pattern);
  const inHtml = mail.html.match(pattern);
  expect(inText, `the plain text names ${path}?token=…`).not.toBeNull();
  expect(inHtml, `the HTML names ${path}?token=…`).not.toBeNull();
  expect(decodeURIComponent(inHtml![1])).toBe(decodeURIComponent(inText![1]));
  return decodeURIComponent(inText![1]);
}

let staffCookie = "";
const STAFF_EMAIL = `personal-${process.pid}@forja.mx`;
const STAFF_PASSWORD = "Panel-Forja-Seguro-1";

async function staffMeta() {
  if (!staffCookie) {
    await upsertStaffAccount({ email: STAFF_EMAIL, password: STAFF_PASSWORD, name: "Personal Forja" });
    const result = await signInStaff(requestMeta("/admin/login", { ip: nextTestIp(), method: "POST" }), { email: STAFF_EMAIL, password: STAFF_PASSWORD });
    if (!result.ok) throw new Error(result.message);
    staffCookie = cookieHeaderFrom(result.headers);
  }
  return requestMeta("/admin/clientes", { cookie: staffCookie, method: "POST" });
}

describe("registerCustomer", () => {
  it("creates a customer, signs them in and queues a confirmation email; the link confirms the email", async () => {
    const { email, user: created, headers, cookie } = await register("registro", { company: "Taller Uno", phone: "5512345678" });

    expect(created).toMatchObject({ email, role: "customer", emailVerified: false, company: "Taller Uno", phone: "5512345678" });
    expect(headers.getSetCookie().some((line) => line.startsWith(`${SESSION_COOKIE}=`))).toBe(true);
    expect(cookie).toContain(`${SESSION_COOKIE}=`);

    const current = await whoIs(cookie);
    expect(current).toMatchObject({ id: created.id, email, role: "customer", emailVerified: false });

    const mails = await outboxFor(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ status: "pending", subject: "Confirme su correo en Forja" });
    const token = tokenFromMail(mails[0], "/cuenta/confirmar");
    expect(mails[0].text).toContain("http://localhost:3000/cuenta/confirmar?token=");

    const confirmed = await confirmEmail(requestMeta(`/cuenta/confirmar?token=${encodeURIComponent(token)}`), token);
    expect(confirmed.ok).toBe(true);
    const [row] = await getDb().select({ emailVerified: user.emailVerified }).from(user).where(eq(user.id, created.id));
    expect(row.emailVerified).toBe(true);
    expect((await whoIs(cookie))?.emailVerified).toBe(true);
  });

  it("stores the email in lower case and treats another case as the same account", async () => {
    const email = uniqueEmail("mayusculas");
    const upper = email.toUpperCase();
    const first = await registerCustomer(requestMeta("/cuenta/registro", { ip: nextTestIp() }), { name: "Ana", email: upper, password: PASSWORD });
    expect(first.ok).toBe(true);
    if (first.ok) expect(first.value.email).toBe(email);
    const again = await registerCustomer(requestMeta("/cuenta/registro", { ip: nextTestIp() }), { name: "Ana", email, password: PASSWORD });
    expect(again).toMatchObject({ ok: false, field: "email" });
  });

  it("refuses a second account with the same email, in Spanish, on the email field", async () => {
    const { email } = await register("duplicado");
    const result = await registerCustomer(requestMeta("/cuenta/registro", { ip: nextTestIp() }), { name: "Otra Persona", email, password: "Otra-clave-larga-9" });
    expect(result).toEqual({
      ok: false,
      field: "email",
      message: "Ya existe una cuenta con este correo. Inicie sesión o recupere su contraseña.",
    });
    expect(await outboxFor(email)).toHaveLength(1);
  });

  it("refuses passwords outside 8–128 characters even without the form schema", async () => {
    const meta = requestMeta("/cuenta/registro", { ip: nextTestIp() });
    expect(await registerCustomer(meta, { name: "Corta", email: uniqueEmail("corta"), password: "Ab3$xyz" })).toMatchObject({
      ok: false,
      field: "password",
      message: "La contraseña debe tener al menos 8 caracteres.",
    });
    expect(await registerCustomer(meta, { name: "Larga", email: uniqueEmail("larga"), password: "x".repeat(129) })).toMatchObject({
      ok: false,
      field: "password",
      message: "La contraseña no puede tener más de 128 caracteres.",
    });
  });

  it("ignores a role sent along with the registration (nobody becomes staff through the web)", async () => {
    const email = uniqueEmail("rol");
    const result = await registerCustomer(requestMeta("/cuenta/registro", { ip: nextTestIp() }), {
      name: "Intruso",
      email,
      password: PASSWORD,
      ...({ role: "admin" } as object),
    } as Parameters<typeof registerCustomer>[1]);
    expect(result.ok).toBe(true);
    const [row] = await getDb().select({ role: user.role }).from(user).where(eq(user.email, email));
    expect(row.role).toBe("customer");
  });
});

describe("confirmEmail and resendConfirmation", () => {
  it("answers an invalid token with a Spanish error and confirms nothing", async () => {
    const result = await confirmEmail(requestMeta("/cuenta/confirmar?token=basura"), "basura");
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toBe("El enlace no es válido o ya venció. Solicite uno nuevo.");
  });

  it("resends a confirmation link that also works", async () => {
    const { email, user: created } = await register("reenvio");
    const resent = await resendConfirmation(requestMeta("/cuenta", { ip: nextTestIp() }), email);
    expect(resent.ok).toBe(true);
    const mails = await outboxFor(email);
    expect(mails).toHaveLength(2);
    const token = tokenFromMail(mails[0], "/cuenta/confirmar");
    expect((await confirmEmail(requestMeta("/cuenta/confirmar"), token)).ok).toBe(true);
    const [row] = await getDb().select({ emailVerified: user.emailVerified }).from(user).where(eq(user.id, created.id));
    expect(row.emailVerified).toBe(true);
  });
});

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
    expect(wrong).toEqual({ ok: false, message: "El correo o la contraseña no son correctos." });
    expect(unknown).toEqual(wrong);
  });

  it("refuses a blocked customer and ends their sessions; after unblocking they can sign in again", async () => {
    const { email, user: customer, cookie: registerCookie } = await register("bloqueo");
    const { cookie: secondCookie } = await login(email);
    expect(await whoIs(registerCookie)).not.toBeNull();
    expect(await sessionCount(customer.id)).toBe(2);

    const meta = await staffMeta();
    expect(await setCustomerBlocked(meta, customer.id, true)).toMatchObject({ ok: true });
    expect(await whoIs(registerCookie)).toBeNull();
    expect(await whoIs(secondCookie)).toBeNull();
    expect(await sessionCount(customer.id)).toBe(0);

    const refused = await signIn(requestMeta("/login", { ip: nextTestIp() }), { email, password: PASSWORD });
    expect(refused.ok).toBe(false);
    expect(refused).toEqual({ ok: false, message: "Esta cuenta está bloqueada. Escríbanos si cree que es un error." });
    expect(await sessionCount(customer.id)).toBe(0);
    const [listed] = (await listCustomers({ search: email, page: 1 })).rows;
    expect(listed).toMatchObject({ id: customer.id, banned: true });

    expect(await setCustomerBlocked(meta, customer.id, false)).toMatchObject({ ok: true });
    const { cookie } = await login(email);
    expect((await whoIs(cookie))?.id).toBe(customer.id);
    expect((await listCustomers({ search: email, page: 1 })).rows[0].banned).toBe(false);
  });

  it("does not let a customer block anyone, nor staff block staff or unknown ids", async () => {
    const victim = await register("victima");
    const attacker = await register("atacante");
    const byCustomer = await setCustomerBlocked(requestMeta("/admin/clientes", { cookie: attacker.cookie }), victim.user.id, true);
    expect(byCustomer.ok).toBe(false);
    expect(await whoIs(victim.cookie)).not.toBeNull();

    const meta = await staffMeta();
    const [staff] = await getDb().select({ id: user.id }).from(user).where(eq(user.email, STAFF_EMAIL));
    expect(await setCustomerBlocked(meta, staff.id, true)).toEqual({ ok: false, message: "No encontramos ese cliente.", status: 404 });
    expect(await setCustomerBlocked(meta, "no-existe", true)).toEqual({ ok: false, message: "No encontramos ese cliente.", status: 404 });
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
    const token = result.headers.get("set-auth-token");
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

describe("handleAuthRequest (better-auth's HTTP API for API clients)", () => {
  function apiSignIn(body: object, ip: string, headers: Record<string, string> = {}) {
    return handleAuthRequest(
      new Request("http://localhost/api/auth/sign-in/email", {
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
});

describe("signInStaff", () => {
  it("refuses a customer with 403 and leaves no session from that attempt", async () => {
    const { email, user: customer } = await register("no-personal");
    const before = await sessionCount(customer.id);
    const result = await signInStaff(requestMeta("/admin/login", { ip: nextTestIp() }), { email, password: PASSWORD });
    expect(result).toEqual({ ok: false, message: "Esta cuenta no tiene acceso al panel de administración.", status: 403 });
    expect(await sessionCount(customer.id)).toBe(before);
  });

  it("refuses wrong staff credentials with the generic message", async () => {
    await staffMeta();
    const result = await signInStaff(requestMeta("/admin/login", { ip: nextTestIp() }), { email: STAFF_EMAIL, password: "Otra-Clave-99" });
    expect(result).toEqual({ ok: false, message: "El correo o la contraseña no son correctos." });
  });

  it("signs staff in with the admin role", async () => {
    const email = uniqueEmail("admin");
    expect(await upsertStaffAccount({ email, password: STAFF_PASSWORD, name: "Jefa de Taller" })).toBe("created");
    const result = await signInStaff(requestMeta("/admin/login", { ip: nextTestIp() }), { email, password: STAFF_PASSWORD });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value).toMatchObject({ email, role: "admin", emailVerified: true, name: "Jefa de Taller" });
    expect(await whoIs(cookieHeaderFrom(result.headers))).toMatchObject({ email, role: "admin" });
  });
});

describe("password reset", () => {
  it("queues nothing and does not throw for an unknown email", async () => {
    const email = uniqueEmail("desconocido");
    await expect(requestPasswordReset(requestMeta("/recuperar", { ip: nextTestIp() }), email)).resolves.toBeUndefined();
    expect(await outboxFor(email)).toHaveLength(0);
  });

  it("sends a single-use link; the reset revokes every old session and signs in with the new password", async () => {
    const { email, user: customer, cookie: oldCookie } = await register("olvido");
    const { cookie: otherCookie } = await login(email);

    await requestPasswordReset(requestMeta("/recuperar", { ip: nextTestIp() }), email.toUpperCase());
    const [mail] = (await outboxFor(email)).filter((row) => row.subject === "Restablezca su contraseña de Forja");
    expect(mail).toBeDefined();
    const token = tokenFromMail(mail, "/recuperar/nueva");

    const newPassword = "Nueva-Clave-Torno-7";
    const result = await resetPassword(requestMeta("/recuperar/nueva", { ip: nextTestIp(), method: "POST" }), { token, password: newPassword });
    expect(result.ok, result.ok ? "" : result.message).toBe(true);
    if (!result.ok) return;
    expect(result.value.id).toBe(customer.id);

    expect(await whoIs(oldCookie)).toBeNull();
    expect(await whoIs(otherCookie)).toBeNull();
    const newCookie = cookieHeaderFrom(result.headers);
    expect((await whoIs(newCookie))?.id).toBe(customer.id);
    expect(await sessionCount(customer.id)).toBe(1);

    expect((await signIn(requestMeta("/login", { ip: nextTestIp() }), { email, password: PASSWORD })).ok).toBe(false);
    expect((await signIn(requestMeta("/login", { ip: nextTestIp() }), { email, password: newPassword })).ok).toBe(true);

    const reused = await resetPassword(requestMeta("/recuperar/nueva", { ip: nextTestIp() }), { token, password: "Tercera-Clave-Fresa-3" });
    expect(reused).toEqual({ ok: false, message: "El enlace no es válido o ya venció. Solicite uno nuevo." });
    expect((await signIn(requestMeta("/login", { ip: nextTestIp() }), { email, password: "Tercera-Clave-Fresa-3" })).ok).toBe(false);
  });

  it("refuses an unknown token", async () => {
    const result = await resetPassword(requestMeta("/recuperar/nueva"), { token: "inventado", password: "Clave-Nueva-Larga-1" });
    expect(result).toEqual({ ok: false, message: "El enlace no es válido o ya venció. Solicite uno nuevo." });
  });

  it("refuses an expired token", async () => {
    const { email } = await register("vencido");
    await requestPasswordReset(requestMeta("/recuperar", { ip: nextTestIp() }), email);
    const [mail] = await outboxFor(email).then((rows) => rows.filter((row) => row.subject.startsWith("Restablezca")));
    const token = tokenFromMail(mail, "/recuperar/nueva");
    const updated = await getDb()
      .update(verification)
      .set({ expiresAt: new Date(Date.now() - 1_000) })
      .where(eq(verification.identifier, `reset-password:${token}`))
      .returning({ id: verification.id });
    expect(updated).toHaveLength(1);
    const result = await resetPassword(requestMeta("/recuperar/nueva"), { token, password: "Clave-Nueva-Larga-2" });
    expect(result.ok).toBe(false);
    expect((await signIn(requestMeta("/login", { ip: nextTestIp() }), { email, password: PASSWORD })).ok).toBe(true);
  });
});

describe("changePassword", () => {
  it("refuses a wrong current password on the currentPassword field", async () => {
    const { cookie } = await register("cambio-mal");
    const result = await changePassword(requestMeta("/cuenta", { cookie, method: "POST" }), { currentPassword: "No-Es-Esta-1", newPassword: "Clave-Nueva-Fresa-1" });
    expect(result).toEqual({ ok: false, message: "La contraseña actual no es correcta.", field: "currentPassword" });
    expect(await whoIs(cookie)).not.toBeNull();
  });

  it("changes the password, revokes the other sessions and returns a new session", async () => {
    const { email, user: customer, cookie } = await register("cambio");
    const { cookie: otherCookie } = await login(email);
    const newPassword = "Clave-Nueva-Fresa-2";

    const result = await changePassword(requestMeta("/cuenta", { cookie, method: "POST" }), { currentPassword: PASSWORD, newPassword });
    expect(result.ok).toBe(true);
    if (!result.ok) return;

    expect(await whoIs(otherCookie)).toBeNull();
    const newCookie = cookieHeaderFrom(result.headers);
    expect(newCookie).toContain(`${SESSION_COOKIE}=`);
    expect(newCookie).not.toBe(cookie);
    expect((await whoIs(newCookie))?.id).toBe(customer.id);
    expect(await sessionCount(customer.id)).toBe(1);

    expect((await signIn(requestMeta("/login", { ip: nextTestIp() }), { email, password: PASSWORD })).ok).toBe(false);
    expect((await signIn(requestMeta("/login", { ip: nextTestIp() }), { email, password: newPassword })).ok).toBe(true);
  });

  it("needs a session", async () => {
    const result = await changePassword(requestMeta("/cuenta", { method: "POST" }), { currentPassword: PASSWORD, newPassword: "Clave-Nueva-Fresa-3" });
    expect(result.ok).toBe(false);
  });
});

describe("updateProfile", () => {
  it("updates name, company and phone of the signed-in user only", async () => {
    const { cookie, user: customer } = await register("perfil", { company: "Vieja SA" });
    const other = await register("perfil-otro", { company: "Ajena SA" });
    const result = await updateProfile(requestMeta("/cuenta", { cookie, method: "POST" }), { name: "Nombre Nuevo", company: "Nueva SA", phone: "+52 55 1111 2222" });
    expect(result.ok).toBe(true);
    expect(await whoIs(cookie)).toMatchObject({ id: customer.id, name: "Nombre Nuevo", company: "Nueva SA", phone: "+52 55 1111 2222" });
    expect((await whoIs(other.cookie))?.company).toBe("Ajena SA");
    await updateProfile(requestMeta("/cuenta", { cookie, method: "POST" }), { name: "Nombre Nuevo" });
    expect(await whoIs(cookie)).toMatchObject({ company: null, phone: null });
  });
});

describe("upsertStaffAccount", () => {
  it("creates, then updates idempotently: new password works, old fails, open sessions end", async () => {
    const email = uniqueEmail("Jefe").replace("Jefe", "JEFE");
    expect(await upsertStaffAccount({ email, password: "Primera-Clave-Panel-1", name: "Jefe Uno" })).toBe("created");
    const lower = email.toLowerCase();
    const [created] = await getDb().select().from(user).where(eq(user.email, lower));
    expect(created).toMatchObject({ role: "admin", emailVerified: true, name: "Jefe Uno" });

    const first = await signInStaff(requestMeta("/admin/login", { ip: nextTestIp() }), { email: lower, password: "Primera-Clave-Panel-1" });
    expect(first.ok).toBe(true);
    const firstCookie = first.ok ? cookieHeaderFrom(first.headers) : "";
    expect((await whoIs(firstCookie))?.role).toBe("admin");

    expect(await upsertStaffAccount({ email, password: "Segunda-Clave-Panel-2", name: "Jefe Dos" })).toBe("updated");
    expect(await upsertStaffAccount({ email: lower, password: "Segunda-Clave-Panel-2", name: "Jefe Dos" })).toBe("updated");

    const rows = await getDb().select().from(user).where(eq(user.email, lower));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: created.id, name: "Jefe Dos", role: "admin" });
    const credentials = await getDb().select().from(account).where(and(eq(account.userId, created.id), eq(account.providerId, "credential")));
    expect(credentials).toHaveLength(1);

    expect(await whoIs(firstCookie)).toBeNull();
    expect(await sessionCount(created.id)).toBe(0);
    expect((await signInStaff(requestMeta("/admin/login", { ip: nextTestIp() }), { email: lower, password: "Primera-Clave-Panel-1" })).ok).toBe(false);
    const second = await signInStaff(requestMeta("/admin/login", { ip: nextTestIp() }), { email: lower, password: "Segunda-Clave-Panel-2" });
    expect(second.ok).toBe(true);
    if (second.ok) expect(second.value).toMatchObject({ role: "admin", name: "Jefe Dos" });
  });

  it("promotes an existing customer to staff and lets them in with the given password", async () => {
    const { email, user: customer, cookie } = await register("ascenso");
    expect(await upsertStaffAccount({ email, password: "Clave-Del-Panel-77", name: "Cliente Ascendido" })).toBe("updated");
    expect(await whoIs(cookie)).toBeNull();
    const result = await signInStaff(requestMeta("/admin/login", { ip: nextTestIp() }), { email, password: "Clave-Del-Panel-77" });
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.value).toMatchObject({ id: customer.id, role: "admin" });
  });
});

describe("parsePopulate", () => {
  it.each([
    [null, []],
    ["", []],
    ["profile", ["profile"]],
    [" profile , providers ", ["profile", "providers"]],
    ["providers,", ["providers"]],
  ] as const)("accepts %j", (input, expected) => {
    expect(parsePopulate(input)).toEqual({ ok: true, value: expected });
  });

  it("refuses unknown relations and names the valid ones", () => {
    const result = parsePopulate("profile,password,*");
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.message).toContain("password, *");
      expect(result.message).toContain("profile, providers");
    }
  });
});

describe("getCurrentUserPayload and listLinkedProviders", () => {
  it("returns null for a guest", async () => {
    expect(await getCurrentUserPayload(requestMeta("/api/users/me"), ["profile"])).toBeNull();
  });

  it("returns the user, and profile/providers only when asked", async () => {
    const { cookie, user: customer, email } = await register("yo", { company: "Mi Taller", phone: "3312345678" });
    const meta = requestMeta("/api/users/me", { cookie });

    const bare = await getCurrentUserPayload(meta, []);
    expect(bare).toMatchObject({ id: customer.id, email, role: "customer", emailVerified: false });
    expect(bare!.createdAt).toBeInstanceOf(Date);
    expect(bare).not.toHaveProperty("profile");
    expect(bare).not.toHaveProperty("providers");
    expect(JSON.stringify(bare)).not.toMatch(/password|token/i);

    const full = await getCurrentUserPayload(meta, ["profile", "providers"]);
    expect(full).toMatchObject({
      profile: { company: "Mi Taller", phone: "3312345678" },
      providers: [{ id: "google", name: "Google", linked: false }],
    });

    await getDb().insert(account).values({ id: `google-${customer.id}`, accountId: "google-sub-1", providerId: "google", userId: customer.id });
    expect((await getCurrentUserPayload(meta, ["providers"]))?.providers).toEqual([{ id: "google", name: "Google", linked: true }]);
    expect(await listLinkedProviders(customer.id)).toEqual({ providers: [{ id: "google", name: "Google", linked: true }], hasPassword: true });
  });

  it("says when an account has no password (provider-only accounts)", async () => {
    const id = `solo-google-${process.pid}`;
    await getDb().insert(user).values({ id, name: "Sólo Google", email: uniqueEmail("solo-google") });
    await getDb().insert(account).values({ id: `acc-${id}`, accountId: "google-sub-2", providerId: "google", userId: id });
    expect(await listLinkedProviders(id)).toEqual({ providers: [{ id: "google", name: "Google", linked: true }], hasPassword: false });
  });
});

describe("listCustomers", () => {
  const tag = `lista${process.pid}`;

  beforeAll(async () => {
    const base = Date.UTC(2026, 0, 1);
    const rows = Array.from({ length: 35 }, (_, index) => ({
      id: `${tag}-${String(index).padStart(2, "0")}`,
      name: index === 7 ? `Marisol Ñandú ${tag}` : `Cliente ${index} ${tag}`,
      email: `${tag}-${index}@lista.mx`,
      company: index === 3 ? `Aceros Tornado ${tag}` : null,
      emailVerified: index % 2 === 0,
      createdAt: new Date(base + index * 60_000),
      updatedAt: new Date(base + index * 60_000),
    }));
    await getDb().insert(user).values(rows);
    await getDb().insert(user).values({ id: `${tag}-staff`, name: `Personal ${tag}`, email: `${tag}-staff@lista.mx`, role: "admin" });
  });

  it("pages by 30, newest first, customers only", async () => {
    const first = await listCustomers({ search: tag, page: 1 });
    expect(CUSTOMERS_PAGE_SIZE).toBe(30);
    expect(first.total).toBe(35);
    expect(first.rows).toHaveLength(30);
    expect(first.rows[0].id).toBe(`${tag}-34`);
    expect(first.rows[29].id).toBe(`${tag}-05`);
    const second = await listCustomers({ search: tag, page: 2 });
    expect(second.total).toBe(35);
    expect(second.rows.map((row) => row.id)).toEqual([`${tag}-04`, `${tag}-03`, `${tag}-02`, `${tag}-01`, `${tag}-00`]);
    expect((await listCustomers({ search: tag, page: 3 })).rows).toEqual([]);
    expect([...first.rows, ...second.rows].some((row) => row.id.endsWith("-staff"))).toBe(false);
    expect(second.rows.find((row) => row.id === `${tag}-04`)).toMatchObject({ emailVerified: true, banned: false, company: null });
    expect(second.rows[0].createdAt).toBeInstanceOf(Date);
  });

  it("treats a page below 1 as the first page", async () => {
    expect((await listCustomers({ search: tag, page: 0 })).rows[0].id).toBe(`${tag}-34`);
    expect((await listCustomers({ search: tag, page: -3 })).rows).toHaveLength(30);
  });

  it("searches email, name and company case-insensitively", async () => {
    expect((await listCustomers({ search: `${tag}-12@LISTA`, page: 1 })).rows.map((row) => row.id)).toEqual([`${tag}-12`]);
    expect((await listCustomers({ search: "marisol ñandú", page: 1 })).rows.map((row) => row.id)).toEqual([`${tag}-07`]);
    expect((await listCustomers({ search: `  TORNADO ${tag.toUpperCase()} `, page: 1 })).rows.map((row) => row.id)).toEqual([`${tag}-03`]);
    expect(await listCustomers({ search: `Personal ${tag}`, page: 1 })).toEqual({ rows: [], total: 0 });
  });

  it("lists everyone (customers only) without a search", async () => {
    const all = await listCustomers({ page: 1 });
    expect(all.total).toBeGreaterThanOrEqual(35);
    expect(all.rows.length).toBe(30);
  });

  // BUG (reported): listCustomers passes the search text into ILIKE '%…%' unescaped, so "%" and
  // "_" act as wildcards and match every customer. Remove `.fails` once the pattern is escaped.
  it("treats LIKE wildcards in the search as literal text", async () => {
    // "%" and "_" typed into the search box must not match everything.
    expect((await listCustomers({ search: "%", page: 1 })).total).toBe(0);
    expect((await listCustomers({ search: "_", page: 1 })).total).toBe(0);
  });
});

describe("cookie sizes", () => {
  it("keeps every cookie from register, sign-in and staff sign-in under 4096 bytes", async () => {
    const longName = "Ñ".repeat(120);
    const { email, headers: registerHeaders } = await register("galleta", { name: longName, company: "C".repeat(160), phone: "+52 55 1234 5678" });
    const signInResult = await signIn(requestMeta("/login", { ip: nextTestIp() }), { email, password: PASSWORD });
    expect(signInResult.ok).toBe(true);
    await staffMeta();
    const staffResult = await signInStaff(requestMeta("/admin/login", { ip: nextTestIp() }), { email: STAFF_EMAIL, password: STAFF_PASSWORD });
    expect(staffResult.ok).toBe(true);

    const all = [registerHeaders, signInResult.ok ? signInResult.headers : new Headers(), staffResult.ok ? staffResult.headers : new Headers()];
    const lines = all.flatMap((headers) => signedInHeaders(headers).getSetCookie());
    expect(lines.length).toBeGreaterThanOrEqual(6);
    for (const line of lines) expect(Buffer.byteLength(line, "utf8"), line.slice(0, 60)).toBeLessThan(4096);
  });
});
