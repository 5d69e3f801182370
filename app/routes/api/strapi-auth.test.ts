import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// The seed's content-service auth API (Strapi's users-permissions shapes, docs/decisions/0017)
// driven the way the seed's front end drives it — plain fetch, JSON in and out, the jwt in
// `Authorization: Bearer` — against the real production server over HTTP, with a real SMTP server
// receiving Forja's emails and a real OpenID Connect provider on loopback for /api/connect.

await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("strapi-auth"));

import { setCustomerBlocked } from "~/features/accounts/customers.server";
import { registerCustomer } from "~/features/accounts/registration.server";
import { upsertStaffAccount } from "~/features/accounts/staff-account.server";
import { RATE_LIMITS } from "~/services/security/rate-limit.server";
import { requestMeta, tokenFromMail } from "../../../tests/support/auth-requests";
import { encodeOidcIdentity, OIDC_IDENTITY_COOKIE, startOidcTestServer, type OidcTestServer } from "../../../tests/support/oidc-test-server";
import { startSmtpTestServer, type ReceivedMail, type SmtpTestServer } from "../../../tests/support/smtp-test-server";
import { startTestServer, type TestServer } from "../../../tests/support/test-server";

const REQUEST_TIMEOUT_MS = 15_000;
const MAIL_TIMEOUT_MS = 20_000;
const PASSWORD = "Fresadora-CNC-42";
const CUSTOMER = { name: "Carla Cliente", email: `carla-strapi-${process.pid}@ejemplo.mx`, password: PASSWORD };
const BLOCKED = { name: "Bruno Bloqueado", email: `bruno-strapi-${process.pid}@ejemplo.mx`, password: PASSWORD };
const STAFF = { name: "Personal Strapi", email: `personal-strapi-${process.pid}@forja.mx`, password: "Panel-Forja-Seguro-1" };
const RESET_SUBJECT = "Restablezca su contraseña de Forja";
const CONFIRM_SUBJECT = "Confirme su correo en Forja";
const USER_KEYS = ["blocked", "confirmed", "createdAt", "documentId", "email", "id", "provider", "updatedAt", "username"];

let server: TestServer | undefined;
let smtp: SmtpTestServer | undefined;
let oidc: OidcTestServer | undefined;

beforeAll(async () => {
  smtp = await startSmtpTestServer();
  oidc = await startOidcTestServer();
  server = await startTestServer({
    env: { SMTP_URL: smtp.url, OIDC_ISSUER: oidc.issuer, OIDC_CLIENT_ID: oidc.clientId, OIDC_CLIENT_SECRET: oidc.clientSecret, OIDC_NAME: "Forja ID de pruebas" },
    prepare: async () => {
      for (const customer of [CUSTOMER, BLOCKED]) {
        const registered = await registerCustomer(requestMeta("/registro", { method: "POST" }), customer);
        if (!registered.ok) throw new Error(`${customer.email} not registered`);
        if (customer === BLOCKED) {
          const staffActor = { id: "x", name: "x", email: "x@forja.mx", emailVerified: true, role: "admin", company: null, phone: null };
          const blocked = await setCustomerBlocked({ actor: staffActor, userId: registered.value.user.id, blocked: true });
          if (!blocked.ok) throw new Error("not blocked");
        }
      }
      await upsertStaffAccount(STAFF);
    },
  });
}, 420_000);

afterAll(async () => {
  await server?.stop();
  await oidc?.stop();
  await smtp?.stop();
}, 60_000);

interface Answer {
  status: number;
  body: Record<string, unknown> & { jwt?: string; user?: Record<string, unknown>; error?: Record<string, unknown> };
  headers: Headers;
}

let ipCounter = 0;

/** The seed's front end's client: fetch, JSON, the jwt in Authorization. Each has its own address (X-Forwarded-For from loopback is trusted). */
class StrapiClient {
  jwt: string | null = null;
  readonly ip = `203.0.${Math.floor((ipCounter += 1) / 250)}.${(ipCounter % 250) + 1}`;

