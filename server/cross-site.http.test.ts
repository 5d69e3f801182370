import fs from "node:fs";
import path from "node:path";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// Issue 14: a state-changing request from another site is refused before its body is read, on every
// route with an action — read from app/routes.ts, so a new action is covered without editing this
// file — by the real production server over HTTP: a foreign Origin, a foreign Referer without
// Origin, and Sec-Fetch-Site: cross-site get the 403; the site's own origin does not. And what the
// refused posts would have done did not happen: the session still works, the product is still on sale.

const dataDir = await vi.hoisted(async () => (await import("../tests/support/test-env")).isolateTestEnv("cross-site"));

import routeConfig from "~/routes";
import { createProduct } from "~/features/catalogue/product-commands.server";
import { getAuthSecret } from "~/services/security/secret.server";
import { registeredCustomer, signedInStaff } from "../tests/support/auth-requests";
import { productValues } from "../tests/support/catalogue-fixtures";
import { createTestQuote } from "../tests/support/quote-fixtures";
import { startTestServer, type TestServer } from "../tests/support/test-server";
import { CROSS_SITE_EXEMPT, CROSS_SITE_MESSAGE } from "./cross-site";

const APP_DIR = path.resolve(import.meta.dirname, "../app");
const FOREIGN = "https://otro-sitio.example";
const REQUEST_TIMEOUT_MS = 20_000;

/** Every route path whose module exports an action, as a template ("admin/productos/:id"). */
function actionTemplates(entries: RouteConfigEntry[], parent = ""): string[] {
  return entries.flatMap((entry) => {
    const template = entry.path ? [parent, entry.path].filter(Boolean).join("/") : parent;
    const source = fs.readFileSync(path.join(APP_DIR, entry.file), "utf8");
    const own = (entry.path !== undefined || entry.index) && /export\s+(async\s+)?(function|const)\s+action\b/.test(source) ? [template] : [];
    return [...own, ...actionTemplates(entry.children ?? [], template)];
  });
}

const ACTIONS = [...new Set(actionTemplates(routeConfig))];

const STAFF = { name: "Personal Origen", email: `personal-origen-${process.pid}@forja.mx`, password: "Panel-Forja-Seguro-1" };
const CUSTOMER = { name: "Regina Salazar", email: `regina-origen-${process.pid}@ejemplo.mx`, password: "Fresadora-CNC-42" };
const SPARE = { name: "Tomás Ibarra", email: `tomas-origen-${process.pid}@ejemplo.mx`, password: "Fresadora-CNC-42" };
const cookies = { staff: "", customer: "", spare: "" };
const ids = { quote: "", product: "", slug: "" };
let server: TestServer | undefined;

async function prepare(): Promise<void> {
  cookies.staff = (await signedInStaff(STAFF.email, STAFF.password, STAFF.name)).cookie;
  const customer = await registeredCustomer(CUSTOMER.name, CUSTOMER.email, CUSTOMER.password);
  cookies.customer = customer.cookie;
  cookies.spare = (await registeredCustomer(SPARE.name, SPARE.email, SPARE.password)).cookie;
  const product = await createProduct(productValues({ price: 12_345, stock: 50 }));
  if (!product.ok) throw new Error("product not created");
  ids.product = product.value.id;
  ids.slug = product.value.slug;
  ids.quote = (await createTestQuote({ name: CUSTOMER.name, email: CUSTOMER.email, userId: customer.id })).id;
}

beforeAll(async () => {
  // The server's secret is this process's: the session cookies made here are valid there.
  server = await startTestServer({ prepare, dataDir, env: { AUTH_SECRET: getAuthSecret() } });
}, 360_000);

afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

/** A concrete path for a template: real ids where the route needs one. */
function concrete(template: string): string {
  const filled = template
    .replace(/^api\/auth\/\*$/, "api/auth/change-password")
    .replace(/^api\/sesion\/\*$/, "api/sesion/update-user")
    .replace(/:(\w+)/g, (_, name: string) => {
      if (name === "id") return template.startsWith("admin/productos") ? ids.product : ids.quote;
      if (name === "collection") return "pedidos";
      if (name === "provider") return "google";
      return "x";
    });
  return `/${filled}`;
}

