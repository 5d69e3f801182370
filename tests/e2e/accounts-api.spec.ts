import { expect, test } from "./support/fixtures";
import { baseUrl, createCustomer, signInApi } from "./support/accounts";
import { clientHeaders } from "./support/fixtures";

// Issue 3 §2: GET /api/users/me (the seed's /users/me with populate), cookie or bearer token; since
// issue 11 the seed's user object itself and Strapi's error envelope (docs/decisions/0017).

test.describe("GET /api/users/me", () => {
  test("answers 401 JSON without a session", async ({ request }) => {
    const response = await request.get("/api/users/me");
    expect(response.status()).toBe(401);
    expect(response.headers()["content-type"]).toContain("application/json");
    expect(response.headers()["cache-control"]).toContain("no-store");
    expect(await response.json()).toEqual({ data: null, error: { status: 401, name: "UnauthorizedError", message: "Missing or invalid credentials", details: {} } });
  });

  test("returns the signed-in user; populate=profile adds the profile; an unknown populate is 400", async ({ request }) => {
    const customer = await createCustomer(request, { company: "Moldes y Troqueles del Norte", phone: "4421234567" });

    const plain = await request.get("/api/users/me");
    expect(plain.status()).toBe(200);
    expect(plain.headers()["cache-control"]).toContain("no-store");
    const data = await plain.json();
    expect(data).toMatchObject({ id: customer.id, email: customer.email, username: customer.name, provider: "local", confirmed: false, blocked: false });
    expect(data).not.toHaveProperty("profile");
    expect(JSON.stringify(data)).not.toMatch(/password|token/i);

    const populated = await request.get("/api/users/me?populate=profile");
    expect(populated.status()).toBe(200);
    expect((await populated.json()).profile).toEqual({ company: "Moldes y Troqueles del Norte", phone: "4421234567" });

    const both = await request.get("/api/users/me?populate=profile,providers");
    expect(both.status()).toBe(200);
    expect((await both.json()).providers).toContainEqual(expect.objectContaining({ id: "oidc", linked: false }));

    const unknown = await request.get("/api/users/me?populate=pedidos");
    expect(unknown.status()).toBe(400);
    const body = await unknown.json();
    expect(body.error).toMatchObject({ status: 400, name: "ValidationError" });
    expect(body.error.message).toContain("populate no admite: pedidos");
  });

  test("accepts Authorization: Bearer <token> from POST /api/sesion/sign-in/email instead of the cookie", async ({ request, playwright }) => {
    const customer = await createCustomer(request);

    const signer = await playwright.request.newContext({ baseURL: baseUrl(), extraHTTPHeaders: clientHeaders() });
    const { response, token } = await signInApi(signer, customer.email, customer.password);
    await signer.dispose();
    expect(response.status()).toBe(200);
    expect(token, "set-auth-token header").toBeTruthy();

    // A client that has no cookies at all.
    const bearer = await playwright.request.newContext({
      baseURL: baseUrl(),
      extraHTTPHeaders: { ...clientHeaders(), authorization: `Bearer ${token}` },
    });
    const forged = await playwright.request.newContext({
      baseURL: baseUrl(),
      extraHTTPHeaders: { ...clientHeaders(), authorization: `Bearer ${token!.slice(0, -4)}AAAA` },
    });
    try {
      expect((await bearer.storageState()).cookies).toEqual([]);
      const me = await bearer.get("/api/users/me?populate=profile");
      expect(me.status()).toBe(200);
      expect(await me.json()).toMatchObject({ id: customer.id, email: customer.email, profile: { company: null, phone: null } });

      expect((await forged.get("/api/users/me")).status()).toBe(401);
    } finally {
      await bearer.dispose();
      await forged.dispose();
    }
  });
});
