import { describe, expect, it, vi } from "vitest";

// Integration tests of editing one's profile.
// The accounts kit: environment (set before the app reads it) in tests/support/feature-test-env,
// database in tests/support/test-file-database, sign-in helpers in tests/support/auth-requests.
const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/feature-test-env")).isolateAccountsTestEnv("accounts-profile"));

import { registerTestCustomer as register, whoIs } from "../../../tests/support/auth-requests";
import { updateProfile } from "./profile.server";
import { useTestFileDatabase } from "../../../tests/support/test-file-database";

useTestFileDatabase(dataDir);

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