  async send(method: "GET" | "POST", path: string, body?: unknown, options: { raw?: string; contentType?: string; jwt?: string | null; headers?: Record<string, string> } = {}): Promise<Answer> {
    const headers: Record<string, string> = { "x-forwarded-for": this.ip, ...options.headers };
    const jwt = options.jwt === undefined ? this.jwt : options.jwt;
    if (jwt) headers.authorization = `Bearer ${jwt}`;
    let payload: string | undefined;
    if (options.raw !== undefined) payload = options.raw;
    else if (body !== undefined) payload = JSON.stringify(body);
    if (payload !== undefined) headers["content-type"] = options.contentType ?? "application/json";
    const response = await fetch(`${server!.url}/api${path}`, { method, headers, body: payload, redirect: "manual", signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    const text = await response.text();
    let parsed: Answer["body"] = {};
    if (text) {
      try {
        parsed = JSON.parse(text) as Answer["body"];
      } catch {
        parsed = { text };
      }
    }
    return { status: response.status, body: parsed, headers: response.headers };
  }

  /** POST /auth/{path}; keeps the jwt of a `{jwt, user}` answer, as the seed's front end does. */
  async auth(path: string, body: unknown, options: { jwt?: string | null } = {}): Promise<Answer> {
    const answer = await this.send("POST", `/auth/${path}`, body, options);
    if (answer.status === 200 && typeof answer.body.jwt === "string") this.jwt = answer.body.jwt;
    return answer;
  }

  me(query = "", jwt?: string | null): Promise<Answer> {
    return this.send("GET", `/users/me${query}`, undefined, { jwt });
  }
}

/** Strapi's error envelope. */
function strapiError(status: number, name: string, message: string) {
  return { data: null, error: { status, name, message, details: expect.any(Object) } };
}

const INVALID_CREDENTIALS = strapiError(400, "ValidationError", "Invalid identifier or password");
const UNAUTHORIZED = strapiError(401, "UnauthorizedError", "Missing or invalid credentials");

/** Mail to `to` with `subject`, waiting until there are at least `count` of them; newest last. */
const mailsTo = (to: string, subject: string, count: number) => smtp!.mailsTo(to, subject, count, MAIL_TIMEOUT_MS);

function mailCount(to: string, subject: string): number {
  return smtp!.received.filter((mail) => mail.envelopeTo.includes(to) && mail.parsed.subject === subject).length;
}

const tokenOf = (mail: ReceivedMail, path: string) => tokenFromMail({ html: mail.parsed.html ?? "", text: mail.parsed.text ?? "" }, path);

function jwtParts(jwt: string) {
  const [header, payload] = jwt.split(".");
  return { header: JSON.parse(Buffer.from(header!, "base64url").toString()) as Record<string, unknown>, payload: JSON.parse(Buffer.from(payload!, "base64url").toString()) as Record<string, unknown> };
}

describe("POST /api/auth/local/register and /api/auth/local", { timeout: 60_000 }, () => {
  it("registers a customer: {jwt, user}, a confirmation email, and the jwt opens /api/users/me", async () => {
    const client = new StrapiClient();
    const email = `nueva-strapi-${process.pid}@ejemplo.mx`;
    const registered = await client.auth("local/register", { username: "Nora Nueva", email, password: PASSWORD });
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
    expect(Object.keys(registered.body).sort()).toEqual(["jwt", "user"]);
    expect(Object.keys(registered.body.user!).sort()).toEqual(USER_KEYS);
    expect(registered.body.user).toMatchObject({ username: "Nora Nueva", email, provider: "local", confirmed: false, blocked: false });
    expect(registered.body.user!.documentId).toBe(registered.body.user!.id);
    expect(Date.parse(registered.body.user!.createdAt as string)).not.toBeNaN();
    // No cookie: the API is header-authenticated.
    expect(registered.headers.get("set-cookie")).toBeNull();
    // An HS256 JWT naming the account, tied to a session.
    const { header, payload } = jwtParts(registered.body.jwt!);
    expect(header).toEqual({ alg: "HS256", typ: "JWT" });
    expect(payload).toMatchObject({ id: registered.body.user!.id, type: "auth", sid: expect.any(String) });
    expect((payload.exp as number) - (payload.iat as number)).toBeLessThanOrEqual(7 * 24 * 60 * 60);

    await mailsTo(email, CONFIRM_SUBJECT, 1);

    const me = await client.me();
    expect(me.status).toBe(200);
    expect(me.headers.get("cache-control")).toContain("no-store");
    // The user object itself, not wrapped.
    expect(me.body).toEqual(registered.body.user);

    const again = await new StrapiClient().auth("local/register", { username: "Otra Persona", email: email.toUpperCase(), password: "Otra-Clave-Segura-9" });
    expect([again.status, again.body]).toEqual([400, strapiError(400, "ApplicationError", "Email or Username are already taken")]);
  });

  it("validates the body as Strapi does, with Forja's rules for the name and the password", async () => {
    const client = new StrapiClient();
    const empty = await client.auth("local/register", {});
    expect(empty.status).toBe(400);
    expect(empty.body.error).toMatchObject({ status: 400, name: "ValidationError", message: "3 errors occurred" });
    const errors = (empty.body.error!.details as { errors: { path: string[]; message: string; name: string }[] }).errors;
    expect(errors.map((error) => error.path[0])).toEqual(["username", "email", "password"]);
    expect(errors[0]).toEqual({ path: ["username"], message: "username is a required field", name: "ValidationError" });

    const badEmail = await client.auth("local/register", { username: "Nadia", email: "no-es-correo", password: PASSWORD });
    expect(badEmail.body).toEqual(strapiError(400, "ValidationError", "email must be a valid email"));
    const common = await client.auth("local/register", { username: "Nadia", email: `comun-${process.pid}@ejemplo.mx`, password: "password123" });
    expect(common.body).toEqual(strapiError(400, "ValidationError", "Esa contraseña es de las más usadas y fáciles de adivinar. Elija otra."));
    const short = await client.auth("local/register", { username: "Nadia", email: `corta-${process.pid}@ejemplo.mx`, password: "abc" });
    expect(short.body).toEqual(strapiError(400, "ValidationError", "La contraseña debe tener al menos 8 caracteres."));
    // Nobody picks a role or confirms themselves through the API.
    const role = await client.auth("local/register", { username: "Nadia", email: `rol-${process.pid}@ejemplo.mx`, password: PASSWORD, role: "admin", confirmed: true });
    expect(role.body).toEqual(strapiError(400, "ValidationError", "Invalid parameters: role, confirmed"));
    expect(client.jwt).toBeNull();
  });

  it("signs a customer in with {identifier, password}; any wrong credential is the same 400", async () => {
    const client = new StrapiClient();
    const signedIn = await client.auth("local", { identifier: CUSTOMER.email, password: CUSTOMER.password });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user).toMatchObject({ email: CUSTOMER.email, username: CUSTOMER.name, provider: "local", confirmed: false, blocked: false });
    expect(signedIn.headers.get("set-cookie")).toBeNull();
    expect((await client.me()).body.email).toBe(CUSTOMER.email);

    for (const [identifier, password] of [
      [CUSTOMER.email, "No-Es-La-Clave-1"],
      [`nadie-${process.pid}@ejemplo.mx`, PASSWORD],
      [CUSTOMER.name, CUSTOMER.password], // Forja signs in by email only: names are not unique.
      [STAFF.email, STAFF.password], // staff sign in on /admin/login, not as the seed's users
      [BLOCKED.email, "No-Es-La-Clave-1"],
    ]) {
      const refused = await new StrapiClient().auth("local", { identifier, password });
      expect([refused.status, refused.body], identifier).toEqual([400, INVALID_CREDENTIALS]);
    }
    const blocked = await new StrapiClient().auth("local", { identifier: BLOCKED.email, password: BLOCKED.password });
    expect([blocked.status, blocked.body]).toEqual([400, strapiError(400, "ApplicationError", "Your account has been blocked by an administrator")]);

    const missing = await new StrapiClient().auth("local", { identifier: CUSTOMER.email });
    expect(missing.body).toEqual(strapiError(400, "ValidationError", "password is a required field"));
  });

  it("needs no Origin check: a cross-site call with no cookie works", async () => {
    const client = new StrapiClient();
    const answer = await client.send("POST", "/auth/local", { identifier: CUSTOMER.email, password: CUSTOMER.password }, { headers: { origin: "https://otro-sitio.example" } });
    expect(answer.status).toBe(200);
  });
});

describe("GET /api/users/me", { timeout: 60_000 }, () => {
  it("answers 401 in Strapi's envelope without a valid jwt", async () => {
    const client = new StrapiClient();
    expect(await client.me()).toMatchObject({ status: 401, body: UNAUTHORIZED });
    const signedIn = await client.auth("local", { identifier: CUSTOMER.email, password: CUSTOMER.password });
    const jwt = signedIn.body.jwt!;
    const forged = `${jwt.slice(0, -4)}${jwt.endsWith("AAAA") ? "BBBB" : "AAAA"}`;
    expect(await client.me("", forged)).toMatchObject({ status: 401, body: UNAUTHORIZED });
    expect(await client.me("", "no-es-un-jwt")).toMatchObject({ status: 401, body: UNAUTHORIZED });
    expect(await client.me("?populate=pedidos", null)).toMatchObject({ status: 401, body: UNAUTHORIZED });
  });

  it("populates role, profile and providers, by list, by index or *; an unknown relation is a 400", async () => {
    const client = new StrapiClient();
    await client.auth("local", { identifier: CUSTOMER.email, password: CUSTOMER.password });
    const role = await client.me("?populate=role");
    expect(role.status).toBe(200);
    expect(role.body.role).toMatchObject({ name: "Authenticated", type: "authenticated" });
    expect(role.body).not.toHaveProperty("profile");
    expect((await client.me("?populate[0]=profile")).body.profile).toEqual({ company: null, phone: null });
    expect((await client.me("?populate[role]=true")).body.role).toMatchObject({ type: "authenticated" });
    const all = await client.me("?populate=*");
    expect(Object.keys(all.body).sort()).toEqual([...USER_KEYS, "profile", "providers", "role"].sort());
    expect(all.body.providers).toEqual([{ id: "oidc", name: "Forja ID de pruebas", linked: false }]);
    const unknown = await client.me("?populate=pedidos");
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ status: 400, name: "ValidationError", message: expect.stringContaining("populate no admite: pedidos") });
  });
});

