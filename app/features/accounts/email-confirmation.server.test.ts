import { describe, expect, it, vi } from "vitest";

// Integration tests of confirming an email and resending the link.
// The accounts kit: environment (set before the app reads it) in tests/support/feature-test-env,
// database in tests/support/test-file-database, sign-in helpers in tests/support/auth-requests.
const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/feature-test-env")).isolateAccountsTestEnv("accounts-confirmation"));

import { eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { user } from "~/db/schema/auth";
import { invalid } from "~/lib/result";
import { outboxFor, registerTestCustomer as register, requestMeta, tokenFromMail } from "../../../tests/support/auth-requests";
import { confirmEmail, resendConfirmation } from "./email-confirmation.server";
import { useTestFileDatabase } from "../../../tests/support/test-file-database";

useTestFileDatabase(dataDir);

describe("confirmEmail and resendConfirmation", () => {
  it("answers an invalid token with a Spanish error and confirms nothing", async () => {
    const result = await confirmEmail(requestMeta("/cuenta/confirmar?token=basura"), "basura");
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result).toEqual(invalid("El enlace no es válido o ya venció. Solicite uno nuevo."));
  });

  it("resends a confirmation link that also works", async () => {
    const { email, user: created } = await register("reenvio");
    const resent = await resendConfirmation(email);
    expect(resent.ok).toBe(true);
    const mails = await outboxFor(email);
    expect(mails).toHaveLength(2);
    const token = tokenFromMail(mails[0], "/cuenta/confirmar");
    expect((await confirmEmail(requestMeta("/cuenta/confirmar"), token)).ok).toBe(true);
    const [row] = await getDb().select({ emailVerified: user.emailVerified }).from(user).where(eq(user.id, created.id));
    expect(row.emailVerified).toBe(true);
  });
});
