import type PocketBase from "pocketbase";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// One-time codes and the admins' two-step sign-in (docs/decisions/0061) through the official
// `pocketbase` SDK, unchanged, against the real production server over HTTP, with each code read
// from the email a real SMTP server received: requestOTP + authWithOTP, an unknown address, single
// use, the wrong-code limit, the request limit, the other collection, and PocketBase's MFA flow for
// an admin (401 {mfaId} → the other method with mfaId → token), which a customer never sees.
// A code's expiry is checked on the database in one-time-codes.server.test.ts (3 minutes is too long to wait here).

await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("records-auth-otp-sdk"));

import { registerCustomer } from "~/features/accounts/registration.server";
import { upsertStaffAccount } from "~/features/accounts/staff-account.server";
import { markEmailConfirmed, requestMeta } from "../../../tests/support/auth-requests";
import { ownAddressClients, sdkFailure } from "../../../tests/support/sdk-client";
import { startSmtpTestServer, type SmtpTestServer } from "../../../tests/support/smtp-test-server";
import { startTestServer, type TestServer } from "../../../tests/support/test-server";

const MAIL_TIMEOUT_MS = 20_000;
const CUSTOMER = { name: "Olga Cliente", email: `olga-otp-${process.pid}@ejemplo.mx`, password: "Fresadora-CNC-42" };
const ADMIN = { name: "Admin Dos Pasos", email: `admin-otp-${process.pid}@forja.mx`, password: "Panel-Forja-Seguro-1" };
const CODE_SUBJECT = /^Su código para entrar a Forja: \d{8}$/;
const INVALID_OTP = { status: 400, message: "Invalid or expired OTP", data: {} };

let server: TestServer | undefined;
let smtp: SmtpTestServer | undefined;

beforeAll(async () => {
  smtp = await startSmtpTestServer();
  server = await startTestServer({
    env: { SMTP_URL: smtp.url },
    prepare: async () => {
      const registered = await registerCustomer(requestMeta("/registro", { method: "POST" }), CUSTOMER);
      if (!registered.ok) throw new Error("customer not registered");
      // A customer who already confirmed the email (a code on an unconfirmed account is tested below).
      await markEmailConfirmed(registered.value.user.id);
      await upsertStaffAccount(ADMIN);
    },
  });
}, 420_000);

afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
}, 60_000);

/** A client of its own address, so per-IP limits do not mix. */
const client = ownAddressClients(() => server!.url, "203.0.113");

function codeMails(to: string) {
  return smtp!.received.filter((mail) => mail.envelopeTo.includes(to) && CODE_SUBJECT.test(mail.parsed.subject ?? ""));
}

