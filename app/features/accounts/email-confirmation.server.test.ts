import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// Integration tests of confirming an email and resending the link.
// Real database (PGlite, or PostgreSQL with TEST_DATABASE_URL), real better-auth, real Request
// objects carrying the cookies better-auth set. Mail is only written to the outbox (no worker runs).

// Set before ~/lib/env.server is first read (getEnv() caches it): a temporary DATA_DIR, no SMTP, no
// DATABASE_URL, and one configured provider.
const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("accounts-confirmation", { unset: ["MICROSOFT_CLIENT_ID", "OIDC_ISSUER"], set: { GOOGLE_CLIENT_ID: "forja-test-google-client", GOOGLE_CLIENT_SECRET: "forja-test-google-secret" } }));

import { eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { user } from "~/db/schema/auth";
import { invalid } from "~/lib/result";
import { outboxFor, registerTestCustomer as register, requestMeta, tokenFromMail } from "../../../tests/support/auth-requests";
import { confirmEmail, resendConfirmation } from "./email-confirmation.server";
import { closeTestDatabase, createTestDatabase } from "../../../tests/support/test-database";

let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await closeTestDatabase(database);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

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
