import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// Integration tests of editing one's profile.
// Real database (PGlite, or PostgreSQL with TEST_DATABASE_URL), real better-auth, real Request
// objects carrying the cookies better-auth set. Mail is only written to the outbox (no worker runs).

// Set before ~/lib/env.server is first read (getEnv() caches it): a temporary DATA_DIR, no SMTP, no
// DATABASE_URL, and one configured provider.
const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("accounts-profile", { unset: ["MICROSOFT_CLIENT_ID", "OIDC_ISSUER"], set: { GOOGLE_CLIENT_ID: "forja-test-google-client", GOOGLE_CLIENT_SECRET: "forja-test-google-secret" } }));

import { registerTestCustomer as register, whoIs } from "../../../tests/support/auth-requests";
import { updateProfile } from "./profile.server";
import { closeTestDatabase, createTestDatabase } from "../../../tests/support/test-database";

let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await closeTestDatabase(database);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("updateProfile", () => {
  it("updates name, company and phone of the signed-in user only", async () => {
    const { cookie, user: customer } = await register("perfil", { company: "Vieja SA" });
    const other = await register("perfil-otro", { company: "Ajena SA" });
    const result = await updateProfile({ userId: customer.id, name: "Nombre Nuevo", company: "Nueva SA", phone: "+52 55 1111 2222" });
    expect(result.ok).toBe(true);
    expect(await whoIs(cookie)).toMatchObject({ id: customer.id, name: "Nombre Nuevo", company: "Nueva SA", phone: "+52 55 1111 2222" });
    expect((await whoIs(other.cookie))?.company).toBe("Ajena SA");
    await updateProfile({ userId: customer.id, name: "Nombre Nuevo" });
    expect(await whoIs(cookie)).toMatchObject({ company: null, phone: null });
  });
});
