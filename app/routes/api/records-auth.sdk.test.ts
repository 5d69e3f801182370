import type PocketBase from "pocketbase";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// The auth contract of the record API (docs/decisions/0014): the official `pocketbase` SDK, unchanged,
// against the real production server over HTTP. Before the server starts, its database gets a
// customer (registered as /registro does), a staff account (as `npm run admin:create` makes it) and
// one inactive product only staff may see.

await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("records-auth-sdk"));

import { registerCustomer } from "~/features/accounts/registration.server";
import { upsertStaffAccount } from "~/features/accounts/staff-account.server";
import { createProduct } from "~/features/catalogue/product-commands.server";
import { exemptStaffFromMfa, requestMeta } from "../../../tests/support/auth-requests";
import { productValues } from "../../../tests/support/catalogue-fixtures";
import { startTestServer, type TestServer } from "../../../tests/support/test-server";
import { sdkClient, sdkFailure } from "../../../tests/support/sdk-client";

const REQUEST_TIMEOUT_MS = 15_000;
const CUSTOMER = { name: "Cliente SDK", email: `cliente-sdk-${process.pid}@ejemplo.mx`, password: "Fresadora-CNC-42" };
const STAFF = { name: "Personal SDK", email: `personal-sdk-${process.pid}@forja.mx`, password: "Panel-Forja-Seguro-1" };

let server: TestServer | undefined;
let inactiveId = "";

beforeAll(async () => {
  server = await startTestServer({
    prepare: async () => {
      const customer = await registerCustomer(requestMeta("/registro", { method: "POST" }), CUSTOMER);
      if (!customer.ok) throw new Error("customer not registered");
      await upsertStaffAccount(STAFF);
      // auth-with-password in one step; the admins' second step is records-auth-otp.sdk.test.ts (0061).
      await exemptStaffFromMfa(STAFF.email);
      const inactive = await createProduct(productValues({ name: "Producto retirado (SDK)", active: false }));
      if (!inactive.ok) throw new Error("inactive product not created");
      inactiveId = inactive.value.id;
    },
  });
}, 420_000);

afterAll(async () => {
  await server?.stop();
}, 60_000);

const client = (): PocketBase => sdkClient(server!.url);

const failure = sdkFailure;

describe("auth collections through the official SDK", { timeout: 60_000 }, () => {
  it("users: authWithPassword fills the auth store; isValid; authRefresh gives a working new token", async () => {
    const pb = client();
    const auth = await pb.collection("users").authWithPassword(CUSTOMER.email, CUSTOMER.password);
    expect(auth.record).toMatchObject({ collectionId: "_pb_users_auth_", collectionName: "users", email: CUSTOMER.email, name: CUSTOMER.name, verified: false });
    expect(pb.authStore.isValid).toBe(true);
    expect(pb.authStore.isSuperuser).toBe(false);
    expect(pb.authStore.record?.id).toBe(auth.record.id);

    await new Promise((resolve) => setTimeout(resolve, 1100));
    const refreshed = await pb.collection("users").authRefresh();
    expect(refreshed.token).not.toBe(auth.token);
    expect(pb.authStore.token).toBe(refreshed.token);
    expect(refreshed.record.id).toBe(auth.record.id);
  });

  it("a wrong password is PocketBase's 400; refresh without a token is a 401", async () => {
    const pb = client();
    const wrong = await failure(pb.collection("users").authWithPassword(CUSTOMER.email, "No-Es-La-Clave-1"));
    expect(wrong.status).toBe(400);
    expect(wrong.response).toEqual({ status: 400, message: "Failed to authenticate.", data: {} });
    expect(pb.authStore.isValid).toBe(false);
    const anonymous = await failure(pb.collection("users").authRefresh());
    expect(anonymous.status).toBe(401);
  });

  it("_superusers: a customer's credentials are refused; staff see an inactive product a guest does not", async () => {
    const pb = client();
    expect((await failure(pb.collection("_superusers").authWithPassword(CUSTOMER.email, CUSTOMER.password))).status).toBe(400);

    expect((await failure(client().collection("productos").getOne(inactiveId))).status).toBe(404);
    await pb.collection("_superusers").authWithPassword(STAFF.email, STAFF.password);
    expect(pb.authStore.isSuperuser).toBe(true);
    expect((await pb.collection("productos").getOne(inactiveId)).id).toBe(inactiveId);
    const listed = await pb.collection("productos").getList(1, 5, { filter: pb.filter("id = {:id}", { id: inactiveId }) });
    expect(listed.totalItems).toBe(1);
  });

  it("auth-methods: password by email and one-time codes; the second step for staff only (docs/decisions/0061)", async () => {
    const methods = await client().collection("users").listAuthMethods();
    expect(methods).toMatchObject({ password: { enabled: true, identityFields: ["email"] }, mfa: { enabled: false }, otp: { enabled: true, duration: 180 }, oauth2: { enabled: false, providers: [] } });
    expect(await client().collection("_superusers").listAuthMethods()).toMatchObject({ mfa: { enabled: true, duration: 600 }, otp: { enabled: true, duration: 180 } });
  });

  it("needs no Origin check: a cross-site request with the token works", async () => {
    const response = await fetch(`${server!.url}/api/collections/users/auth-with-password`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: "https://otro-sitio.example" },
      body: JSON.stringify({ identity: CUSTOMER.email, password: CUSTOMER.password }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    expect(response.status).toBe(200);
  });

  it("a staff token stops working once the staff signs out everywhere", async () => {
    const pb = client();
    await pb.collection("_superusers").authWithPassword(STAFF.email, STAFF.password);
    expect((await pb.collection("productos").getOne(inactiveId)).id).toBe(inactiveId);

    // Another session of the same account (better-auth's API, as a browser or app would) ends them all.
    const signIn = await fetch(`${server!.url}/api/sesion/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server!.url },
      body: JSON.stringify({ email: STAFF.email, password: STAFF.password }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    expect(signIn.status).toBe(200);
    const sessionToken = signIn.headers.get("set-auth-token")!;
    const revoke = await fetch(`${server!.url}/api/sesion/revoke-sessions`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server!.url, authorization: `Bearer ${sessionToken}` },
      body: "{}",
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    expect(revoke.status).toBe(200);

    // The store still holds an unexpired JWT, but the server no longer accepts it.
    expect(pb.authStore.isValid).toBe(true);
    expect((await failure(pb.collection("productos").getOne(inactiveId))).status).toBe(404);
    expect((await failure(pb.collection("_superusers").authRefresh())).status).toBe(401);
  });
});
