import { RouterContextProvider } from "react-router";
import { describe, expect, it, vi } from "vitest";

// The record API's auth endpoints and tokens below the HTTP server, on a real database with real
// better-auth sessions: sign-in per collection, refresh, auth methods, the rate limit, and a token
// that stops working when its session ends (sign-out everywhere, password change, block, expiry)
// or when anything in it was changed. The SDK over HTTP: records-auth.sdk.test.ts.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/feature-test-env")).isolateAccountsTestEnv("records-auth"));

// The test moves a session's expiry into the past; nothing in the app does that on demand.
// eslint-disable-next-line no-restricted-imports
import { eq } from "drizzle-orm";
// eslint-disable-next-line no-restricted-imports
import { getDb } from "~/db/client.server";
// eslint-disable-next-line no-restricted-imports
import { session } from "~/db/schema/auth";
import { getAuth } from "~/features/accounts/auth.server";
import { setCustomerBlocked } from "~/features/accounts/customers.server";
import { changePassword } from "~/features/accounts/password.server";
import { upsertStaffAccount } from "~/features/accounts/staff-account.server";
import { createProduct } from "~/features/catalogue/product-commands.server";
import { clientIpContext } from "~/lib/request-context";
import { nextTestIp, registerTestCustomer, requestMeta, sessionCount, signedInStaff, TEST_PASSWORD } from "../../../tests/support/auth-requests";
import { productValues } from "../../../tests/support/catalogue-fixtures";
import { useTestFileDatabase } from "../../../tests/support/test-file-database";
import { recordAuthOf } from "./record-auth.server";
import { loader as recordsLoader } from "./records";
import { action, loader } from "./records-auth";

useTestFileDatabase(dataDir);

const STAFF_PASSWORD = "Panel-Forja-Seguro-1";
const FAILED = { status: 400, message: "Failed to authenticate.", data: {} };
const NO_TOKEN = { status: 401, message: "The request requires valid record authorization token.", data: {} };

function args(path: string, init: RequestInit & { ip?: string } = {}, params: Record<string, string> = {}) {
  const context = new RouterContextProvider();
  context.set(clientIpContext, init.ip ?? nextTestIp());
  const request = new Request(`http://localhost${path}`, init);
  const collection = path.split("/")[3] ?? "";
  return { request, context, params: { collection, ...params } } as never;
}

async function post(collection: string, endpoint: string, body: unknown, options: { token?: string; ip?: string; raw?: boolean } = {}) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (options.token) headers.authorization = options.token;
  const response = await action(args(`/api/collections/${collection}/${endpoint}`, { method: "POST", headers, body: options.raw ? String(body) : JSON.stringify(body), ip: options.ip }));
  return { status: response.status, body: (await response.json()) as Record<string, unknown>, headers: response.headers };
}

async function signInAs(collection: "users" | "_superusers", identity: string, password: string): Promise<string> {
  const { status, body } = await post(collection, "auth-with-password", { identity, password });
  expect(status, JSON.stringify(body)).toBe(200);
  return body.token as string;
}

async function whoHas(token: string) {
  return recordAuthOf(new Request("http://localhost/api/collections/productos/records", { headers: { authorization: token } }));
}