describe("emailed links: confirmation and password reset", { timeout: 90_000 }, () => {
  it("send-email-confirmation mails a new link; the link's token confirms at /api/auth/email-confirmation", async () => {
    const client = new StrapiClient();
    const email = `confirma-strapi-${process.pid}@ejemplo.mx`;
    await client.auth("local/register", { username: "Celia Confirma", email, password: PASSWORD });
    await mailsTo(email, CONFIRM_SUBJECT, 1);

    const sent = await new StrapiClient().auth("send-email-confirmation", { email });
    expect([sent.status, sent.body]).toEqual([200, { email, sent: true }]);
    const [, second] = await mailsTo(email, CONFIRM_SUBJECT, 2);
    const token = tokenOf(second!, "/cuenta/confirmar");

    // Nobody learns whether an address has an account.
    const nobody = `nadie-confirma-${process.pid}@ejemplo.mx`;
    const unknown = await new StrapiClient().auth("send-email-confirmation", { email: nobody });
    expect([unknown.status, unknown.body]).toEqual([200, { email: nobody, sent: true }]);

    const bad = await client.send("GET", "/auth/email-confirmation?confirmation=no-es-un-token");
    expect([bad.status, bad.body]).toEqual([400, strapiError(400, "ValidationError", "Invalid token")]);

    const confirmed = await client.send("GET", `/auth/email-confirmation?confirmation=${encodeURIComponent(token)}`);
    expect(confirmed.status).toBe(302);
    expect(confirmed.headers.get("location")).toBe("/cuenta?confirmado=1");
    expect(confirmed.headers.get("set-cookie")).toBeNull();
    expect((await client.me()).body.confirmed).toBe(true);

    // Confirmed: no more links, the same answer.
    const after = await new StrapiClient().auth("send-email-confirmation", { email });
    expect([after.status, after.body]).toEqual([200, { email, sent: true }]);
    expect(mailCount(nobody, CONFIRM_SUBJECT)).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(mailCount(email, CONFIRM_SUBJECT)).toBe(2);
  });

  it("forgot-password always answers {ok: true}; reset-password with the emailed code signs in and ends the old jwt", async () => {
    const email = `olvido-strapi-${process.pid}@ejemplo.mx`;
    const client = new StrapiClient();
    await client.auth("local/register", { username: "Olga Olvido", email, password: PASSWORD });
    const oldJwt = client.jwt!;

    const nobody = `nadie-olvido-${process.pid}@ejemplo.mx`;
    for (const address of [email, nobody]) {
      const answer = await new StrapiClient().auth("forgot-password", { email: address });
      expect([answer.status, answer.body]).toEqual([200, { ok: true }]);
    }
    const [mail] = await mailsTo(email, RESET_SUBJECT, 1);
    const code = tokenOf(mail!, "/recuperar/nueva");

    const reset = new StrapiClient();
    const mismatch = await reset.auth("reset-password", { code, password: "Nueva-Clave-Segura-7", passwordConfirmation: "Otra-Clave-Segura-7" });
    expect(mismatch.body).toEqual(strapiError(400, "ValidationError", "Passwords do not match"));
    const wrongCode = await reset.auth("reset-password", { code: "no-es-el-codigo", password: "Nueva-Clave-Segura-7", passwordConfirmation: "Nueva-Clave-Segura-7" });
    expect(wrongCode.body).toEqual(strapiError(400, "ValidationError", "Incorrect code provided"));

    const done = await reset.auth("reset-password", { code, password: "Nueva-Clave-Segura-7", passwordConfirmation: "Nueva-Clave-Segura-7" });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.user).toMatchObject({ email });
    expect((await reset.me()).status).toBe(200);
    // Resetting ended every earlier session: the old jwt is dead.
    expect(await client.me("", oldJwt)).toMatchObject({ status: 401, body: UNAUTHORIZED });
    // The code is used up.
    const reused = await new StrapiClient().auth("reset-password", { code, password: "Tercera-Clave-Segura-7", passwordConfirmation: "Tercera-Clave-Segura-7" });
    expect(reused.body).toEqual(strapiError(400, "ValidationError", "Incorrect code provided"));
    expect((await new StrapiClient().auth("local", { identifier: email, password: "Nueva-Clave-Segura-7" })).status).toBe(200);
    expect(mailCount(nobody, RESET_SUBJECT)).toBe(0);
  });

  it("a staff account gets no reset email from the customers' API, and a staff code does not work here", async () => {
    const answer = await new StrapiClient().auth("forgot-password", { email: STAFF.email });
    expect([answer.status, answer.body]).toEqual([200, { ok: true }]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(mailCount(STAFF.email, RESET_SUBJECT)).toBe(0);

    // A staff reset code (from better-auth's own endpoint, as /recuperar sends it) is refused here, unused.
    const requested = await fetch(`${server!.url}/api/sesion/request-password-reset`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": new StrapiClient().ip, origin: server!.url },
      body: JSON.stringify({ email: STAFF.email, redirectTo: "/recuperar/nueva" }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    expect(requested.status).toBe(200);
    const [mail] = await mailsTo(STAFF.email, RESET_SUBJECT, 1);
    const code = tokenOf(mail!, "/recuperar/nueva");
    const refused = await new StrapiClient().auth("reset-password", { code, password: "Staff-Nueva-Segura-8", passwordConfirmation: "Staff-Nueva-Segura-8" });
    expect([refused.status, refused.body]).toEqual([400, strapiError(400, "ValidationError", "Incorrect code provided")]);
    const staffSignIn = await fetch(`${server!.url}/api/sesion/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": new StrapiClient().ip, origin: server!.url },
      body: JSON.stringify({ email: STAFF.email, password: STAFF.password }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    // The admin owes the second step, so better-auth's own endpoint opens no session; its 403 (not the
    // 401 of a wrong password) says the password is still the same (docs/decisions/0061).
    expect(staffSignIn.status, "the staff password did not change").toBe(403);
    expect(((await staffSignIn.json()) as { code?: string }).code).toBe("TWO_STEP_SIGN_IN_REQUIRED");
  });
});

describe("POST /api/auth/change-password", { timeout: 60_000 }, () => {
  it("needs a valid jwt, checks the current password, and revokes every earlier jwt of the account", async () => {
    const email = `cambio-strapi-${process.pid}@ejemplo.mx`;
    const client = new StrapiClient();
    const body = { currentPassword: PASSWORD, password: "Cambiada-Clave-Segura-3", passwordConfirmation: "Cambiada-Clave-Segura-3" };
    expect(await client.auth("change-password", body)).toMatchObject({ status: 401, body: UNAUTHORIZED });

    await client.auth("local/register", { username: "Celso Cambio", email, password: PASSWORD });
    const other = new StrapiClient();
    await other.auth("local", { identifier: email, password: PASSWORD });
    const before = client.jwt!;

    const wrong = await client.auth("change-password", { ...body, currentPassword: "No-Es-La-Clave-1" });
    expect(wrong.body).toEqual(strapiError(400, "ValidationError", "The provided current password is invalid"));
    const same = await client.auth("change-password", { currentPassword: PASSWORD, password: PASSWORD, passwordConfirmation: PASSWORD });
    expect(same.body).toEqual(strapiError(400, "ValidationError", "Your new password must be different than your current password"));
    const mismatch = await client.auth("change-password", { ...body, passwordConfirmation: "Otra-Cosa-Segura-3" });
    expect(mismatch.body).toEqual(strapiError(400, "ValidationError", "Passwords do not match"));

    const changed = await client.auth("change-password", body);
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.jwt).not.toBe(before);
    expect(changed.body.user).toMatchObject({ email });
    // The new jwt works; the old one and the other device's are revoked with their sessions.
    expect((await client.me()).status).toBe(200);
    expect(await client.me("", before)).toMatchObject({ status: 401, body: UNAUTHORIZED });
    expect(await other.me()).toMatchObject({ status: 401, body: UNAUTHORIZED });
    expect(await other.auth("change-password", { ...body, currentPassword: body.password, password: "Otra-Vez-Segura-5", passwordConfirmation: "Otra-Vez-Segura-5" })).toMatchObject({ status: 401 });

    expect((await new StrapiClient().auth("local", { identifier: email, password: PASSWORD })).body).toEqual(INVALID_CREDENTIALS);
    expect((await new StrapiClient().auth("local", { identifier: email, password: body.password })).status).toBe(200);
  });
});

describe("rate limits: the pages' own", { timeout: 90_000 }, () => {
  it("shares the sign-in counter with better-auth's endpoint (and /login), then answers 429 RateLimitError", async () => {
    const client = new StrapiClient();
    const half = Math.floor(RATE_LIMITS.signIn.limit / 2);
    for (let attempt = 0; attempt < half; attempt += 1) {
      const response = await fetch(`${server!.url}/api/sesion/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": client.ip, origin: server!.url },
        // Unknown accounts: this counts the address only, not one account's own limit (0036).
        body: JSON.stringify({ email: `nadie-${attempt}-${process.pid}@ejemplo.mx`, password: "No-Es-La-Clave-1" }),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      expect(response.status).toBe(401);
    }
    for (let attempt = half; attempt < RATE_LIMITS.signIn.limit; attempt += 1) {
      expect((await client.auth("local", { identifier: `nadie-${attempt}-${process.pid}@ejemplo.mx`, password: "No-Es-La-Clave-1" })).status).toBe(400);
    }
    const limited = await client.auth("local", { identifier: CUSTOMER.email, password: CUSTOMER.password });
    expect([limited.status, limited.body]).toEqual([429, strapiError(429, "RateLimitError", "Too many requests, please try again later.")]);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another address is not affected.
    expect((await new StrapiClient().auth("local", { identifier: CUSTOMER.email, password: CUSTOMER.password })).status).toBe(200);
  });

  it("limits registration and the emailed links per address as the pages do", async () => {
    const client = new StrapiClient();
    for (let attempt = 0; attempt < RATE_LIMITS.register.limit; attempt += 1) {
      expect((await client.auth("local/register", { username: "Lima", email: "no-es-correo", password: PASSWORD })).status).toBe(400);
    }
    expect((await client.auth("local/register", { username: "Lima", email: "no-es-correo", password: PASSWORD })).body).toEqual(
      strapiError(429, "RateLimitError", "Too many requests, please try again later."),
    );

    const reset = new StrapiClient();
    for (let attempt = 0; attempt < RATE_LIMITS.passwordReset.limit; attempt += 1) {
      expect((await reset.auth(attempt % 2 ? "forgot-password" : "reset-password", {})).status).toBe(400);
    }
    expect((await reset.auth("forgot-password", { email: CUSTOMER.email })).status).toBe(429);
    expect((await reset.auth("reset-password", { code: "x", password: PASSWORD, passwordConfirmation: PASSWORD })).status).toBe(429);
  });
});

describe("never a 500", { timeout: 90_000 }, () => {
  const ENDPOINTS = ["local", "local/register", "forgot-password", "reset-password", "change-password", "send-email-confirmation"];
  const GARBAGE: { raw: string; contentType?: string; tooLarge?: boolean }[] = [
    { raw: "{" },
    { raw: "not json at all" },
    { raw: "[1, 2, 3]" },
    { raw: "null" },
    { raw: '"texto"' },
    { raw: JSON.stringify({ identifier: 42, password: { $ne: null }, email: ["a@b.mx"], username: true, code: 7, currentPassword: [], passwordConfirmation: {} }) },
    // Past the 64 KB a sign-in body may have: refused before it is parsed.
    { raw: JSON.stringify({ identifier: "x".repeat(100_000), password: "y".repeat(100_000), email: `${"z".repeat(300)}@ejemplo.mx` }), tooLarge: true },
    { raw: JSON.stringify({ identifier: "x".repeat(1_000), password: "y".repeat(1_000), email: `${"z".repeat(300)}@ejemplo.mx` }) },
    { raw: "identifier=%E0%A4%A&password=%", contentType: "application/x-www-form-urlencoded" },
    { raw: "--x\r\nbroken", contentType: "multipart/form-data; boundary=x" },
    { raw: "\u0000\u0001\u0002", contentType: "text/plain" },
  ];

  it("answers garbage bodies on every endpoint with a 400 in Strapi's envelope (413 past the size limit)", async () => {
    // A jwt for change-password, so the body (not the missing token) is what answers there.
    const signedIn = new StrapiClient();
    await signedIn.auth("local", { identifier: CUSTOMER.email, password: CUSTOMER.password });
    for (const endpoint of ENDPOINTS) {
      for (const body of GARBAGE) {
        // A fresh address per request: the per-address limits must not answer instead of the body check.
        const client = new StrapiClient();
        client.jwt = signedIn.jwt;
        const answer = await client.send("POST", `/auth/${endpoint}`, undefined, { raw: body.raw, contentType: body.contentType ?? "application/json" });
        const label = `${endpoint} ${body.raw.slice(0, 40)}`;
        const [status, name] = body.tooLarge ? [413, "PayloadTooLargeError"] : [400, "ValidationError"];
        expect(answer.status, label).toBe(status);
        expect(answer.body, label).toMatchObject({ data: null, error: { status, name, message: expect.any(String) } });
      }
    }
  });

  it("unknown paths and methods are Strapi's 404; better-auth now lives at /api/sesion", async () => {
    const client = new StrapiClient();
    for (const [method, path] of [
      ["GET", "/auth/local"],
      ["POST", "/auth/no-existe"],
      ["POST", "/auth/sign-in/email"],
      ["GET", "/auth/local/register/extra"],
    ] as const) {
      const answer = await client.send(method, path, method === "POST" ? {} : undefined);
      expect([answer.status, answer.body], `${method} ${path}`).toEqual([404, strapiError(404, "NotFoundError", "Not Found")]);
    }
    const session = await fetch(`${server!.url}/api/sesion/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": new StrapiClient().ip, origin: server!.url },
      body: JSON.stringify({ email: CUSTOMER.email, password: CUSTOMER.password }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    expect(session.status).toBe(200);
    expect(session.headers.get("set-auth-token")).toBeTruthy();
  });
});

describe("providers: /api/connect/{provider} and /api/auth/{provider}/callback", { timeout: 90_000 }, () => {
  /** A browser's cookie jar, enough for one sign-in. */
  class Browser {
    readonly cookies = new Map<string, string>();
    readonly ip = new StrapiClient().ip;

    async get(url: string, extraCookie = ""): Promise<Response> {
      const jar = [...this.cookies].map(([name, value]) => `${name}=${value}`);
      if (extraCookie) jar.push(extraCookie);
      const sameServer = url.startsWith(server!.url);
      const response = await fetch(url, {
        redirect: "manual",
        headers: { ...(jar.length ? { cookie: jar.join("; ") } : {}), ...(sameServer ? { "x-forwarded-for": this.ip } : {}) },
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      if (sameServer) {
        for (const line of response.headers.getSetCookie()) {
          const [pair] = line.split(";");
          const separator = pair!.indexOf("=");
          const name = pair!.slice(0, separator);
          const value = pair!.slice(separator + 1);
          if (/max-age=0/i.test(line) || !value) this.cookies.delete(name);
          else this.cookies.set(name, value);
        }
      }
      return response;
    }
  }

  it("refuses a provider that is not configured", async () => {
    const answer = await new StrapiClient().send("GET", "/connect/github");
    expect([answer.status, answer.body]).toEqual([400, strapiError(400, "ApplicationError", "This provider is disabled")]);
    const callback = await new StrapiClient().send("GET", "/auth/github/callback?access_token=x");
    expect([callback.status, callback.body]).toEqual([400, strapiError(400, "ApplicationError", "This provider is disabled")]);
  });

  it("redirects to the provider, back to the front end with a one-time access_token, traded for {jwt, user}", async () => {
    const browser = new Browser();
    const identity = { email: `proveedor-strapi-${process.pid}@oidc.example`, name: "Pedro Proveedor" };

    const start = await browser.get(`${server!.url}/api/connect/oidc?callback=${encodeURIComponent("/mi-app/conectado")}`);
    expect(start.status).toBe(302);
    const authorize = new URL(start.headers.get("location")!);
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${oidc!.issuer}/authorize`);
    expect(authorize.searchParams.get("redirect_uri")).toBe(`${server!.url}/auth/oidc/callback`);

    const fromProvider = await browser.get(authorize.toString(), `${OIDC_IDENTITY_COOKIE}=${encodeOidcIdentity(identity)}`);
    expect(fromProvider.status).toBe(302);
    const callback = await browser.get(fromProvider.headers.get("location")!);
    expect(callback.status).toBe(302);
    const listo = new URL(callback.headers.get("location")!, server!.url);
    expect(listo.pathname).toBe("/api/connect/oidc/listo");
    const handOver = await browser.get(listo.toString());
    expect(handOver.status).toBe(302);
    const frontEnd = new URL(handOver.headers.get("location")!, server!.url);
    expect(frontEnd.pathname).toBe("/mi-app/conectado");
    const accessToken = frontEnd.searchParams.get("access_token")!;
    expect(accessToken).toBeTruthy();

    const client = new StrapiClient();
    const wrongProvider = await client.send("GET", `/auth/google/callback?access_token=${encodeURIComponent(accessToken)}`);
    expect(wrongProvider.status).toBe(400);
    const traded = await client.send("GET", `/auth/oidc/callback?access_token=${encodeURIComponent(accessToken)}`);
    expect(traded.status, JSON.stringify(traded.body)).toBe(200);
    expect(traded.body.user).toMatchObject({ email: identity.email, username: identity.name, provider: "oidc", confirmed: true, blocked: false });
    expect(traded.headers.get("set-cookie")).toBeNull();
    expect((await client.me("", traded.body.jwt)).body.email).toBe(identity.email);

    // One use only.
    const again = await client.send("GET", `/auth/oidc/callback?access_token=${encodeURIComponent(accessToken)}`);
    expect([again.status, again.body]).toEqual([400, strapiError(400, "ApplicationError", "Invalid access_token")]);
    const none = await client.send("GET", "/auth/oidc/callback");
    expect(none.status).toBe(400);

    // The browser is still signed in on the site, but its flow is over: a link to /listo (from any
    // site) gets no new code for its session.
    const replay = await browser.get(listo.toString());
    expect([replay.status, replay.headers.get("location")]).toEqual([403, null]);
  });

  it("gives no code to a signed-in browser that did not start the flow here", async () => {
    // A browser signed in through the site's own provider sign-in (/connect/oidc), then lured to /listo.
    const browser = new Browser();
    const identity = { email: `atraido-strapi-${process.pid}@oidc.example`, name: "Laura Atraída" };
    const start = await browser.get(`${server!.url}/connect/oidc`);
    const fromProvider = await browser.get(start.headers.get("location")!, `${OIDC_IDENTITY_COOKIE}=${encodeOidcIdentity(identity)}`);
    await browser.get(fromProvider.headers.get("location")!);
    expect([...browser.cookies.keys()].some((name) => name.includes("session_token"))).toBe(true);
    const lured = await browser.get(`${server!.url}/api/connect/oidc/listo?callback=${encodeURIComponent("/mi-app/conectado")}`);
    expect(lured.status).toBe(403);
    expect(lured.headers.get("location")).toBeNull();
  });

  it("without a callback, goes back to Strapi's default front-end path; an outside callback is ignored", async () => {
    const browser = new Browser();
    const start = await browser.get(`${server!.url}/api/connect/oidc?callback=${encodeURIComponent("https://malo.example/robar")}`);
    const fromProvider = await browser.get(start.headers.get("location")!, `${OIDC_IDENTITY_COOKIE}=${encodeOidcIdentity({ email: `default-strapi-${process.pid}@oidc.example`, name: "Dora Default" })}`);
    const callback = await browser.get(fromProvider.headers.get("location")!);
    const handOver = await browser.get(new URL(callback.headers.get("location")!, server!.url).toString());
    const frontEnd = new URL(handOver.headers.get("location")!, server!.url);
    expect(frontEnd.origin).toBe(server!.url);
    expect(frontEnd.pathname).toBe("/connect/oidc/redirect");
    expect(frontEnd.searchParams.get("access_token")).toBeTruthy();
    // Forja is that front end: the page sends the signed-in visitor on, without the token in the address.
    const landing = await browser.get(frontEnd.toString());
    expect([landing.status, landing.headers.get("location")]).toEqual([302, "/auth/listo"]);
    const done = await browser.get(new URL("/auth/listo", server!.url).toString());
    expect([done.status, done.headers.get("location")]).toEqual([302, "/cuenta"]);
  });
});
