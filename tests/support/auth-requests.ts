import { desc, eq } from "drizzle-orm";
import { expect } from "vitest";
import { getDb } from "~/db/client.server";
import { session, user } from "~/db/schema/auth";
import { outbox } from "~/db/schema/outbox";
import { renderedMail } from "~/services/mail/outbox.server";
import { getSessionUser, type SessionUser } from "~/features/accounts/accounts.server";
import { SESSION_COOKIE_PREFIX } from "~/features/accounts/auth.server";
import { exemptFromMfa } from "~/features/accounts/mfa.server";
import { registerCustomer } from "~/features/accounts/registration.server";
import { signIn, signInStaff } from "~/features/accounts/sign-in.server";
import { upsertStaffAccount } from "~/features/accounts/staff-account.server";
import type { RequestMeta } from "~/lib/request-meta";
import { failureMessages, type Failure } from "~/lib/result";

// Small helpers for integration tests of the account functions: build the RequestMeta a route
// would pass (a real Request with the browser's cookie), and turn Set-Cookie lines into a Cookie
// header the way a browser would.

let ipCounter = 0;

/** A fresh loopback-looking client IP per call, so rate-limited screens do not share counters. */
export function nextTestIp(): string {
  ipCounter += 1;
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
}

export function requestMeta(path = "/", options: { cookie?: string; authorization?: string; ip?: string; method?: string; headers?: Record<string, string> } = {},
): RequestMeta {
  const headers: Record<string, string> = { "user-agent": "vitest", ...options.headers };
  if (options.cookie) headers.cookie = options.cookie;
  if (options.authorization) headers.authorization = options.authorization;
  return {
    request: new Request(`http://localhost${path}`, { method: options.method ?? "GET", headers }),
    ip: options.ip ?? "127.0.0.1",
  };
}

/** The `name=value` pairs a browser would send back for these Set-Cookie lines (expired ones dropped). */
export function cookieHeaderFrom(headers: Headers): string {
  return headers
    .getSetCookie()
    .filter((line) => !/;\s*max-age=0\b/i.test(line) && !/^[^=]+=;/.test(line))
    .map((line) => line.split(";")[0])
    .join("; ");
}

/** Every message of a refusal in one line, for a test's error. */
export function failureText(failure: Failure): string {
  const { formErrors, fieldErrors } = failureMessages(failure);
  return [...formErrors, ...Object.values(fieldErrors).flat()].join(" ");
}

/** Creates (or updates) a staff account and signs it in at /admin/login; the Cookie header of its session. */
export async function signedInStaffCookie(email: string, password = "Panel-Forja-Seguro-1", name = "Personal Forja"): Promise<string> {
  return (await signedInStaff(email, password, name)).cookie;
}

/**
 * Creates (or updates) a staff account and signs it in with its password: who it is and the Cookie
 * header of its session. The account is exempt from the admins' second step (exemptFromMfa,
 * docs/decisions/0061), so the API clients of the fixtures sign in with the password alone; the
 * two-step sign-in has its own tests (one-time-codes.server.test.ts, records-auth-otp.sdk.test.ts).
 */
export async function signedInStaff(email: string, password = "Panel-Forja-Seguro-1", name = "Personal Forja"): Promise<{ user: SessionUser; cookie: string }> {
  await upsertStaffAccount({ email, password, name });
  const staff = await signInStaff(requestMeta("/admin/login", { ip: nextTestIp(), method: "POST" }), { email, password });
  if (!staff.ok) throw new Error(failureText(staff));
  await exemptFromMfa(staff.value.user.id);
  return { user: staff.value.user, cookie: cookieHeaderFrom(staff.value.headers) };
}

/** Exempts the staff account of `email` from the admins' second step (see signedInStaff); for accounts made with upsertStaffAccount. */
export async function exemptStaffFromMfa(email: string): Promise<void> {
  const [row] = await getDb().select({ id: user.id }).from(user).where(eq(user.email, email.toLowerCase())).limit(1);
  if (!row) throw new Error(`no account for ${email}`);
  await exemptFromMfa(row.id);
}

