import { randomBytes } from "node:crypto";
import { expect, type APIRequestContext, type BrowserContext, type Page } from "@playwright/test";
import { encodeOidcIdentity, OIDC_IDENTITY_COOKIE, type OidcIdentity } from "../../support/oidc-test-server";
import { listMail, waitForMail } from "./mail";
import { waitForHydration } from "./site";

// Accounts for the browser tests: made through the app's own HTTP API or screens (never written to
// the database behind the server's back), each with a unique email.

export const PASSWORD = "Troquel-Acero-4140";
export const NEW_PASSWORD = "Rectificadora-Plana-77";

export const SESSION_COOKIE = "forja.session_token";
export const SESSION_HINT_COOKIE = "forja_sesion";
export const ADMIN_MARKER_KEY = "forja:admin-auth";

export const LOGIN_FAILED = "El correo o la contraseña no son correctos.";

export interface Customer {
  id: string;
  name: string;
  email: string;
  password: string;
  company?: string;
  phone?: string;
}

export const STAFF = {
  get email() {
    return required("E2E_STAFF_EMAIL");
  },
  get password() {
    return required("E2E_STAFF_PASSWORD");
  },
  get name() {
    return required("E2E_STAFF_NAME");
  },
};

/** An admin who signs in in two steps, not exempt as STAFF is (docs/decisions/0061; tests/e2e/global-setup.ts). */
export const TWO_STEP_ADMIN = {
  get email() {
    return required("E2E_TWO_STEP_ADMIN_EMAIL");
  },
  get password() {
    return required("E2E_TWO_STEP_ADMIN_PASSWORD");
  },
  get name() {
    return required("E2E_TWO_STEP_ADMIN_NAME");
  },
};

