import { describe, expect, it, vi } from "vitest";

// Integration tests of registering a customer.
// The accounts kit: environment (set before the app reads it) in tests/support/feature-test-env,
// database in tests/support/test-file-database, sign-in helpers in tests/support/auth-requests.
const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/feature-test-env")).isolateAccountsTestEnv("accounts-registration"));

import { eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { user } from "~/db/schema/auth";
import { invalid } from "~/lib/result";
import { nextTestIp, outboxFor, registerTestCustomer as register, requestMeta, SESSION_COOKIE, TEST_PASSWORD as PASSWORD, tokenFromMail, uniqueEmail, whoIs } from "../../../tests/support/auth-requests";
import { confirmEmail } from "./email-confirmation.server";
import { registerCustomer } from "./registration.server";
import { useTestFileDatabase } from "../../../tests/support/test-file-database";

useTestFileDatabase(dataDir);

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
    if (first.ok) expect(first.value.user.email).toBe(email);
    const again = await registerCustomer(requestMeta("/cuenta/registro", { ip: nextTestIp() }), { name: "Ana", email, password: PASSWORD });
    expect(again).toMatchObject({ ok: false, kind: "invalid", fieldErrors: { email: [expect.any(String)] } });
  });

  it("refuses a second account with the same email, in Spanish, on the email field", async () => {
    const { email } = await register("duplicado");
    const result = await registerCustomer(requestMeta("/cuenta/registro", { ip: nextTestIp() }), { name: "Otra Persona", email, password: "Otra-clave-larga-9" });
    expect(result).toEqual(invalid({ fieldErrors: { email: ["Ya existe una cuenta con este correo. Inicie sesión o recupere su contraseña."] } }));
    expect(await outboxFor(email)).toHaveLength(1);
  });

  it("refuses passwords outside 8–128 characters even without the form schema", async () => {
    const meta = requestMeta("/cuenta/registro", { ip: nextTestIp() });
    expect(await registerCustomer(meta, { name: "Corta", email: uniqueEmail("corta"), password: "Ab3$xyz" })).toMatchObject({
      ok: false,
      kind: "invalid",
      fieldErrors: { password: ["La contraseña debe tener al menos 8 caracteres."] },
    });
    expect(await registerCustomer(meta, { name: "Larga", email: uniqueEmail("larga"), password: "x".repeat(129) })).toMatchObject({
      ok: false,
      kind: "invalid",
      fieldErrors: { password: ["La contraseña no puede tener más de 128 caracteres."] },
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
