import { describe, expect, it, vi } from "vitest";

// One-time codes and the staff's second step on a real database and real better-auth
// (docs/decisions/0061): the code's life (expiry, single use, the wrong-try limit), the session a
// proven code opens, and the panel's two steps. The record API's shapes are records-auth-otp.sdk.test.ts.
const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/feature-test-env")).isolateAccountsTestEnv("accounts-one-time-codes"));

import { eq, like } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { user, verification } from "~/db/schema/auth";
import { cookieHeaderFrom, markEmailConfirmed, nextTestIp, outboxFor, registerTestCustomer, requestMeta, sessionCount, signInTestCustomer, uniqueEmail, whoIs } from "../../../tests/support/auth-requests";
import { useTestFileDatabase } from "../../../tests/support/test-file-database";
import { beginStaffSignIn, CODE_REFUSED, finishStaffSignIn, requestCustomerCode, signInCustomerWithCode } from "./code-sign-in.server";
import { exemptFromMfa, secondFactorStep } from "./mfa.server";
import { ONE_TIME_CODE, openProvenSession, requestOneTimeCode, useOneTimeCode } from "./one-time-codes.server";
import { upsertStaffAccount } from "./staff-account.server";
import { getAuth } from "./auth.server";
import { TEST_EMAIL_TEMPLATES, testEmail } from "./account-emails.server";

useTestFileDatabase(dataDir);

const STAFF_PASSWORD = "Panel-Forja-Seguro-1";

/** The 8-digit code of the newest mail queued for `email`. */
async function codeMailedTo(email: string): Promise<string> {
  const [mail] = await outboxFor(email);
  expect(mail, `a code was mailed to ${email}`).toBeDefined();
  expect(mail!.subject).toMatch(/^Su código para entrar a Forja: \d{8}$/);
  const code = /\b(\d{8})\b/.exec(mail!.text)?.[1];
  expect(code).toBeDefined();
  expect(mail!.html).toContain(code);
  return code!;
}

async function customerWithCode(label: string) {
  const customer = await registerTestCustomer(label);
  const { otpId, delivery } = requestOneTimeCode("customer", customer.email);
  await delivery;
  return { customer, otpId, code: await codeMailedTo(customer.email) };
}

describe("one-time codes", () => {
  it("mails an 8-digit code that signs the customer in once", async () => {
    const { customer, otpId, code } = await customerWithCode("otp-once");
    expect(code).toHaveLength(ONE_TIME_CODE.length);
    expect(await useOneTimeCode("customer", otpId, code)).toBe(customer.user.id);
    expect(await useOneTimeCode("customer", otpId, code)).toBeNull();
  });

  it("stores no code itself, only its HMAC", async () => {
    const { otpId, code } = await customerWithCode("otp-hash");
    const [row] = await getDb().select().from(verification).where(eq(verification.identifier, `otp:${otpId}`));
    expect(row!.value).not.toContain(code);
  });

  it("answers an otpId for an unknown address or an account of the other kind, and mails nothing", async () => {
    const unknown = uniqueEmail("otp-nadie");
    const first = requestOneTimeCode("customer", unknown);
    await first.delivery;
    expect(first.otpId).toMatch(/^[a-z0-9]{15}$/);
    expect(await outboxFor(unknown)).toHaveLength(0);
    const staffEmail = uniqueEmail("otp-personal");
    await upsertStaffAccount({ email: staffEmail, password: STAFF_PASSWORD, name: "Personal Código" });
    await requestOneTimeCode("customer", staffEmail).delivery;
    expect(await outboxFor(staffEmail)).toHaveLength(0);
  });

  it("refuses an expired code", async () => {
    const { otpId, code } = await customerWithCode("otp-vencido");
    await getDb().update(verification).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(verification.identifier, `otp:${otpId}`));
    expect(await useOneTimeCode("customer", otpId, code)).toBeNull();
  });

  it("works only in the collection it was asked for", async () => {
    const { otpId, code } = await customerWithCode("otp-coleccion");
    expect(await useOneTimeCode("staff", otpId, code)).toBeNull();
  });

  it(`dies after ${ONE_TIME_CODE.wrongTries} wrong tries, even if they arrive at once`, async () => {
    const { customer, otpId, code } = await customerWithCode("otp-intentos");
    const wrong = code === "00000000" ? "11111111" : "00000000";
    const tries = await Promise.all(Array.from({ length: ONE_TIME_CODE.wrongTries }, () => useOneTimeCode("customer", otpId, wrong)));
    expect(tries).toEqual(Array(ONE_TIME_CODE.wrongTries).fill(null));
    expect(await useOneTimeCode("customer", otpId, code)).toBeNull();
    // Fewer wrong tries leave the code alive.
    const again = requestOneTimeCode("customer", customer.email);
    await again.delivery;
    const fresh = await codeMailedTo(customer.email);
    for (let i = 0; i < ONE_TIME_CODE.wrongTries - 1; i += 1) expect(await useOneTimeCode("customer", again.otpId, wrong === fresh ? "22222222" : wrong)).toBeNull();
    expect(await useOneTimeCode("customer", again.otpId, fresh)).toBe(customer.user.id);
  });

  it("lets only one of two simultaneous uses of the right code through", async () => {
    const { customer, otpId, code } = await customerWithCode("otp-carrera");
    const results = await Promise.all([useOneTimeCode("customer", otpId, code), useOneTimeCode("customer", otpId, code)]);
    expect(results.filter((value) => value === customer.user.id)).toHaveLength(1);
  });

  it("opens a cookie session through a grant that works once and is not reachable over HTTP", async () => {
    const customer = await registerTestCustomer("otp-sesion");
    const headers = await openProvenSession(requestMeta("/login/codigo", { ip: nextTestIp(), method: "POST" }), customer.user.id);
    expect((await whoIs(cookieHeaderFrom(headers!)))?.id).toBe(customer.user.id);
    expect(headers!.get("set-auth-token")).toBeTruthy();
    expect(await getDb().select().from(verification).where(like(verification.identifier, "code-sign-in:%"))).toHaveLength(0);
    // Server-only: better-auth gives it no path, so its router never serves it.
    const endpoint = getAuth().api.signInWithGrant as unknown as { path?: string; options: { metadata?: { SERVER_ONLY?: boolean } } };
    expect(endpoint.path).toBeUndefined();
    expect(endpoint.options.metadata?.SERVER_ONLY).toBe(true);
    // A grant is needed anyway: without a live one there is no session.
    await expect(getAuth().api.signInWithGrant({ body: { grant: "inventada" } })).rejects.toThrow();
  });
});

