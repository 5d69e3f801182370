import { generateKeyPairSync, verify } from "node:crypto";
import type PocketBase from "pocketbase";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// PocketBase's settings API with the official SDK against the real production server (issue 17 §3,
// docs/decisions/0057): an admin reads and patches the settings, never sees a secret, gets Spanish
// validation in PocketBase's body, is told what the environment fixes, and signs Sign in with Apple's
// client secret, and sends a test email through the SMTP server the settings name; anyone else gets
// PocketBase's 401 or 403.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("settings-api"));

import { getAuthSecret } from "~/services/security/secret.server";
import { sdkFailure } from "../../../tests/support/sdk-client";
import { startSmtpTestServer, type SmtpTestServer } from "../../../tests/support/smtp-test-server";
import { expectSuperusersOnly, prepareSuperuserCallers, superuserCallers, type CallerName } from "../../../tests/support/superuser-clients";
import { startTestServer, type TestServer } from "../../../tests/support/test-server";

let server: TestServer | undefined;
let smtp: SmtpTestServer | undefined;
let clients: Record<CallerName, PocketBase>;

beforeAll(async () => {
  server = await startTestServer({ dataDir, env: { AUTH_SECRET: getAuthSecret(), LOGS_MAX_DAYS: "" }, prepare: () => prepareSuperuserCallers("ajustes-sistema") });
  clients = await superuserCallers(server.url, "ajustes-sistema");
}, 360_000);

afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

describe("/api/settings", () => {
  it("answers the settings in PocketBase's shape, without secrets, saying what the environment fixes", async () => {
    const settings = (await clients.admin.settings.getAll()) as Record<string, Record<string, unknown>>;
    expect(Object.keys(settings).sort()).toEqual(["backups", "fixedByEnvironment", "logs", "meta", "rateLimits", "s3", "smtp"]);
    expect(settings.meta).toMatchObject({ appName: expect.any(String), appURL: expect.stringMatching(/^http/) });
    expect(settings.smtp).not.toHaveProperty("password");
    expect(settings.fixedByEnvironment).toMatchObject({ "meta.appURL": "PUBLIC_URL" });
  });

  it("patches, keeps a secret it never answers, and refuses bad values with Spanish messages", async () => {
    const patched = (await clients.admin.settings.update({ smtp: { host: "smtp.forja.example", port: 2525, username: "ventas", password: "Secreto-Correo-9" }, logs: { maxDays: 21 } })) as Record<string, Record<string, unknown>>;
    expect(patched.smtp).toMatchObject({ host: "smtp.forja.example", port: 2525, username: "ventas" });
    expect(JSON.stringify(patched)).not.toContain("Secreto-Correo-9");
    expect(((await clients.admin.settings.getAll()) as Record<string, Record<string, unknown>>).logs!.maxDays).toBe(21);

    const refused = await sdkFailure(clients.admin.settings.update({ smtp: { port: "veinticinco" }, meta: { appName: "" } }));
    expect(refused.status).toBe(400);
    expect(refused.response).toMatchObject({
      message: "An error occurred while validating the submitted data.",
      data: { smtp: { port: { code: "validation_invalid_value", message: "Escriba el puerto como número, por ejemplo 587." } }, meta: { appName: { message: "Escriba el nombre del sitio." } } },
    });
    const fixed = await sdkFailure(clients.admin.settings.update({ meta: { appURL: "https://otro.example" } }));
    expect(fixed.response.data).toEqual({ meta: { appURL: { code: "validation_invalid_value", message: "Este valor lo fija la variable de entorno PUBLIC_URL: cámbielo ahí." } } });
    // Nothing of the refused PATCHes was stored.
    expect(((await clients.admin.settings.getAll()) as Record<string, Record<string, unknown>>).smtp!.port).toBe(2525);
  });

  it("signs Sign in with Apple's client secret (ES256) and explains a bad key", async () => {
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
    const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    const before = Math.floor(Date.now() / 1000);
    const { secret } = await clients.admin.settings.generateAppleClientSecret("mx.forja.web", "EQUIPO1234", "LLAVE12345", pem, 3600);
    const [header, claims, signature] = secret.split(".") as [string, string, string];
    expect(JSON.parse(Buffer.from(header, "base64url").toString())).toEqual({ alg: "ES256", kid: "LLAVE12345", typ: "JWT" });
    const payload = JSON.parse(Buffer.from(claims, "base64url").toString());
    expect(payload).toMatchObject({ iss: "EQUIPO1234", sub: "mx.forja.web", aud: "https://appleid.apple.com" });
    expect(payload.iat).toBeGreaterThanOrEqual(before);
    expect(payload.exp - payload.iat).toBe(3600);
    expect(verify("sha256", Buffer.from(`${header}.${claims}`), { key: publicKey, dsaEncoding: "ieee-p1363" }, Buffer.from(signature, "base64url"))).toBe(true);

    const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    const refused = await sdkFailure(clients.admin.settings.generateAppleClientSecret("mx.forja.web", "", "LLAVE12345", rsa, 99_999_999));
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.response.data).sort()).toEqual(["duration", "privateKey", "teamId"]);
    expect(refused.response.data.privateKey.message).toMatch(/curva P-256/);
  });

  it("sends a test email through the SMTP server the settings name, from the sender they name, without a restart", async () => {
    smtp = await startSmtpTestServer();
    await clients.admin.settings.update({ smtp: { enabled: true, host: "127.0.0.1", port: smtp.port, tls: false, username: "", password: "" }, meta: { senderName: "Pruebas Forja", senderAddress: "pruebas@forja.example" } });
    await clients.admin.settings.testEmail("users", "revision@ejemplo.mx", "verification");
    const [message] = await smtp.waitForMessages(1);
    expect(message!.envelopeTo).toEqual(["revision@ejemplo.mx"]);
    expect(message!.parsed.subject).toBe("Prueba: Confirme su correo en Forja");
    expect(message!.parsed.from).toMatchObject({ name: "Pruebas Forja", address: "pruebas@forja.example" });
    await clients.admin.settings.testEmail("users", "revision@ejemplo.mx", "password-reset");
    expect((await smtp.waitForMessages(2))[1]!.parsed.subject).toBe("Prueba: Restablezca su contraseña de Forja");

    const unknown = await sdkFailure(clients.admin.settings.testEmail("users", "revision@ejemplo.mx", "login-alert"));
    expect(unknown.response.data.template.message).toMatch(/^Elija una plantilla que Forja envía: verification, password-reset/);
    const badAddress = await sdkFailure(clients.admin.settings.testEmail("users", "no es correo", "verification"));
    expect(badAddress.response.data.email.message).toBe("Escriba un correo válido para recibir la prueba.");

    // The server goes away: the operator is told at once, in Spanish.
    await smtp.stop();
    const down = await sdkFailure(clients.admin.settings.testEmail("users", "revision@ejemplo.mx", "verification"));
    expect(down.status).toBe(400);
    expect(down.response.message).toMatch(/^No se pudo enviar el correo de prueba: /);
  });

  it("is for superusers only", async () => {
    await expectSuperusersOnly(clients, (client) => client.settings.getAll());
    await expectSuperusersOnly(clients, (client) => client.settings.update({ logs: { maxDays: 1 } }));
    await expectSuperusersOnly(clients, (client) => client.settings.generateAppleClientSecret("a", "b", "c", "d", 60));
    await expectSuperusersOnly(clients, (client) => client.settings.testEmail("users", "revision@ejemplo.mx", "verification"));
    expect(((await clients.admin.settings.getAll()) as Record<string, Record<string, unknown>>).logs!.maxDays).toBe(21);
  });
});
