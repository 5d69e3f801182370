import type PocketBase from "pocketbase";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// Email change of the record API (docs/decisions/0062) through the official `pocketbase` SDK,
// unchanged, against the real production server over HTTP, with the link read from the mail a real
// SMTP server received: requestEmailChange → the link at the NEW address → confirmEmailChange with
// the password → the new email signs in and the old one does not, the old address is told, every
// token of the account dies; and PocketBase's refusals (taken or same address, wrong password,
// used token, superusers, no token).

await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("records-email-change-sdk"));

import { registerCustomer } from "~/features/accounts/registration.server";
import { requestMeta, signedInStaff, tokenFromMail } from "../../../tests/support/auth-requests";
import { ownAddressClients, sdkFailure } from "../../../tests/support/sdk-client";
import { startSmtpTestServer, type ReceivedMail, type SmtpTestServer } from "../../../tests/support/smtp-test-server";
import { startTestServer, type TestServer } from "../../../tests/support/test-server";

const MAIL_TIMEOUT_MS = 20_000;
const A = { name: "Andrea Cambio", email: `andrea-cambio-${process.pid}@ejemplo.mx`, password: "Fresadora-CNC-42" };
const B = { name: "Bruno Cambio", email: `bruno-cambio-${process.pid}@ejemplo.mx`, password: "Torno-Paralelo-77" };
const C = { name: "Carla Cambio", email: `carla-cambio-${process.pid}@ejemplo.mx`, password: "Prensa-Hidraulica-9" };
const STAFF = { name: "Personal Cambio", email: `personal-cambio-${process.pid}@forja.mx`, password: "Panel-Forja-Seguro-1" };
const CHANGE_SUBJECT = "Confirme su correo nuevo en Forja";
const NOTICE_SUBJECT = "El correo de su cuenta de Forja cambió";
const VALIDATE = "An error occurred while validating the submitted data.";

let server: TestServer | undefined;
let smtp: SmtpTestServer | undefined;

beforeAll(async () => {
  smtp = await startSmtpTestServer();
  server = await startTestServer({
    env: { SMTP_URL: smtp.url },
    prepare: async () => {
      for (const customer of [A, B, C]) {
        const registered = await registerCustomer(requestMeta("/registro", { method: "POST" }), customer);
        if (!registered.ok) throw new Error(`${customer.email} not registered`);
      }
      // Exempt from the admins' second step, so the SDK signs in with the password alone.
      await signedInStaff(STAFF.email, STAFF.password, STAFF.name);
    },
  });
}, 420_000);

afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
}, 60_000);

/** A client of its own address, so per-IP limits do not mix. */
const client = ownAddressClients(() => server!.url, "198.51.100");

async function signedIn(collection: "users" | "_superusers", account: { email: string; password: string }): Promise<PocketBase> {
  const pb = client();
  await pb.collection(collection).authWithPassword(account.email, account.password);
  return pb;
}

/** Mail to `to` with `subject`, waiting until there are at least `count` of them; newest last. */
const mailsTo = (to: string, subject: string, count: number) => smtp!.mailsTo(to, subject, count, MAIL_TIMEOUT_MS);

const linkToken = (mail: ReceivedMail) => tokenFromMail({ html: mail.parsed.html ?? "", text: mail.parsed.text ?? "" }, "/cuenta/confirmar-correo");

