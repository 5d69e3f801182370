import type { APIRequestContext, APIResponse } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { STAFF, baseUrl, createCustomer, signInApi, type Customer } from "./support/accounts";
import { clientHeaders } from "./support/fixtures";

// Issue 3 §5: every page and API introduced so far × {guest, customer, another customer, staff},
// with the status or redirect each must get — checked on the server, without a browser.

type Actor = "guest" | "customer" | "otherCustomer" | "staff";
const ACTORS: Actor[] = ["guest", "customer", "otherCustomer", "staff"];

type Outcome = number | { redirect: string };

interface Row {
  method: "GET" | "POST";
  path: string;
  expect: Record<Actor, Outcome>;
  /** Extra checks of a 200 answer (whose data it shows). */
  body?: (text: string, actor: Actor) => void;
}

const login = (path: string) => ({ redirect: `/login?redirectTo=${encodeURIComponent(path)}` });
const adminLogin = (path: string) => ({ redirect: `/admin/login?redirectTo=${encodeURIComponent(path)}` });

let identities: Record<Exclude<Actor, "guest">, { email: string; id?: string }>;

/** The signed-in user's own email is on the page and the other customer's is not. */
function showsOnlyOwnData(text: string, actor: Actor) {
  if (actor === "guest") return;
  expect(text, `${actor} sees their own email`).toContain(identities[actor].email);
  for (const [other, identity] of Object.entries(identities)) {
    if (other !== actor) expect(text, `${actor} must not see ${other}'s email`).not.toContain(identity.email);
  }
}

const ROWS: Row[] = [
  {
    method: "GET",
    path: "/cuenta",
    expect: { guest: login("/cuenta"), customer: 200, otherCustomer: 200, staff: 200 },
    body: showsOnlyOwnData,
  },
  { method: "GET", path: "/quotes", expect: { guest: login("/quotes"), customer: 200, otherCustomer: 200, staff: 200 } },
  { method: "GET", path: "/quotes/x", expect: { guest: login("/quotes/x"), customer: 404, otherCustomer: 404, staff: 404 } },
  {
    method: "GET",
    path: "/admin",
    expect: { guest: adminLogin("/admin"), customer: adminLogin("/admin"), otherCustomer: adminLogin("/admin"), staff: 200 },
  },
  {
    method: "GET",
    path: "/admin/formularios",
    expect: {
      guest: adminLogin("/admin/formularios"),
      customer: adminLogin("/admin/formularios"),
      otherCustomer: adminLogin("/admin/formularios"),
      staff: 200,
    },
  },
  {
    method: "GET",
    path: "/admin/clientes",
    expect: {
      guest: adminLogin("/admin/clientes"),
      customer: adminLogin("/admin/clientes"),
      otherCustomer: adminLogin("/admin/clientes"),
      staff: 200,
    },
  },
  {
    // Non-staff try to block a customer (someone else, or themselves); staff unblock (harmless).
    method: "POST",
    path: "/admin/clientes",
    expect: {
      guest: adminLogin("/admin/clientes"),
      customer: adminLogin("/admin/clientes"),
      otherCustomer: adminLogin("/admin/clientes"),
      staff: 200,
    },
  },
  {
    method: "GET",
    path: "/api/users/me",
    expect: { guest: 401, customer: 200, otherCustomer: 200, staff: 200 },
    body: (text, actor) => {
      if (actor !== "guest") expect(JSON.parse(text).data.email).toBe(identities[actor].email);
    },
  },
  { method: "GET", path: "/admin/login", expect: { guest: 200, customer: 200, otherCustomer: 200, staff: 200 } },
  { method: "GET", path: "/login", expect: { guest: 200, customer: { redirect: "/cuenta" }, otherCustomer: { redirect: "/cuenta" }, staff: { redirect: "/cuenta" } } },
];

test("authorization matrix: every page and API × guest, customer, another customer, staff", async ({ playwright }) => {
  test.slow(); // 40 requests and three accounts
  const clients = {} as Record<Actor, APIRequestContext>;
  for (const actor of ACTORS) {
    clients[actor] = await playwright.request.newContext({ baseURL: baseUrl(), extraHTTPHeaders: clientHeaders(), maxRedirects: 0 });
  }
  try {
    const customer: Customer = await createCustomer(clients.customer);
    const otherCustomer: Customer = await createCustomer(clients.otherCustomer);
    const staff = await signInApi(clients.staff, STAFF.email, STAFF.password);
    expect(staff.response.status()).toBe(200);
    identities = { customer, otherCustomer, staff: { email: STAFF.email } };

    const results: string[] = [];
    const failures: string[] = [];
    for (const row of ROWS) {
      for (const actor of ACTORS) {
        const expected = row.expect[actor];
        const response: APIResponse =
          row.method === "GET"
            ? await clients[actor].get(row.path)
            : await clients[actor].post(row.path, {
                headers: { origin: baseUrl() },
                form:
                  actor === "staff"
                    ? { intent: "unblock", userId: otherCustomer.id }
                    : { intent: "block", userId: actor === "customer" ? otherCustomer.id : customer.id },
              });
        const actual =
          response.status() >= 300 && response.status() < 400 ? `→ ${response.headers()["location"]}` : String(response.status());
        const wanted = typeof expected === "number" ? String(expected) : `→ ${expected.redirect}`;
        const label = `${row.method} ${row.path} as ${actor}`;
        results.push(`${label}: ${actual}`);
        if (actual !== wanted) failures.push(`${label}: expected ${wanted}, got ${actual}`);
        else if (response.status() === 200 && row.body) {
          try {
            row.body(await response.text(), actor);
          } catch (error) {
            failures.push(`${label}: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
          }
        }
      }
    }
    test.info().annotations.push({ type: "matrix", description: results.join("\n") });
    expect(failures, results.join("\n")).toEqual([]);

    // The refused block attempts changed nothing: both customers are still active and signed in.
    expect((await clients.customer.get("/api/users/me")).status()).toBe(200);
    expect((await clients.otherCustomer.get("/api/users/me")).status()).toBe(200);
  } finally {
    for (const client of Object.values(clients)) await client.dispose();
  }
});