function send(path: string, headers: Record<string, string>) {
  return fetch(`${server!.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: "intent=desactivar",
    redirect: "manual",
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
}

const refusedHere = (body: string) => body.includes(CROSS_SITE_MESSAGE);

describe("every action refuses a post from another site", { timeout: 60_000 }, () => {
  it("finds the actions in app/routes.ts", () => {
    for (const known of ["login", "registro", "salir", "cotiza", "carrito", "checkout", "quotes/:id", "admin/productos/:id", "api/collections/:collection/records", "api/batch"]) expect(ACTIONS).toContain(known);
  });

  it.each(ACTIONS)("/%s", async (template) => {
    const path = concrete(template);
    const api = path.startsWith("/api/");
    const exempt = CROSS_SITE_EXEMPT.some((pattern) => pattern.test(path));
    // What a browser's cookies would authorize: the staff's on the staff screens, a customer's elsewhere.
    const cookie = path.startsWith("/admin") ? cookies.staff : cookies.customer;
    const signals: Record<string, string>[] = [{ origin: FOREIGN }, { referer: `${FOREIGN}/pagina` }, { "sec-fetch-site": "cross-site" }];
    for (const signal of signals) {
      const response = await send(path, { cookie, ...signal });
      const body = await response.text();
      if (exempt) {
        expect([signal, refusedHere(body)]).toEqual([signal, false]);
        continue;
      }
      expect([signal, response.status, refusedHere(body)]).toEqual([signal, 403, true]);
      expect(response.headers.get("content-type") ?? "", JSON.stringify(signal)).toMatch(api ? /^application\/json/ : /^text\/html/);
      expect(response.headers.get("set-cookie")).toBeNull();
    }
    // The site's own page: on to the route (as a guest for pages, so nothing is done on anyone's
    // behalf; with a spare session for the APIs, which check only requests that carry one).
    const own = await send(path, { origin: server!.url, ...(api ? { cookie: cookies.spare } : {}) });
    const ownBody = await own.text();
    expect(refusedHere(ownBody)).toBe(false);
    if (own.status === 403) expect(api, `${path} answered 403 on its own`).toBe(true);
  });
});

describe("what a refused post would have done did not happen", { timeout: 60_000 }, () => {
  it("POST /salir from another site leaves the session signed in", async () => {
    const refused = await send("/salir", { origin: FOREIGN, cookie: cookies.customer });
    expect(refused.status).toBe(403);
    const account = await fetch(`${server!.url}/cuenta`, { headers: { cookie: cookies.customer }, redirect: "manual", signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    expect(account.status).toBe(200);
    expect(await account.text()).toContain(CUSTOMER.email);
  });

  it("a staff action with a foreign Referer and no Origin leaves the product on sale; from the site it is done", async () => {
    const productPage = () => fetch(`${server!.url}/catalogo/${ids.slug}`, { redirect: "manual", signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }).then((response) => response.status);
    expect(await productPage()).toBe(200);
    const refused = await send(`/admin/productos/${ids.product}`, { referer: `${FOREIGN}/oferta`, cookie: cookies.staff });
    expect(refused.status).toBe(403);
    expect(await productPage()).toBe(200);
    const done = await send(`/admin/productos/${ids.product}`, { origin: server!.url, cookie: cookies.staff });
    expect(done.status).toBe(200);
    expect(await productPage()).toBe(404);
  });

  it("a sign-in posted from another site sets no session", async () => {
    const refused = await fetch(`${server!.url}/login`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "cross-site" },
      body: new URLSearchParams({ email: CUSTOMER.email, password: CUSTOMER.password }),
      redirect: "manual",
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    expect(refused.status).toBe(403);
    expect(refused.headers.get("set-cookie")).toBeNull();
  });
});

describe("API clients", { timeout: 60_000 }, () => {
  it("an API call authenticated by its Authorization header works from any origin, with a session cookie too", async () => {
    const signIn = await fetch(`${server!.url}/api/collections/users/auth-with-password`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: FOREIGN },
      body: JSON.stringify({ identity: SPARE.email, password: SPARE.password }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    expect(signIn.status).toBe(200);
    const { token } = (await signIn.json()) as { token: string };
    const refresh = await fetch(`${server!.url}/api/collections/users/auth-refresh`, {
      method: "POST",
      headers: { origin: FOREIGN, authorization: token, cookie: cookies.customer },
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    expect(refresh.status).toBe(200);
  });

  it("an API call by session cookie from another site is refused in the API's envelope", async () => {
    const refused = await fetch(`${server!.url}/api/collections/users/auth-refresh`, {
      method: "POST",
      headers: { origin: FOREIGN, cookie: cookies.customer },
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    expect(refused.status).toBe(403);
    expect(refused.headers.get("access-control-allow-origin")).toBe("*");
    expect(await refused.json()).toEqual({ status: 403, message: CROSS_SITE_MESSAGE, data: {} });
  });
});
