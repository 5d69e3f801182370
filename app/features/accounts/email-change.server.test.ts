import { describe, expect, it, vi } from "vitest";

// The email change's rules below HTTP (docs/decisions/0062), on a real database with real
// better-auth: what the SDK test cannot reach — the link's expiry, the browser sessions it ends and
// the page's confirmation, which signs in again with the new email.
const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/feature-test-env")).isolateAccountsTestEnv("accounts-email-change"));

import { outboxFor, registerTestCustomer, requestMeta, sessionCount, signInTestCustomer, TEST_PASSWORD, tokenFromMail, uniqueEmail, whoIs } from "../../../tests/support/auth-requests";
import { useTestFileDatabase } from "../../../tests/support/test-file-database";
import { checkEmailChangeToken, confirmEmailChange, confirmEmailChangeAndSignIn, EMAIL_CHANGE_MINUTES, EMAIL_CHANGE_REFUSALS, requestEmailChange } from "./email-change.server";
import { signIn } from "./sign-in.server";

useTestFileDatabase(dataDir);

const CHANGE_SUBJECT = "Confirme su correo nuevo en Forja";

async function linkTokenFor(newEmail: string): Promise<string> {
  const [mail] = (await outboxFor(newEmail)).filter((item) => item.subject === CHANGE_SUBJECT);
  expect(mail, `a change link queued for ${newEmail}`).toBeDefined();
  return tokenFromMail({ html: mail!.html, text: mail!.text }, "/cuenta/confirmar-correo");
}

describe("email change", () => {
  it("a link past its 30 minutes is refused and changes nothing", async () => {
    const customer = await registerTestCustomer("cambio-vence");
    const newEmail = uniqueEmail("cambio-vence-nuevo");
    expect((await requestEmailChange({ userId: customer.user.id, newEmail })).ok).toBe(true);
    const token = await linkTokenFor(newEmail);
    const later = new Date(Date.now() + (EMAIL_CHANGE_MINUTES * 60 + 5) * 1000);
    expect(await checkEmailChangeToken(token, later)).toEqual({ ok: false, problem: "invalid" });
    expect(await confirmEmailChange({ token, password: TEST_PASSWORD }, later)).toMatchObject({ ok: false, fieldErrors: { token: [EMAIL_CHANGE_REFUSALS.invalidToken] } });
    expect((await whoIs(customer.cookie))?.email).toBe(customer.email);
    // Still good inside its time.
    expect((await checkEmailChangeToken(token)).ok).toBe(true);
  });

  it("the page's confirmation ends every session, then signs in with the new email; the other pending links die", async () => {
    const customer = await registerTestCustomer("cambio-pagina");
    const elsewhere = await signInTestCustomer(customer.email);
    const [first, second] = [uniqueEmail("cambio-pagina-a"), uniqueEmail("cambio-pagina-b")];
    await requestEmailChange({ userId: customer.user.id, newEmail: first });
    await requestEmailChange({ userId: customer.user.id, newEmail: second });
    const [tokenA, tokenB] = [await linkTokenFor(first), await linkTokenFor(second)];

    const wrong = await confirmEmailChangeAndSignIn(requestMeta("/cuenta/confirmar-correo", { method: "POST" }), { token: tokenA, password: "Otra-Clave-Mala-3" });
    expect(wrong).toMatchObject({ ok: false, fieldErrors: { password: [EMAIL_CHANGE_REFUSALS.wrongPassword] } });

    const confirmed = await confirmEmailChangeAndSignIn(requestMeta("/cuenta/confirmar-correo", { method: "POST" }), { token: tokenA, password: TEST_PASSWORD });
    if (!confirmed.ok) throw new Error("not confirmed");
    expect(confirmed.value.user).toMatchObject({ email: first, emailVerified: true });
    expect(await whoIs(customer.cookie)).toBeNull();
    expect(await whoIs(elsewhere.cookie)).toBeNull();
    expect(await sessionCount(customer.user.id)).toBe(1);
    expect((await signIn(requestMeta("/login", { method: "POST" }), { email: customer.email, password: TEST_PASSWORD })).ok).toBe(false);
    // The second link was asked from the old address: dead now.
    expect(await checkEmailChangeToken(tokenB)).toEqual({ ok: false, problem: "invalid" });
    expect((await outboxFor(customer.email)).map((mail) => mail.subject)).toContain("El correo de su cuenta de Forja cambió");
  });
});
