import { describe, expect, it, vi } from "vitest";

// Integration tests of creating and updating staff accounts (admin:create).
// The accounts kit: environment (set before the app reads it) in tests/support/feature-test-env,
// database in tests/support/test-file-database, sign-in helpers in tests/support/auth-requests.
const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/feature-test-env")).isolateAccountsTestEnv("accounts-staff"));

import { and, eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { account, user } from "~/db/schema/auth";
import { cookieHeaderFrom, nextTestIp, registerTestCustomer as register, requestMeta, sessionCount, uniqueEmail, whoIs } from "../../../tests/support/auth-requests";
import { signInStaff } from "./sign-in.server";
import { upsertStaffAccount } from "./staff-account.server";
import { useTestFileDatabase } from "../../../tests/support/test-file-database";

useTestFileDatabase(dataDir);

describe("upsertStaffAccount", () => {
  it("creates, then updates idempotently: new password works, old fails, open sessions end", async () => {
    const email = uniqueEmail("Jefe").replace("Jefe", "JEFE");
    expect(await upsertStaffAccount({ email, password: "Primera-Clave-Panel-1", name: "Jefe Uno" })).toBe("created");
    const lower = email.toLowerCase();
    const [created] = await getDb().select().from(user).where(eq(user.email, lower));
    expect(created).toMatchObject({ role: "admin", emailVerified: true, name: "Jefe Uno" });

    const first = await signInStaff(requestMeta("/admin/login", { ip: nextTestIp() }), { email: lower, password: "Primera-Clave-Panel-1" });
    expect(first.ok).toBe(true);
    const firstCookie = first.ok ? cookieHeaderFrom(first.value.headers) : "";
    expect((await whoIs(firstCookie))?.role).toBe("admin");

    expect(await upsertStaffAccount({ email, password: "Segunda-Clave-Panel-2", name: "Jefe Dos" })).toBe("updated");
    expect(await upsertStaffAccount({ email: lower, password: "Segunda-Clave-Panel-2", name: "Jefe Dos" })).toBe("updated");

    const rows = await getDb().select().from(user).where(eq(user.email, lower));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: created.id, name: "Jefe Dos", role: "admin" });
    const credentials = await getDb().select().from(account).where(and(eq(account.userId, created.id), eq(account.providerId, "credential")));
    expect(credentials).toHaveLength(1);

    expect(await whoIs(firstCookie)).toBeNull();
    expect(await sessionCount(created.id)).toBe(0);
    expect((await signInStaff(requestMeta("/admin/login", { ip: nextTestIp() }), { email: lower, password: "Primera-Clave-Panel-1" })).ok).toBe(false);
    const second = await signInStaff(requestMeta("/admin/login", { ip: nextTestIp() }), { email: lower, password: "Segunda-Clave-Panel-2" });
    expect(second.ok).toBe(true);
    if (second.ok) expect(second.value.user).toMatchObject({ role: "admin", name: "Jefe Dos" });
  });

  it("promotes an existing customer to staff and lets them in with the given password", async () => {
    const { email, user: customer, cookie } = await register("ascenso");
    expect(await upsertStaffAccount({ email, password: "Clave-Del-Panel-77", name: "Cliente Ascendido" })).toBe("updated");
    expect(await whoIs(cookie)).toBeNull();
    const result = await signInStaff(requestMeta("/admin/login", { ip: nextTestIp() }), { email, password: "Clave-Del-Panel-77" });
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.value.user).toMatchObject({ id: customer.id, role: "admin" });
  });
});
