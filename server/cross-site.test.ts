import { once } from "node:events";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCors } from "./cors";
import { CROSS_SITE_MESSAGE, comesFromOwnSite, crossSiteChecks } from "./cross-site";

// The cross-site check on a real Express server, in front of a handler that counts what reached
// it: which requests are checked (every page post; an API call only by session cookie), the order
// of the browser's signals, the origins that count as the site's own (its public URL, or the Host
// it was reached at, through a trusted proxy too), and the answers' shapes.

const PUBLIC = "https://forja.example";
const FOREIGN = "https://otro-sitio.example";
const SESSION = "forja.session_token=abc.def";

let server: Server;
let base: string;
let reached: string[] = [];

beforeAll(async () => {
  const app = express();
  app.set("trust proxy", "loopback");
  app.use(apiCors());
  app.use(crossSiteChecks({ publicUrl: PUBLIC }));
  app.all("/{*splat}", (req, res) => {
    reached.push(`${req.method} ${req.path}`);
    res.json({ ok: true });
  });
  server = app.listen(0, "127.0.0.1");
  await once(server, "listening");
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function post(path: string, headers: Record<string, string> = {}, method = "POST") {
  reached = [];
  const response = await fetch(`${base}${path}`, { method, headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body: method === "GET" ? undefined : "a=1" });
  return { status: response.status, type: response.headers.get("content-type") ?? "", body: await response.text(), reached: reached.length > 0, connection: response.headers.get("connection") };
}

describe("comesFromOwnSite", () => {
  const own = [PUBLIC, "http://127.0.0.1:3000"];
  const cases: [headers: Parameters<typeof comesFromOwnSite>[0], expected: boolean][] = [
    [{ origin: PUBLIC }, true],
    [{ origin: "http://127.0.0.1:3000" }, true],
    [{ origin: "https://forja.example:443" }, true],
    [{ origin: FOREIGN }, false],
    [{ origin: "https://forja.example.otro-sitio.example" }, false],
    [{ origin: "http://forja.example" }, false],
    [{ origin: "no es un origen" }, false],
    // Origin wins over what follows it.
    [{ origin: FOREIGN, referer: `${PUBLIC}/login`, secFetchSite: "same-origin" }, false],
    [{ origin: PUBLIC, referer: `${FOREIGN}/x`, secFetchSite: "cross-site" }, true],
    // "null" (a sandboxed frame, a redirect) says nothing: the Referer, then Sec-Fetch-Site decide.
    [{ origin: "null", referer: `${FOREIGN}/x` }, false],
    [{ origin: "null", secFetchSite: "cross-site" }, false],
    [{ origin: "null", referer: `${PUBLIC}/carrito` }, true],
    [{ referer: `${PUBLIC}/carrito?x=1` }, true],
    [{ referer: `${FOREIGN}/forja.example` }, false],
    [{ referer: "basura" }, false],
    [{ referer: `${FOREIGN}/`, secFetchSite: "same-origin" }, false],
    [{ secFetchSite: "same-origin" }, true],
    [{ secFetchSite: "none" }, true],
    [{ secFetchSite: "same-site" }, false],
    [{ secFetchSite: "cross-site" }, false],
    [{}, true],
  ];
  it.each(cases)("%o → %s", (headers, expected) => {
    expect(comesFromOwnSite(headers, own)).toBe(expected);
  });
});

describe("crossSiteChecks", () => {
  it("refuses a page's post from another site with a Spanish page, before the route, and closes the connection", async () => {
    for (const path of ["/salir", "/login", "/login.data", "/admin/productos/abc", "/quotes/abc"]) {
      const signals: Record<string, string>[] = [{ origin: FOREIGN }, { referer: `${FOREIGN}/pagina` }, { "sec-fetch-site": "cross-site" }];
      for (const headers of signals) {
        const answer = await post(path, headers);
        expect([path, headers, answer.status, answer.reached]).toEqual([path, headers, 403, false]);
        expect(answer.body).toContain(path.endsWith(".data") ? CROSS_SITE_MESSAGE : "Por seguridad, esta acción solo puede enviarse desde el sitio de Forja");
        expect(answer.connection).toBe("close");
      }
    }
    const page = await post("/salir", { origin: FOREIGN });
    expect(page.type).toMatch(/^text\/html/);
    expect(page.body).toContain('<html lang="es-MX">');
    for (const method of ["PUT", "PATCH", "DELETE"]) expect((await post("/carrito", { origin: FOREIGN }, method)).status).toBe(403);
  });

  it("lets the site's own posts and requests without browser signals through", async () => {
    const ownHost = base;
    const own: Record<string, string>[] = [{ origin: PUBLIC }, { origin: ownHost }, { referer: `${PUBLIC}/login` }, { origin: "null", referer: `${ownHost}/login` }, { "sec-fetch-site": "same-origin" }, {}];
    for (const headers of own) {
      const answer = await post("/login", headers);
      expect([headers, answer.status, answer.reached]).toEqual([headers, 200, true]);
    }
  });

  it("never checks reads", async () => {
    for (const method of ["GET", "OPTIONS"]) expect((await post("/login", { origin: FOREIGN, "sec-fetch-site": "cross-site" }, method)).reached).toBe(true);
  });

  it("checks an API call only when a browser's session cookie would authorize it", async () => {
    const path = "/api/collections/pedidos/records";
    // Anonymous, or authenticated by its header: no forgery (the SDK clients call from any origin).
    expect((await post(path, { origin: FOREIGN })).reached).toBe(true);
    expect((await post(path, { origin: FOREIGN, cookie: "otra=1" })).reached).toBe(true);
    expect((await post(path, { origin: FOREIGN, cookie: SESSION, authorization: "Bearer token" })).reached).toBe(true);
    // By cookie: refused in PocketBase's envelope, readable by the other origin (CORS) so an SDK can show it.
    const refused = await fetch(`${base}${path}`, { method: "POST", headers: { origin: FOREIGN, cookie: `a=1; ${SESSION}` }, body: "{}" });
    expect(refused.status).toBe(403);
    expect(refused.headers.get("access-control-allow-origin")).toBe("*");
    expect(await refused.json()).toEqual({ status: 403, message: CROSS_SITE_MESSAGE, data: {} });
    expect((await post(path, { referer: `${FOREIGN}/x`, cookie: `__Secure-${SESSION}` })).status).toBe(403);
    expect((await post(path, { origin: FOREIGN, cookie: SESSION, authorization: " " })).status).toBe(403);
    expect((await post(path, { origin: PUBLIC, cookie: SESSION })).reached).toBe(true);
    // Strapi's and better-auth's envelopes.
    expect(JSON.parse((await post("/api/auth/change-password", { origin: FOREIGN, cookie: SESSION })).body)).toEqual({
      data: null,
      error: { status: 403, name: "ForbiddenError", message: CROSS_SITE_MESSAGE, details: {} },
    });
    expect(JSON.parse((await post("/api/sesion/sign-out", { "sec-fetch-site": "cross-site", cookie: SESSION })).body)).toEqual({ code: 403, message: CROSS_SITE_MESSAGE });
  });

  it("lets the providers' form_post callbacks through, and nothing that merely resembles them", async () => {
    for (const path of ["/api/oauth2-redirect", "/api/sesion/callback/google", "/api/sesion/oauth2/callback/oidc"]) {
      await post(path, { origin: FOREIGN, cookie: SESSION });
      expect(reached).toEqual([`POST ${path}`]);
    }
    for (const path of ["/api/sesion/callback/google/x", "/api/sesion/sign-out", "/auth/google/callback"]) {
      expect((await post(path, { origin: FOREIGN, cookie: SESSION })).status).toBe(403);
    }
  });

  it("takes the Host a trusted proxy forwarded as the request's own origin", async () => {
    const forwarded = { "x-forwarded-host": "tienda.forja.example", "x-forwarded-proto": "https" };
    expect((await post("/login", { ...forwarded, origin: "https://tienda.forja.example" })).reached).toBe(true);
    expect((await post("/login", { ...forwarded, origin: "http://tienda.forja.example" })).status).toBe(403);
    expect((await post("/login", { origin: "https://tienda.forja.example" })).status).toBe(403);
  });
});