/** The code of the `nth` (1-based) code email to `to`, once it arrives; text and HTML carry the same one. */
async function codeNumber(to: string, nth: number): Promise<string> {
  const deadline = Date.now() + MAIL_TIMEOUT_MS;
  while (codeMails(to).length < nth) {
    if (Date.now() > deadline) throw new Error(`no code email #${nth} for ${to}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const mail = codeMails(to)[nth - 1]!;
  const code = /\b(\d{8})\b/.exec(mail.parsed.text ?? "")?.[1];
  expect(code, "the plain text carries an 8-digit code").toBeDefined();
  expect(mail.parsed.html).toContain(code);
  return code!;
}

/** Asks for a code for `email` and reads it from the mail. */
async function requestCode(pb: PocketBase, collection: "users" | "_superusers", email: string): Promise<{ otpId: string; code: string }> {
  const before = codeMails(email).length;
  const { otpId } = await pb.collection(collection).requestOTP(email);
  return { otpId, code: await codeNumber(email, before + 1) };
}

const wrongCode = (code: string) => (code === "00000000" ? "11111111" : "00000000");

describe("request-otp and auth-with-otp", () => {
  it("signs a customer in with the emailed code, once", async () => {
    const pb = client();
    const { otpId, code } = await requestCode(pb, "users", CUSTOMER.email);
    expect(otpId).toMatch(/^[a-z0-9]{15}$/);
    const auth = await pb.collection("users").authWithOTP(otpId, code);
    expect(auth.record).toMatchObject({ email: CUSTOMER.email, collectionName: "users" });
    expect(pb.authStore.isValid).toBe(true);
    expect((await pb.collection("users").authRefresh()).record.email).toBe(CUSTOMER.email);
    expect((await sdkFailure(client().collection("users").authWithOTP(otpId, code))).response).toEqual(INVALID_OTP);
  });

  it("on an account never confirmed, confirms the email and ends the password and tokens of whoever registered it", async () => {
    const email = `sin-confirmar-otp-${process.pid}@ejemplo.mx`;
    const registrationPassword = "Clave-del-registro-9";
    // Registered through the seed's Strapi call, which needs no proof of the mailbox.
    const registered = await fetch(`${server!.url}/api/auth/local/register`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": "203.0.113.250" },
      body: JSON.stringify({ username: "Quien Registró", email, password: registrationPassword }),
    });
    expect(registered.status).toBe(200);
    const registrant = client();
    const first = await registrant.collection("users").authWithPassword(email, registrationPassword);
    expect(first.record.verified).toBe(false);

    const owner = client();
    const { otpId, code } = await requestCode(owner, "users", email);
    const auth = await owner.collection("users").authWithOTP(otpId, code);
    expect(auth.record).toMatchObject({ email, verified: true });

    expect((await sdkFailure(registrant.collection("users").authRefresh())).status).toBe(401);
    const again = await sdkFailure(client().collection("users").authWithPassword(email, registrationPassword));
    expect(again.response).toEqual({ status: 400, message: "Failed to authenticate.", data: {} });
    expect((await owner.collection("users").authRefresh()).record).toMatchObject({ email, verified: true });

    // Confirmed now: the next code changes nothing, and the owner's token lives on.
    const next = await requestCode(client(), "users", email);
    await client().collection("users").authWithOTP(next.otpId, next.code);
    expect((await owner.collection("users").authRefresh()).record.email).toBe(email);
  });

  it("answers an otpId for an unknown address and mails nothing", async () => {
    const unknown = `nadie-otp-${process.pid}@ejemplo.mx`;
    const { otpId } = await client().collection("users").requestOTP(unknown);
    expect(otpId).toMatch(/^[a-z0-9]{15}$/);
    // A later request for a real account is delivered; the unknown address still has nothing.
    await requestCode(client(), "users", CUSTOMER.email);
    expect(smtp!.received.filter((mail) => mail.envelopeTo.includes(unknown))).toEqual([]);
    expect((await sdkFailure(client().collection("users").authWithOTP(otpId, "12345678"))).response).toEqual(INVALID_OTP);
  });

  it("validates the body as PocketBase does", async () => {
    const failure = await sdkFailure(client().collection("users").requestOTP("no-es-correo"));
    expect(failure.response).toEqual({ status: 400, message: "An error occurred while validating the submitted data.", data: { email: { code: "validation_is_email", message: "Must be a valid email address." } } });
    const blank = await sdkFailure(client().collection("users").authWithOTP("", ""));
    expect(Object.keys(blank.response.data as object).sort()).toEqual(["otpId", "password"]);
  });

  it("kills a code after 5 wrong tries", async () => {
    const { otpId, code } = await requestCode(client(), "users", CUSTOMER.email);
    const pb = client();
    for (let i = 0; i < 5; i += 1) expect((await sdkFailure(pb.collection("users").authWithOTP(otpId, wrongCode(code)))).response).toEqual(INVALID_OTP);
    expect((await sdkFailure(client().collection("users").authWithOTP(otpId, code))).response).toEqual(INVALID_OTP);
  });

  it("accepts a code only in the collection it was asked for", async () => {
    const { otpId, code } = await requestCode(client(), "users", CUSTOMER.email);
    expect((await sdkFailure(client().collection("_superusers").authWithOTP(otpId, code))).response).toEqual(INVALID_OTP);
    expect((await client().collection("users").authWithOTP(otpId, code)).record.email).toBe(CUSTOMER.email);
  });

  it("limits the codes one address asks for (429 after 5 in 10 minutes)", async () => {
    const pb = client();
    for (let i = 0; i < 5; i += 1) await pb.collection("users").requestOTP(`limite-${i}-${process.pid}@ejemplo.mx`);
    const refused = await sdkFailure(pb.collection("users").requestOTP(`limite-x-${process.pid}@ejemplo.mx`));
    expect(refused.status).toBe(429);
    expect(Number(refused.response.status)).toBe(429);
  });
});

describe("the admins' second step (PocketBase's MFA)", () => {
  it("answers an admin's right password with 401 {mfaId}, and signs in with the emailed code and that mfaId", async () => {
    const pb = client();
    const first = await sdkFailure(pb.collection("_superusers").authWithPassword(ADMIN.email, ADMIN.password));
    expect(first.status).toBe(401);
    expect(Object.keys(first.response)).toEqual(["mfaId"]);
    const { mfaId } = first.response as { mfaId: string };
    expect(pb.authStore.isValid).toBe(false);

    const { otpId, code } = await requestCode(pb, "_superusers", ADMIN.email);
    const auth = await pb.collection("_superusers").authWithOTP(otpId, code, { mfaId });
    expect(auth.record).toMatchObject({ email: ADMIN.email, collectionName: "_superusers" });
    expect(pb.authStore.isValid).toBe(true);
    // The mfaId was used up.
    const again = await requestCode(client(), "_superusers", ADMIN.email);
    expect((await sdkFailure(client().collection("_superusers").authWithOTP(again.otpId, again.code, { mfaId }))).response).toEqual({ status: 400, message: "Invalid or expired MFA session.", data: {} });
  });

  it("refuses a wrong password as before, without an mfaId", async () => {
    const failure = await sdkFailure(client().collection("_superusers").authWithPassword(ADMIN.email, "Otra-Clave-Mala-9"));
    expect(failure.response).toEqual({ status: 400, message: "Failed to authenticate.", data: {} });
  });

  it("also starts with the code: 401 {mfaId}, then the password with it", async () => {
    const pb = client();
    const { otpId, code } = await requestCode(pb, "_superusers", ADMIN.email);
    const first = await sdkFailure(pb.collection("_superusers").authWithOTP(otpId, code));
    expect(first.status).toBe(401);
    const { mfaId } = first.response as { mfaId: string };
    const auth = await pb.collection("_superusers").authWithPassword(ADMIN.email, ADMIN.password, { mfaId });
    expect(auth.record.email).toBe(ADMIN.email);
  });

  it("asks for a different method the second time", async () => {
    const first = await sdkFailure(client().collection("_superusers").authWithPassword(ADMIN.email, ADMIN.password));
    const { mfaId } = first.response as { mfaId: string };
    const second = await sdkFailure(client().collection("_superusers").authWithPassword(ADMIN.email, ADMIN.password, { mfaId }));
    expect(second.response).toEqual({ status: 400, message: "A different authentication method is required.", data: {} });
  });

  it("never asks a customer for a second step", async () => {
    const auth = await client().collection("users").authWithPassword(CUSTOMER.email, CUSTOMER.password);
    expect(auth.record.email).toBe(CUSTOMER.email);
  });
});
