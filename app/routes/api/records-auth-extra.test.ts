import { RouterContextProvider } from "react-router";
import { describe, expect, it, vi } from "vitest";

// The emailed-link and OAuth2 endpoints of the record API (docs/decisions/0018) below the HTTP
// server, on a real database with real better-auth: what the SDK cannot see — which emails are
// queued, which sessions exist afterwards — and PocketBase's answers to malformed bodies. The SDK
// over HTTP, with real SMTP and OIDC servers: records-auth-extra.sdk.test.ts.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/feature-test-env")).isolateAccountsTestEnv("records-auth-extra"));

import { cspNonceContext, clientIpContext } from "~/lib/request-context";
import { nextTestIp, outboxFor, registerTestCustomer, sessionCount, signedInStaff, tokenFromMail, uniqueEmail } from "../../../tests/support/auth-requests";
import { useTestFileDatabase } from "../../../tests/support/test-file-database";
import { action as oauth2Action } from "./records-auth-oauth2";
import { action, loader } from "./records-auth-emails";
import { action as redirectPost, loader as redirectGet } from "./oauth2-redirect";

useTestFileDatabase(dataDir);

const VALIDATE = "An error occurred while validating the submitted data.";
const RESET_SUBJECT = "Restablezca su contraseña de Forja";
const CONFIRM_SUBJECT = "Confirme su correo en Forja";

function args(path: string, init: RequestInit & { ip?: string } = {}) {
  const context = new RouterContextProvider();
  context.set(clientIpContext, init.ip ?? nextTestIp());
  context.set(cspNonceContext, "nonce-de-prueba");
  return { request: new Request(`http://localhost${path}`, init), context, params: { collection: path.split("/")[3] ?? "" } } as never;
}

async function post(collection: string, endpoint: string, body: unknown, options: { raw?: boolean; ip?: string } = {}) {
  const response = await action(args(`/api/collections/${collection}/${endpoint}`, { method: "POST", headers: { "content-type": "application/json" }, body: options.raw ? String(body) : JSON.stringify(body), ip: options.ip }));
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null };
}

/** The mails of `subject` queued for `email`, waiting for the background send to have queued `count`. */
async function queued(email: string, subject: string, count: number) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const mails = (await outboxFor(email)).filter((mail) => mail.subject === subject);
    if (mails.length >= count || Date.now() > deadline) return mails;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A short wait for anything the background send might still queue. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

describe("request-password-reset", () => {
  it("queues Forja's reset email only for an account of the collection's kind, answering 204 every time", async () => {
    const { email } = await registerTestCustomer("api-reset");
    const staffEmail = uniqueEmail("personal-reset");
    await signedInStaff(staffEmail);
    for (const [collection, address] of [
      ["users", staffEmail],
      ["_superusers", email],
      ["users", uniqueEmail("nadie")],
    ] as const) {
      expect(await post(collection, "request-password-reset", { email: address })).toEqual({ status: 204, body: null });
    }
    await settle();
    expect(await queued(email, RESET_SUBJECT, 0)).toEqual([]);
    expect(await queued(staffEmail, RESET_SUBJECT, 0)).toEqual([]);

    expect((await post("users", "request-password-reset", { email: email.toUpperCase() })).status).toBe(204);
    expect(await queued(email, RESET_SUBJECT, 1)).toHaveLength(1);
    expect((await post("_superusers", "request-password-reset", { email: staffEmail })).status).toBe(204);
    expect(await queued(staffEmail, RESET_SUBJECT, 1)).toHaveLength(1);
  });

  it("answers PocketBase's 400s for a body it cannot read and a missing collection's 404", async () => {
    expect(await post("users", "request-password-reset", "{\"email", { raw: true })).toEqual({ status: 400, body: { status: 400, message: "An error occurred while loading the submitted data.", data: {} } });
    expect(await post("users", "request-password-reset", { email: 42 })).toMatchObject({ status: 400, body: { message: "An error occurred while loading the submitted data." } });
    expect((await post("productos", "request-password-reset", { email: "a@b.mx" })).body).toEqual({ status: 404, message: "Missing or invalid auth collection context.", data: {} });
    expect((await loader()).status).toBe(405);
  });
});

