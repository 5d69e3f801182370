import { describe, expect, it, vi } from "vitest";

// Integration tests of GET /api/users/me's payload and linked providers.
// The accounts kit: environment (set before the app reads it) in tests/support/feature-test-env,
// database in tests/support/test-file-database, sign-in helpers in tests/support/auth-requests.
const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/feature-test-env")).isolateAccountsTestEnv("accounts-users-me"));

import { getDb } from "~/db/client.server";
import { account, user } from "~/db/schema/auth";
import type { RequestMeta } from "~/lib/request-meta";
import { failureMessages } from "~/lib/result";
import { registerTestCustomer as register, requestMeta, uniqueEmail } from "../../../tests/support/auth-requests";
import { getSessionUser } from "./accounts.server";
import { listLinkedProviders } from "./provider-sign-in.server";
import { getCurrentUserPayload as payloadFor, parsePopulate, type UserPopulate } from "./users-me.server";
import { useTestFileDatabase } from "../../../tests/support/test-file-database";

useTestFileDatabase(dataDir);

/** What the route does: the request's session user, then the payload. */
async function getCurrentUserPayload(meta: RequestMeta, populate: UserPopulate[]) {
  return payloadFor((await getSessionUser(meta))?.id ?? null, populate);
}

describe("parsePopulate", () => {
  it.each([
    [null, []],
    ["", []],
    ["profile", ["profile"]],
    [" profile , providers ", ["profile", "providers"]],
    ["providers,", ["providers"]],
    ["role,role", ["role"]],
    ["*", ["role", "profile", "providers"]],
  ] as const)("accepts %j", (input, expected) => {
    expect(parsePopulate(input)).toEqual({ ok: true, value: expected });
  });

  it("refuses unknown relations and names the valid ones", () => {
    const result = parsePopulate("profile,password,pedidos");
    expect(result.ok).toBe(false);
    if (!result.ok) {
      const message = failureMessages(result).formErrors.join(" ");
      expect(message).toContain("password, pedidos");
      expect(message).toContain("role, profile, providers");
    }
  });
});

describe("getCurrentUserPayload and listLinkedProviders", () => {
  it("returns null for a guest", async () => {
    expect(await getCurrentUserPayload(requestMeta("/api/users/me"), ["profile"])).toBeNull();
  });

  it("returns the user, and profile/providers only when asked", async () => {
    const { cookie, user: customer, email } = await register("yo", { company: "Mi Taller", phone: "3312345678" });
    const meta = requestMeta("/api/users/me", { cookie });

    const bare = await getCurrentUserPayload(meta, []);
    // The seed's users-permissions user, exactly these fields.
    expect(Object.keys(bare!).sort()).toEqual(["blocked", "confirmed", "createdAt", "documentId", "email", "id", "provider", "updatedAt", "username"]);
    expect(bare).toMatchObject({ id: customer.id, documentId: customer.id, username: "Cliente de Prueba", email, provider: "local", confirmed: false, blocked: false });
    expect(bare!.createdAt).toBeInstanceOf(Date);
    expect(bare!.updatedAt).toBeInstanceOf(Date);
    expect(bare).not.toHaveProperty("profile");
    expect(bare).not.toHaveProperty("providers");
    expect(JSON.stringify(bare)).not.toMatch(/password|token/i);

    const full = await getCurrentUserPayload(meta, ["role", "profile", "providers"]);
    expect(full).toMatchObject({
      role: { name: "Authenticated", type: "authenticated" },
      profile: { company: "Mi Taller", phone: "3312345678" },
      providers: [{ id: "google", name: "Google", linked: false }],
    });

    await getDb().insert(account).values({ id: `google-${customer.id}`, accountId: "google-sub-1", providerId: "google", userId: customer.id });
    expect((await getCurrentUserPayload(meta, ["providers"]))?.providers).toEqual([{ id: "google", name: "Google", linked: true }]);
    expect(await listLinkedProviders(customer.id)).toEqual({ providers: [{ id: "google", name: "Google", linked: true }], hasPassword: true });
  });

  it("says when an account has no password (provider-only accounts)", async () => {
    const id = `solo-google-${process.pid}`;
    await getDb().insert(user).values({ id, name: "Sólo Google", email: uniqueEmail("solo-google") });
    await getDb().insert(account).values({ id: `acc-${id}`, accountId: "google-sub-2", providerId: "google", userId: id });
    expect(await listLinkedProviders(id)).toEqual({ providers: [{ id: "google", name: "Google", linked: true }], hasPassword: false });
  });
});