/** Registers a customer as /registro does; its id, the user and the Cookie header of its session. */
export async function registeredCustomer(name: string, email: string, password = "Fresadora-CNC-42"): Promise<{ id: string; user: SessionUser; cookie: string }> {
  const customer = await registerCustomer(requestMeta("/registro", { ip: nextTestIp(), method: "POST" }), { name, email, password });
  if (!customer.ok) throw new Error(failureText(customer));
  return { id: customer.value.user.id, user: customer.value.user, cookie: cookieHeaderFrom(customer.value.headers) };
}

/** A staff member whose account row is inserted directly (see insertTestStaff), so events, notes and quotes can point at them. */
export const TEST_STAFF: { id: string; name: string } = { id: `staff-${process.pid}`, name: "Laura Méndez" };

/** Inserts TEST_STAFF's account row (an admin with a confirmed email). */
export async function insertTestStaff(): Promise<void> {
  await getDb().insert(user).values({ id: TEST_STAFF.id, name: TEST_STAFF.name, email: `laura-${process.pid}@forja.mx`, role: "admin", emailVerified: true });
}

// Helpers shared by the accounts feature's own test files.

export const TEST_PASSWORD = "Fresadora-CNC-42";
/** The name of the session cookie better-auth sets. */
export const SESSION_COOKIE = `${SESSION_COOKIE_PREFIX}.session_token`;
let emailCounter = 0;

/** An email no other test (or parallel worker) uses. */
export function uniqueEmail(label: string): string {
  emailCounter += 1;
  return `${label}-${emailCounter}-${process.pid}@ejemplo.mx`;
}

/** Registers a fresh customer; the user, the Set-Cookie headers and the Cookie header of the session. */
export async function registerTestCustomer(label: string, extra: { company?: string; phone?: string; name?: string } = {}) {
  const email = uniqueEmail(label);
  const result = await registerCustomer(requestMeta("/cuenta/registro", { ip: nextTestIp(), method: "POST" }), {
    name: extra.name ?? "Cliente de Prueba",
    email,
    password: TEST_PASSWORD,
    company: extra.company,
    phone: extra.phone,
  });
  if (!result.ok) throw new Error(`register failed: ${failureText(result)}`);
  return { email, user: result.value.user, headers: result.value.headers, cookie: cookieHeaderFrom(result.value.headers) };
}

/** Signs in at /login; the user and the session's headers and Cookie header. */
export async function signInTestCustomer(email: string, password = TEST_PASSWORD) {
  const result = await signIn(requestMeta("/login", { ip: nextTestIp(), method: "POST" }), { email, password });
  if (!result.ok) throw new Error(`sign-in failed: ${failureText(result)}`);
  return { user: result.value.user, headers: result.value.headers, cookie: cookieHeaderFrom(result.value.headers) };
}

/** The account's email counts as confirmed, as if its owner had opened the emailed link. */
export async function markEmailConfirmed(userId: string): Promise<void> {
  await getDb().update(user).set({ emailVerified: true }).where(eq(user.id, userId));
}

/** Who a Cookie header signs in, or null. */
export function whoIs(cookie: string): Promise<SessionUser | null> {
  return getSessionUser(requestMeta("/cuenta", { cookie }));
}

export async function sessionCount(userId: string): Promise<number> {
  return (await getDb().select({ id: session.id }).from(session).where(eq(session.userId, userId))).length;
}

/** Mail queued for an address, newest first, as it will be sent (rendered). */
export async function outboxFor(email: string) {
  return (await getDb().select().from(outbox).where(eq(outbox.to, email)).orderBy(desc(outbox.createdAt))).map(renderedMail);
}

/** The token of a link to `path` in a mail; the plain text and the HTML must carry the same one. */
export function tokenFromMail(mail: { html: string; text: string }, path: string): string {
  const pattern = new RegExp(`${path.replace(/[/?]/g, "\\$&")}\\?token=([^\\s"'<>&]+)`);
  const inText = mail.text.match(pattern);
  const inHtml = mail.html.match(pattern);
  expect(inText, `the plain text names ${path}?token=…`).not.toBeNull();
  expect(inHtml, `the HTML names ${path}?token=…`).not.toBeNull();
  expect(decodeURIComponent(inHtml![1])).toBe(decodeURIComponent(inText![1]));
  return decodeURIComponent(inText![1]);
}