describe("confirm-password-reset", () => {
  it("sets the password, ends every session and opens none", async () => {
    const { email, user } = await registerTestCustomer("api-confirmar");
    expect(await sessionCount(user.id)).toBeGreaterThan(0);
    await post("users", "request-password-reset", { email });
    const [mail] = await queued(email, RESET_SUBJECT, 1);
    const token = tokenFromMail(mail!, "/recuperar/nueva");

    const weak = await post("users", "confirm-password-reset", { token, password: "password123", passwordConfirm: "password123" });
    expect(weak.body).toMatchObject({ message: VALIDATE, data: { password: { code: "validation_common_password" } } });
    expect(await post("users", "confirm-password-reset", { token, password: "Prensa-Hidraulica-9", passwordConfirm: "Prensa-Hidraulica-9" })).toEqual({ status: 204, body: null });
    expect(await sessionCount(user.id)).toBe(0);
  });

  it("names every field PocketBase's form refuses", async () => {
    expect(await post("users", "confirm-password-reset", {})).toEqual({
      status: 400,
      body: {
        status: 400,
        message: VALIDATE,
        data: {
          token: { code: "validation_required", message: "Cannot be blank." },
          password: { code: "validation_required", message: "Cannot be blank." },
          passwordConfirm: { code: "validation_required", message: "Cannot be blank." },
        },
      },
    });
    const short = await post("users", "confirm-password-reset", { token: "no-existe", password: "corta", passwordConfirm: "corta" });
    expect(short.body).toEqual({
      status: 400,
      message: VALIDATE,
      data: {
        token: { code: "validation_invalid_token", message: "Invalid or expired token." },
        password: { code: "validation_length_out_of_range", message: "The length must be between 8 and 128." },
      },
    });
  });
});

describe("verification", () => {
  it("request-verification queues a confirmation only for an unconfirmed customer", async () => {
    const { email } = await registerTestCustomer("api-verificar");
    const before = (await queued(email, CONFIRM_SUBJECT, 1)).length;
    expect((await post("users", "request-verification", { email })).status).toBe(204);
    expect(await queued(email, CONFIRM_SUBJECT, before + 1)).toHaveLength(before + 1);
    expect((await post("users", "request-verification", { email: uniqueEmail("nadie") })).status).toBe(204);
  });

  it("confirm-verification confirms, ends the session better-auth opens for it, and is a 204 again afterwards", async () => {
    const { email, user } = await registerTestCustomer("api-confirmacion");
    const [mail] = await queued(email, CONFIRM_SUBJECT, 1);
    const token = tokenFromMail(mail!, "/cuenta/confirmar");
    const sessions = await sessionCount(user.id);
    expect(await post("users", "confirm-verification", { token })).toEqual({ status: 204, body: null });
    expect(await sessionCount(user.id)).toBe(sessions);
    expect(await post("users", "confirm-verification", { token })).toEqual({ status: 204, body: null });

    const tampered = `${token.slice(0, -2)}xx`;
    expect((await post("users", "confirm-verification", { token: tampered })).body).toEqual({
      status: 400,
      message: VALIDATE,
      data: { token: { code: "validation_invalid_token", message: "Invalid or expired token." } },
    });
    expect((await post("users", "confirm-verification", { token: "" })).body).toMatchObject({ data: { token: { code: "validation_required" } } });
  });

  it("_superusers: all superusers are verified by default", async () => {
    for (const endpoint of ["request-verification", "confirm-verification"]) {
      expect((await post("_superusers", endpoint, { email: "a@b.mx", token: "x" })).body).toEqual({ status: 400, message: "All superusers are verified by default.", data: {} });
    }
  });
});

describe("auth-with-oauth2 and /api/oauth2-redirect", () => {
  it("refuses OAuth2 at _superusers and an unknown provider with PocketBase's answers", async () => {
    const call = (collection: string, body: unknown) =>
      oauth2Action(args(`/api/collections/${collection}/auth-with-oauth2`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }));
    const staff = await call("_superusers", { provider: "google", code: "x" });
    expect(staff.status).toBe(403);
    expect(await staff.json()).toEqual({ status: 403, message: "The collection is not configured to allow OAuth2 authentication.", data: {} });
    const missing = await call("users", { provider: "" });
    expect(await missing.json()).toEqual({
      status: 400,
      message: "An error occurred while loading the submitted data.",
      data: { provider: { code: "validation_required", message: "Cannot be blank." }, code: { code: "validation_required", message: "Cannot be blank." } },
    });
  });

  it("shows the Spanish failure page without a state, with an error, or for a form_post without a code", async () => {
    for (const response of [
      await redirectGet(args("/api/oauth2-redirect?code=abc")),
      await redirectGet(args("/api/oauth2-redirect?state=cliente-inexistente&error=access_denied")),
      await redirectPost(args("/api/oauth2-redirect", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "state=cliente-inexistente" })),
    ]) {
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toContain("text/html");
      const html = await response.text();
      expect(html).toContain("No pudimos completar el inicio de sesión");
      expect(html).not.toContain("window.close");
    }
    const done = await redirectPost(args("/api/oauth2-redirect", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "state=cliente-en-otro-proceso&code=abc" }));
    const html = await done.text();
    expect(html).toContain("Listo. Puede cerrar esta ventana.");
    expect(html).toContain('<script nonce="nonce-de-prueba">window.close();</script>');
  });
});