describe("request-email-change and confirm-email-change through the SDK", { timeout: 90_000 }, () => {
  it("mails the link to the new address; the right password changes the email, ends every token and tells the old address", async () => {
    const newEmail = `andrea-nuevo-${process.pid}@ejemplo.mx`;
    const a = await signedIn("users", A);
    const otherDevice = await signedIn("users", A);
    expect(await a.collection("users").requestEmailChange(newEmail)).toBe(true);
    const [mail] = await mailsTo(newEmail, CHANGE_SUBJECT, 1);
    expect(mail!.parsed.text).toContain("escriba la contraseña de su cuenta");
    const token = linkToken(mail!);
    // Nothing changes before the confirmation.
    expect((await a.collection("users").authRefresh()).record.email).toBe(A.email);

    // A wrong password: PocketBase's field error, the email stays.
    const wrong = await sdkFailure(client().collection("users").confirmEmailChange(token, "No-Es-Esta-1"));
    expect(wrong.status).toBe(400);
    expect(wrong.response).toEqual({ status: 400, message: VALIDATE, data: { password: { code: "validation_invalid_password", message: "Missing or invalid auth record password." } } });
    expect((await a.collection("users").authRefresh()).record.email).toBe(A.email);

    // The right one, from the signed-in client: the SDK clears its own auth store (the token names the record).
    expect(await a.collection("users").confirmEmailChange(token, A.password)).toBe(true);
    expect(a.authStore.token).toBe("");
    // Every other token of the account stopped working (PocketBase renews the token key).
    expect((await sdkFailure(otherDevice.collection("users").authRefresh())).status).toBe(401);

    const renewed = await client().collection("users").authWithPassword(newEmail, A.password);
    expect(renewed.record).toMatchObject({ email: newEmail, verified: true, name: A.name });
    expect((await sdkFailure(client().collection("users").authWithPassword(A.email, A.password))).status).toBe(400);

    const [notice] = await mailsTo(A.email, NOTICE_SUBJECT, 1);
    expect(notice!.parsed.text).toContain(newEmail);
    expect(notice!.parsed.text).toContain("Si usted no hizo este cambio");

    // The link is single-use.
    const reused = await sdkFailure(client().collection("users").confirmEmailChange(token, A.password));
    expect(reused.response).toMatchObject({ status: 400, message: VALIDATE, data: { token: { code: "validation_invalid_token" } } });
    A.email = newEmail;
  });

  it("refuses an address another account uses, and the account's own address, with PocketBase's codes", async () => {
    const b = await signedIn("users", B);
    for (const taken of [C.email, STAFF.email, C.email.toUpperCase()]) {
      const refused = await sdkFailure(b.collection("users").requestEmailChange(taken));
      expect(refused.response).toEqual({ status: 400, message: VALIDATE, data: { newEmail: { code: "validation_invalid_new_email", message: "Invalid new email address." } } });
    }
    const same = await sdkFailure(b.collection("users").requestEmailChange(B.email));
    expect(same.response).toMatchObject({ status: 400, data: { newEmail: { code: "validation_not_in_invalid" } } });
    expect((await sdkFailure(b.collection("users").requestEmailChange("no-es-correo"))).response).toMatchObject({ data: { newEmail: { code: "validation_is_email" } } });
    expect((await sdkFailure(b.collection("users").requestEmailChange(""))).response).toMatchObject({ data: { newEmail: { code: "validation_required" } } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp!.received.filter((mail) => mail.parsed.subject === CHANGE_SUBJECT && [C.email, STAFF.email, B.email].some((to) => mail.envelopeTo.includes(to)))).toEqual([]);
  });

  it("a link whose new address was taken meanwhile is refused at confirmation, and the email stays", async () => {
    const wanted = `disputado-${process.pid}@ejemplo.mx`;
    const b = await signedIn("users", B);
    await b.collection("users").requestEmailChange(wanted);
    const c = await signedIn("users", C);
    await c.collection("users").requestEmailChange(wanted);
    const tokens = (await mailsTo(wanted, CHANGE_SUBJECT, 2)).map(linkToken);
    // The token says whose account it is, as PocketBase's (the SDK reads it too).
    const tokenOf = (email: string) => tokens.find((token) => (JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString("utf8")) as { email: string }).email === email)!;
    expect(await client().collection("users").confirmEmailChange(tokenOf(C.email), C.password)).toBe(true);
    const refused = await sdkFailure(client().collection("users").confirmEmailChange(tokenOf(B.email), B.password));
    expect(refused.response).toMatchObject({ status: 400, data: { token: { code: "validation_invalid_token_email" } } });
    expect((await client().collection("users").authWithPassword(B.email, B.password)).record.email).toBe(B.email);
    C.email = wanted;
  });

  it("answers PocketBase's refusals: no token 401, a superuser 403 or 400, a forged or blank token 400", async () => {
    expect((await sdkFailure(client().collection("users").requestEmailChange(`x-${process.pid}@ejemplo.mx`))).status).toBe(401);
    const staff = await signedIn("_superusers", STAFF);
    expect((await sdkFailure(staff.collection("users").requestEmailChange(`x-${process.pid}@ejemplo.mx`))).response).toMatchObject({ status: 403, message: "The request requires auth record from _superusers collection." });
    expect((await sdkFailure(staff.collection("_superusers").requestEmailChange(`x-${process.pid}@ejemplo.mx`))).response).toMatchObject({ status: 400, message: "All superusers can change their emails directly." });
    expect((await sdkFailure(client().collection("users").confirmEmailChange("no-es-un-token", "algo"))).response).toMatchObject({ status: 400, data: { token: { code: "validation_invalid_token_payload" } } });
    const forged = `${Buffer.from('{"alg":"HS256","typ":"JWT"}').toString("base64url")}.${Buffer.from(JSON.stringify({ type: "emailChange", newEmail: "yo@ejemplo.mx" })).toString("base64url")}.firma`;
    expect((await sdkFailure(client().collection("users").confirmEmailChange(forged, "algo"))).response).toMatchObject({ status: 400, data: { token: { code: "validation_invalid_token" } } });
    expect((await sdkFailure(client().collection("users").confirmEmailChange("", ""))).response).toMatchObject({ status: 400, data: { token: { code: "validation_required" }, password: { code: "validation_required" } } });
  });
});