describe("auth-with-password", () => {
  it("signs a customer in to `users`: PocketBase's {token, record}, and the token names them", async () => {
    const { email, user } = await registerTestCustomer("api-cliente", { name: "Ana Cliente" });
    const { status, body } = await post("users", "auth-with-password", { identity: email, password: TEST_PASSWORD });
    expect(status).toBe(200);
    expect(body.record).toEqual({
      collectionId: "_pb_users_auth_",
      collectionName: "users",
      id: user.id,
      email,
      emailVisibility: false,
      name: "Ana Cliente",
      verified: false,
      avatar: "",
      created: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      updated: expect.stringMatching(/Z$/),
    });
    expect(await whoHas(body.token as string)).toEqual({ collection: "users", id: user.id });
    expect(await whoHas(`Bearer ${body.token as string}`)).toEqual({ collection: "users", id: user.id });
  });

  it("answers a wrong password, an unknown email and the other kind of account with the same 400, keeping no session", async () => {
    const { email, user } = await registerTestCustomer("api-incorrecta");
    const staffEmail = `personal-api-${process.pid}@forja.mx`;
    const staff = await signedInStaff(staffEmail, STAFF_PASSWORD);
    const before = { customer: await sessionCount(user.id), staff: await sessionCount(staff.user.id) };
    for (const [collection, identity, password] of [
      ["users", email, "No-Es-La-Clave-1"],
      ["users", `nadie-${process.pid}@ejemplo.mx`, TEST_PASSWORD],
      ["users", "no es un correo", TEST_PASSWORD],
      ["users", staffEmail, STAFF_PASSWORD],
      ["_superusers", email, TEST_PASSWORD],
    ] as const) {
      const { status, body } = await post(collection, "auth-with-password", { identity, password });
      expect([status, body], `${collection} ${identity}`).toEqual([400, FAILED]);
    }
    expect({ customer: await sessionCount(user.id), staff: await sessionCount(staff.user.id) }).toEqual(before);
  });

  it("reads form bodies; a malformed or incomplete body is a 400, never a 500", async () => {
    const { email } = await registerTestCustomer("api-formulario");
    const form = await action(
      args("/api/collections/users/auth-with-password", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ identity: email, password: TEST_PASSWORD }) }),
    );
    expect(form.status).toBe(200);

    const load = { status: 400, message: "An error occurred while loading the submitted data.", data: {} };
    expect(await post("users", "auth-with-password", "{no es json", { raw: true })).toMatchObject({ status: 400, body: load });
    expect(await post("users", "auth-with-password", [1, 2])).toMatchObject({ status: 400, body: load });
    expect(await post("users", "auth-with-password", { identity: 5, password: "x" })).toMatchObject({ status: 400, body: load });
    const missing = await post("users", "auth-with-password", { identity: "" });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({
      status: 400,
      message: "An error occurred while validating the submitted data.",
      data: { identity: { code: "validation_required", message: "Cannot be blank." }, password: { code: "validation_required", message: "Cannot be blank." } },
    });
    expect(await post("cosas", "auth-with-password", { identity: email, password: TEST_PASSWORD })).toMatchObject({ status: 404, body: { message: "Missing or invalid auth collection context." } });
  });

  it("counts attempts per IP with the sign-in limit and answers PocketBase's 429", async () => {
    const ip = nextTestIp();
    const statuses: number[] = [];
    // A new unknown account each time: this counts the address only, not one account's limit (0036).
    for (let attempt = 0; attempt < 10; attempt += 1) statuses.push((await post("users", "auth-with-password", { identity: `x-${attempt}-${ip}@ejemplo.mx`, password: "y" }, { ip })).status);
    expect(statuses).toEqual(Array.from({ length: 10 }, () => 400));
    const limited = await post("users", "auth-with-password", { identity: "x@ejemplo.mx", password: "y" }, { ip });
    expect(limited).toMatchObject({ status: 429, body: { status: 429, message: "Too Many Requests.", data: {} } });
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe("tokens and sessions", () => {
  it("auth-refresh answers a new token for a live one, 401 for none or a bad one, 403 for the other collection", async () => {
    const { email, user } = await registerTestCustomer("api-refresh");
    const token = await signInAs("users", email, TEST_PASSWORD);
    await new Promise((resolve) => setTimeout(resolve, 1100)); // a new iat, so a new token
    const refreshed = await post("users", "auth-refresh", undefined, { token });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.token).not.toBe(token);
    expect(refreshed.body.record).toMatchObject({ id: user.id, collectionName: "users" });
    expect(await whoHas(refreshed.body.token as string)).toEqual({ collection: "users", id: user.id });

    expect(await post("users", "auth-refresh", undefined)).toMatchObject({ status: 401, body: NO_TOKEN });
    expect(await post("users", "auth-refresh", undefined, { token: "basura" })).toMatchObject({ status: 401, body: NO_TOKEN });
    expect(await post("_superusers", "auth-refresh", undefined, { token })).toMatchObject({ status: 403, body: { message: "The request requires auth record from users collection." } });
  });

  it("a changed token is worthless", async () => {
    const { email } = await registerTestCustomer("api-alterado");
    const other = await registerTestCustomer("api-otro");
    const token = await signInAs("users", email, TEST_PASSWORD);
    const [header, payload, signature] = token.split(".") as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString()) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify({ ...claims, id: other.user.id })).toString("base64url");
    expect(await whoHas(`${header}.${forged}.${signature}`)).toBeNull();
    const staffClaims = Buffer.from(JSON.stringify({ ...claims, collectionId: "pbc_3142635823" })).toString("base64url");
    expect(await whoHas(`${header}.${staffClaims}.${signature}`)).toBeNull();
  });

  it("dies with its session: sign-out everywhere, password change, block, expiry", async () => {
    const staffEmail = `personal-bloqueo-api-${process.pid}@forja.mx`;
    const staff = await signedInStaff(staffEmail, STAFF_PASSWORD);

    // Sign-out everywhere (better-auth's revoke-sessions from a browser session).
    const a = await registerTestCustomer("api-salir");
    const tokenA = await signInAs("users", a.email, TEST_PASSWORD);
    expect(await whoHas(tokenA)).not.toBeNull();
    await getAuth().api.revokeSessions({ headers: requestMeta("/cuenta", { cookie: a.cookie }).request.headers });
    expect(await whoHas(tokenA)).toBeNull();
    expect(await post("users", "auth-refresh", undefined, { token: tokenA })).toMatchObject({ status: 401, body: NO_TOKEN });

    // A password change ends the other sessions.
    const b = await registerTestCustomer("api-clave");
    const tokenB = await signInAs("users", b.email, TEST_PASSWORD);
    const changed = await changePassword(requestMeta("/cuenta", { cookie: b.cookie, method: "POST" }), { currentPassword: TEST_PASSWORD, newPassword: "Otra-Clave-Segura-9" });
    expect(changed.ok).toBe(true);
    expect(await whoHas(tokenB)).toBeNull();

    // A block.
    const c = await registerTestCustomer("api-bloqueo");
    const tokenC = await signInAs("users", c.email, TEST_PASSWORD);
    expect((await setCustomerBlocked({ actor: staff.user, userId: c.user.id, blocked: true })).ok).toBe(true);
    expect(await whoHas(tokenC)).toBeNull();
    expect(await post("users", "auth-with-password", { identity: c.email, password: TEST_PASSWORD })).toMatchObject({ status: 400, body: FAILED });

    // The session's own expiry.
    const d = await registerTestCustomer("api-vencida");
    const tokenD = await signInAs("users", d.email, TEST_PASSWORD);
    await getDb().update(session).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(session.userId, d.user.id));
    expect(await whoHas(tokenD)).toBeNull();

    // Staff: a new password (npm run admin:create) ends every session.
    const staffToken = await signInAs("_superusers", staffEmail, STAFF_PASSWORD);
    expect(await whoHas(staffToken)).toEqual({ collection: "_superusers", id: staff.user.id });
    await upsertStaffAccount({ email: staffEmail, password: "Panel-Forja-Nuevo-2", name: "Personal Forja" });
    expect(await whoHas(staffToken)).toBeNull();
  });

  it("staff see an inactive product through the records API; a customer and a guest do not", async () => {
    const inactive = await createProduct(productValues({ name: "Producto retirado", active: false }));
    if (!inactive.ok) throw new Error("product not created");
    const staffEmail = `personal-productos-api-${process.pid}@forja.mx`;
    await signedInStaff(staffEmail, STAFF_PASSWORD);
    const staffToken = await signInAs("_superusers", staffEmail, STAFF_PASSWORD);
    const customer = await registerTestCustomer("api-productos");
    const customerToken = await signInAs("users", customer.email, TEST_PASSWORD);
    const view = async (token?: string) =>
      (await recordsLoader(args(`/api/collections/productos/records/${inactive.value.id}`, { headers: token ? { authorization: token } : {} }, { id: inactive.value.id }))).status;
    expect(await view(staffToken)).toBe(200);
    expect(await view(customerToken)).toBe(404);
    expect(await view()).toBe(404);
    expect(await view("un-token-falso")).toBe(404);
  });
});