describe("the settings' test email", () => {
  it("offers the code email as the template «otp»", async () => {
    expect(TEST_EMAIL_TEMPLATES).toContain("otp");
    const email = await testEmail("otp");
    expect(email?.subject).toBe("Prueba: Su código para entrar a Forja: 12345678");
    expect(email?.text).toContain("vence en 3 minutos");
  });
});

describe("/login/codigo", () => {
  it("signs a customer in with the mailed code, and refuses a wrong one in Spanish", async () => {
    const customer = await registerTestCustomer("otp-pantalla");
    const otpId = requestCustomerCode(customer.email);
    await vi.waitFor(async () => expect(await outboxFor(customer.email)).toHaveLength(2), { timeout: 5000 });
    const code = await codeMailedTo(customer.email);
    const meta = requestMeta("/login/codigo", { ip: nextTestIp(), method: "POST" });
    const wrong = await signInCustomerWithCode(meta, { otpId, code: code === "00000000" ? "11111111" : "00000000" });
    expect(wrong).toEqual({ ok: false, kind: "invalid", fieldErrors: { code: [CODE_REFUSED] }, formErrors: [] });
    const signedIn = await signInCustomerWithCode(meta, { otpId, code });
    expect(signedIn.ok).toBe(true);
    expect((await whoIs(cookieHeaderFrom(signedIn.ok ? signedIn.value : new Headers())))?.id).toBe(customer.user.id);
  });
});

describe("a code on an account whose email was never confirmed", () => {
  it("confirms the email and ends the sessions and the password chosen at registration", async () => {
    const registered = await registerTestCustomer("otp-sin-confirmar");
    expect((await whoIs(registered.cookie))?.id).toBe(registered.user.id);
    const otpId = requestCustomerCode(registered.email);
    await vi.waitFor(async () => expect(await outboxFor(registered.email)).toHaveLength(2), { timeout: 5000 });
    const signedIn = await signInCustomerWithCode(requestMeta("/login/codigo", { ip: nextTestIp(), method: "POST" }), { otpId, code: await codeMailedTo(registered.email) });
    expect(signedIn.ok).toBe(true);

    expect(await whoIs(registered.cookie)).toBeNull();
    expect(await sessionCount(registered.user.id)).toBe(1);
    expect((await whoIs(cookieHeaderFrom(signedIn.ok ? signedIn.value : new Headers())))?.id).toBe(registered.user.id);
    const [row] = await getDb().select({ emailVerified: user.emailVerified }).from(user).where(eq(user.id, registered.user.id));
    expect(row!.emailVerified).toBe(true);
    await expect(signInTestCustomer(registered.email)).rejects.toThrow(/sign-in failed/);
  });

  it("changes nothing on an account already confirmed", async () => {
    const registered = await registerTestCustomer("otp-confirmada");
    await markEmailConfirmed(registered.user.id);
    const { otpId, delivery } = requestOneTimeCode("customer", registered.email);
    await delivery;
    expect(await useOneTimeCode("customer", otpId, await codeMailedTo(registered.email))).toBe(registered.user.id);
    expect((await whoIs(registered.cookie))?.id).toBe(registered.user.id);
    expect((await signInTestCustomer(registered.email)).user.id).toBe(registered.user.id);
  });
});