export const OIDC = {
  get issuer() {
    return required("E2E_OIDC_ISSUER");
  },
  get name() {
    return required("E2E_OIDC_NAME");
  },
};

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} no está definido: global-setup no preparó el entorno de pruebas.`);
  return value;
}

export function baseUrl(): string {
  return required("E2E_BASE_URL");
}

/** A short token unique to this run and call, for emails and searchable names. */
export function uniqueToken(): string {
  return `${Date.now().toString(36)}${randomBytes(3).toString("hex")}`;
}

export function uniqueEmail(label = "cliente"): string {
  return `${label}.${uniqueToken()}@correo.example`;
}

/** Same-origin JSON POST headers, as a browser on the site would send them. */
function jsonHeaders(): Record<string, string> {
  return { origin: baseUrl(), "content-type": "application/json" };
}

/**
 * Registers a customer through better-auth's HTTP API (POST /api/sesion/sign-up/email). The request
 * context that makes the call keeps the session cookie; pass a browser context's `request` to sign
 * that browser in.
 */
export async function createCustomer(request: APIRequestContext, overrides: Partial<Omit<Customer, "id">> = {}): Promise<Customer> {
  const token = uniqueToken();
  const customer = {
    name: overrides.name ?? `Cliente Prueba ${token}`,
    email: overrides.email ?? uniqueEmail(),
    password: overrides.password ?? PASSWORD,
    company: overrides.company,
    phone: overrides.phone,
  };
  const response = await request.post("/api/sesion/sign-up/email", { headers: jsonHeaders(), data: customer });
  expect(response.status(), `registro de ${customer.email}: ${await response.text()}`).toBe(200);
  const body = (await response.json()) as { user: { id: string } };
  return { ...customer, id: body.user.id };
}

/** Signs in through the API; returns the bearer token (set-auth-token) and the response. */
export async function signInApi(request: APIRequestContext, email: string, password: string) {
  const response = await request.post("/api/sesion/sign-in/email", { headers: jsonHeaders(), data: { email, password } });
  return { response, token: response.headers()["set-auth-token"] };
}

/** Fills and submits /login (the page must already be there, or `open` it first). */
export async function submitLogin(page: Page, email: string, password: string): Promise<void> {
  const form = page.locator("main form").filter({ has: page.getByLabel("Correo electrónico") });
  await form.getByLabel("Correo electrónico").fill(email);
  await form.getByLabel("Contraseña", { exact: true }).fill(password);
  await form.getByRole("button", { name: "Iniciar sesión" }).click();
}

/** Signs in on the /login screen and waits until the browser has left it. */
export async function signInWithForm(page: Page, email: string, password: string, redirectTo?: string): Promise<void> {
  await page.goto(redirectTo ? `/login?redirectTo=${encodeURIComponent(redirectTo)}` : "/login");
  await waitForHydration(page);
  await submitLogin(page, email, password);
  await page.waitForURL((url) => url.pathname !== "/login");
}

/** The subject of the email with a one-time sign-in code (docs/decisions/0061). */
export const CODE_SUBJECT = /^Su código para entrar a Forja: \d{8}$/;

/** The 8-digit code of a code email. */
export function codeInMail(mail: { text: string }): string {
  const code = /\b(\d{8})\b/.exec(mail.text)?.[1];
  if (!code) throw new Error(`el correo no trae un código de 8 dígitos:\n${mail.text}`);
  return code;
}

/**
 * Signs in on /admin/login. An admin's right password leads to the second step (docs/decisions/0061):
 * the code is read from the test SMTP server and typed in, as the person would. Waits until the
 * page answered: the admin area, or the login page with its error.
 */
export async function signInStaffWithForm(page: Page, email = STAFF.email, password = STAFF.password): Promise<void> {
  await page.goto("/admin/login");
  await waitForHydration(page);
  await submitStaffLogin(page, email, password);
}

/** Fills and submits /admin/login (the page must already be there), with an admin's second step as signInStaffWithForm. */
export async function submitStaffLogin(page: Page, email: string, password: string): Promise<void> {
  const codesBefore = (await listMail(email, CODE_SUBJECT)).length;
  await page.getByLabel("Correo electrónico").fill(email);
  await page.getByLabel("Contraseña", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Entrar al panel" }).click();
  const codeField = page.getByLabel("Código del correo");
  const answered = page.getByRole("alert").or(page.locator("[id$='-error']")).first();
  await expect(async () => {
    const left = new URL(page.url()).pathname !== "/admin/login";
    expect(left || (await codeField.isVisible()) || (await answered.isVisible())).toBe(true);
  }).toPass({ timeout: 15_000 });
  if (!(await codeField.isVisible())) return;
  // Parallel workers may sign the same admin in at once, so a new code email may be another
  // sign-in's: try the new ones in order (a code works only for its own sign-in; a few wrong
  // tries are within the limit), until the panel opens.
  for (let next = codesBefore; next < codesBefore + 4; next += 1) {
    const mails = await waitForMail(email, { subject: CODE_SUBJECT, count: next + 1 });
    await codeField.fill(codeInMail(mails[next]!));
    const answered = page.waitForResponse((response) => new URL(response.url()).pathname.startsWith("/admin/login") && response.request().method() === "POST");
    await page.getByRole("button", { name: "Entrar al panel" }).click();
    await answered;
    const signedIn = await page.waitForURL((url) => url.pathname !== "/admin/login", { timeout: 5_000 }).then(
      () => true,
      () => false,
    );
    if (signedIn) return;
  }
  throw new Error(`ningún código recibido por ${email} abrió el panel`);
}

/** Chooses who the OpenID Connect test server signs in as, for this browser context. */
export async function useOidcIdentity(context: BrowserContext, identity: OidcIdentity): Promise<void> {
  const issuer = new URL(OIDC.issuer);
  await context.addCookies([
    { name: OIDC_IDENTITY_COOKIE, value: encodeOidcIdentity(identity), domain: issuer.hostname, path: "/authorize", httpOnly: true, sameSite: "Lax" },
  ]);
}

/** The current user as GET /api/users/me reports it for this request context (null on 401). */
export async function currentUser(request: APIRequestContext): Promise<{ id: string; email: string; name: string } | null> {
  const response = await request.get("/api/users/me");
  if (response.status() === 401) return null;
  expect(response.status()).toBe(200);
  // The seed's user object itself (docs/decisions/0017): the name is its `username`.
  const user = (await response.json()) as { id: string; email: string; username: string };
  return { id: user.id, email: user.email, name: user.username };
}

export interface RegistrationInput {
  name: string;
  email: string;
  company?: string;
  phone?: string;
  password: string;
  passwordConfirm?: string;
  privacy?: boolean;
}

/** Fills /registro (the page must be open) and submits it. */
export async function submitRegistration(page: Page, input: RegistrationInput): Promise<void> {
  const form = page.locator("main form").filter({ has: page.getByLabel("Nombre completo") });
  await form.getByLabel("Nombre completo").fill(input.name);
  await form.getByLabel("Correo electrónico").fill(input.email);
  await form.getByLabel("Empresa").fill(input.company ?? "");
  await form.getByLabel("Teléfono o WhatsApp").fill(input.phone ?? "");
  await form.getByLabel("Contraseña", { exact: true }).fill(input.password);
  await form.getByLabel("Repita la contraseña").fill(input.passwordConfirm ?? input.password);
  await form.getByLabel(/acepto el aviso de privacidad/).setChecked(input.privacy ?? true);
  await form.getByRole("button", { name: "Crear cuenta" }).click();
}

/** The header's account link (desktop header; the mobile menu holds a second one). */
export function headerAccountLink(page: Page) {
  return page.getByRole("banner").getByTestId("account-link").first();
}