describe("auth-methods", () => {
  it("answers PocketBase 0.23's shape: password by email, the configured providers for users, none for staff", async () => {
    const users = (await (await loader(args("/api/collections/users/auth-methods?fields=mfa,otp,password,oauth2"))).json()) as Record<string, unknown>;
    expect(Object.keys(users).sort()).toEqual(["mfa", "oauth2", "otp", "password"]);
    expect(users).toMatchObject({ password: { enabled: true, identityFields: ["email"] }, mfa: { enabled: false }, otp: { enabled: true, duration: 180 }, oauth2: { enabled: true } });
    const [google] = (users.oauth2 as { providers: { name: string; displayName: string; authURL: string; state: string }[] }).providers;
    expect(google).toMatchObject({ name: "google", displayName: "Google", codeChallengeMethod: "S256" });
    // Google's own authorize endpoint, PocketBase's way: the client appends its redirect URL.
    expect(google!.authURL.startsWith("https://accounts.google.com/o/oauth2/v2/auth?")).toBe(true);
    expect(google!.authURL.endsWith("&redirect_uri=")).toBe(true);
    expect(new URL(google!.authURL).searchParams.get("client_id")).toBe("forja-test-google-client");
    expect(new URL(google!.authURL).searchParams.get("state")).toBe(google!.state);

    const staff = (await (await loader(args("/api/collections/_superusers/auth-methods"))).json()) as Record<string, unknown>;
    expect(staff).toMatchObject({ oauth2: { enabled: false, providers: [] }, mfa: { enabled: true, duration: 600 }, otp: { enabled: true, duration: 180 }, emailPassword: true, usernamePassword: false });
    expect((await loader(args("/api/collections/productos/auth-methods"))).status).toBe(404);
  });
});