describe("/admin/login in two steps", () => {
  it("asks an admin for the mailed code after the password, and signs in with it", async () => {
    const email = uniqueEmail("mfa-admin");
    await upsertStaffAccount({ email, password: STAFF_PASSWORD, name: "Admin Dos Pasos" });
    const meta = requestMeta("/admin/login", { ip: nextTestIp(), method: "POST" });
    const first = await beginStaffSignIn(meta, { email, password: STAFF_PASSWORD });
    if (!first.ok || first.value.step !== "code") throw new Error("expected the code step");
    expect(first.value.email).toBe(email);
    const code = await codeMailedTo(email);
    const done = await finishStaffSignIn(meta, { mfaId: first.value.mfaId, otpId: first.value.otpId, code });
    if (!done.ok) throw new Error("expected a session");
    expect((await whoIs(cookieHeaderFrom(done.value)))?.email).toBe(email);
    // The mfaId was used up with it.
    expect(await secondFactorStep({ userId: (await whoIs(cookieHeaderFrom(done.value)))!.id, kind: "staff", method: "otp", mfaId: first.value.mfaId })).toEqual({ step: "refused", problem: "expired" });
  });

  it("keeps no session after the password alone", async () => {
    const email = uniqueEmail("mfa-sin-sesion");
    await upsertStaffAccount({ email, password: STAFF_PASSWORD, name: "Admin Sin Sesión" });
    const first = await beginStaffSignIn(requestMeta("/admin/login", { ip: nextTestIp(), method: "POST" }), { email, password: STAFF_PASSWORD });
    if (!first.ok || first.value.step !== "code") throw new Error("expected the code step");
    const [row] = await getDb().select({ value: verification.value }).from(verification).where(eq(verification.identifier, `mfa:${first.value.mfaId}`));
    const userId = (JSON.parse(row!.value) as { userId: string }).userId;
    expect(await sessionCount(userId)).toBe(0);
  });

  it("refuses an expired mfaId with the right code", async () => {
    const email = uniqueEmail("mfa-vencido");
    await upsertStaffAccount({ email, password: STAFF_PASSWORD, name: "Admin Vencido" });
    const meta = requestMeta("/admin/login", { ip: nextTestIp(), method: "POST" });
    const first = await beginStaffSignIn(meta, { email, password: STAFF_PASSWORD });
    if (!first.ok || first.value.step !== "code") throw new Error("expected the code step");
    await getDb().update(verification).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(verification.identifier, `mfa:${first.value.mfaId}`));
    const done = await finishStaffSignIn(meta, { mfaId: first.value.mfaId, otpId: first.value.otpId, code: await codeMailedTo(email) });
    expect(done).toEqual({ ok: false, kind: "invalid", fieldErrors: {}, formErrors: ["Su acceso en dos pasos venció. Escriba de nuevo su correo y contraseña."] });
  });

  it("signs an exempt admin in with the password alone", async () => {
    const email = uniqueEmail("mfa-exento");
    await upsertStaffAccount({ email, password: STAFF_PASSWORD, name: "Admin Exento" });
    const meta = requestMeta("/admin/login", { ip: nextTestIp(), method: "POST" });
    const probe = await beginStaffSignIn(meta, { email, password: STAFF_PASSWORD });
    if (!probe.ok || probe.value.step !== "code") throw new Error("expected the code step");
    const [row] = await getDb().select({ value: verification.value }).from(verification).where(eq(verification.identifier, `mfa:${probe.value.mfaId}`));
    await exemptFromMfa((JSON.parse(row!.value) as { userId: string }).userId);
    const again = await beginStaffSignIn(meta, { email, password: STAFF_PASSWORD });
    expect(again.ok && again.value.step).toBe("signed-in");
  });
});
