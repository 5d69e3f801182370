import { describe, expect, it, vi } from "vitest";

// Integration tests of password reset and change.
// The accounts kit: environment (set before the app reads it) in tests/support/feature-test-env,
// database in tests/support/test-file-database, sign-in helpers in tests/support/auth-requests.
const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/feature-test-env")).isolateAccountsTestEnv("accounts-password"));

import { eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { verification } from "~/db/schema/auth";
import { invalid } from "~/lib/result";
import {
  cookieHeaderFrom,
  failureText,
  nextTestIp,
  outboxFor,
  registerTestCustomer as register,
  requestMeta,
  SESSION_COOKIE,
  sessionCount,
  signInTestCustomer as login,
  TEST_PASSWORD as PASSWORD,
  tokenFromMail,
  uniqueEmail,
  whoIs,
} from "../../../tests/support/auth-requests";
import { changePassword, isPasswordResetTokenUsable, requestPasswordReset, resetPassword } from "./password.server";
import { signIn } from "./sign-in.server";
import { useTestFileDatabase } from "../../../tests/support/test-file-database";

useTestFileDatabase(dataDir);

describe("password reset", () => {
  it("queues nothing and does not throw for an unknown email", async () => {
    const email = uniqueEmail("desconocido");
    await expect(requestPasswordReset(email)).resolves.toBeUndefined();
    expect(await outboxFor(email)).toHaveLength(0);
  });

  it("sends a single-use link; the reset revokes every old session and signs in with the new password", async () => {
    const { email, user: customer, cookie: oldCookie } = await register("olvido");
    const { cookie: otherCookie } = await login(email);

    await requestPasswordReset(email.toUpperCase());
    const [mail] = (await outboxFor(email)).filter((row) => row.subject === "Restablezca su contraseña de Forja");
    expect(mail).toBeDefined();
    const token = tokenFromMail(mail, "/recuperar/nueva");

    const newPassword = "Nueva-Clave-Torno-7";
    const result = await resetPassword(requestMeta("/recuperar/nueva", { ip: nextTestIp(), method: "POST" }), { token, password: newPassword });
    expect(result.ok, result.ok ? "" : failureText(result)).toBe(true);
    if (!result.ok) return;
    expect(result.value.user.id).toBe(customer.id);

    expect(await whoIs(oldCookie)).toBeNull();
    expect(await whoIs(otherCookie)).toBeNull();
    const newCookie = cookieHeaderFrom(result.value.headers);
    expect((await whoIs(newCookie))?.id).toBe(customer.id);
    expect(await sessionCount(customer.id)).toBe(1);

    expect((await signIn(requestMeta("/login", { ip: nextTestIp() }), { email, password: PASSWORD })).ok).toBe(false);
    expect((await signIn(requestMeta("/login", { ip: nextTestIp() }), { email, password: newPassword })).ok).toBe(true);

    const reused = await resetPassword(requestMeta("/recuperar/nueva", { ip: nextTestIp() }), { token, password: "Tercera-Clave-Fresa-3" });
    expect(reused).toEqual(invalid("El enlace no es válido o ya venció. Solicite uno nuevo."));
    expect((await signIn(requestMeta("/login", { ip: nextTestIp() }), { email, password: "Tercera-Clave-Fresa-3" })).ok).toBe(false);
  });

  it("refuses an unknown token", async () => {
    const result = await resetPassword(requestMeta("/recuperar/nueva"), { token: "inventado", password: "Clave-Nueva-Larga-1" });
    expect(result).toEqual(invalid("El enlace no es válido o ya venció. Solicite uno nuevo."));
  });

  it("refuses an expired token", async () => {
    const { email } = await register("vencido");
    await requestPasswordReset(email);
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

describe("isPasswordResetTokenUsable (what /recuperar/nueva checks before showing the form)", () => {
  it("is true for a fresh link and stays true after asking (it does not use the token up)", async () => {
    const { email } = await register("enlace-vigente");
    await requestPasswordReset(email);
    const [mail] = await outboxFor(email).then((rows) => rows.filter((row) => row.subject.startsWith("Restablezca")));
    const token = tokenFromMail(mail, "/recuperar/nueva");
    expect(await isPasswordResetTokenUsable(token)).toBe(true);
    expect(await isPasswordResetTokenUsable(token)).toBe(true);
    const result = await resetPassword(requestMeta("/recuperar/nueva", { ip: nextTestIp(), method: "POST" }), { token, password: "Clave-Vigente-Torno-5" });
    expect(result.ok, result.ok ? "" : failureText(result)).toBe(true);
    // Used once: no longer.
    expect(await isPasswordResetTokenUsable(token)).toBe(false);
  });

  it("is false for an expired, an unknown and an empty token", async () => {
    const { email } = await register("enlace-vencido");
    await requestPasswordReset(email);
    const [mail] = await outboxFor(email).then((rows) => rows.filter((row) => row.subject.startsWith("Restablezca")));
    const token = tokenFromMail(mail, "/recuperar/nueva");
    await getDb().update(verification).set({ expiresAt: new Date(Date.now() - 1_000) }).where(eq(verification.identifier, `reset-password:${token}`));
    expect(await isPasswordResetTokenUsable(token)).toBe(false);
    expect(await isPasswordResetTokenUsable("inventado")).toBe(false);
    expect(await isPasswordResetTokenUsable("")).toBe(false);
  });
});

describe("changePassword", () => {
  it("refuses a wrong current password on the currentPassword field", async () => {
    const { cookie } = await register("cambio-mal");
    const result = await changePassword(requestMeta("/cuenta", { cookie, method: "POST" }), { currentPassword: "No-Es-Esta-1", newPassword: "Clave-Nueva-Fresa-1" });
    expect(result).toEqual(invalid({ fieldErrors: { currentPassword: ["La contraseña actual no es correcta."] } }));
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
    const newCookie = cookieHeaderFrom(result.value.headers);
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
