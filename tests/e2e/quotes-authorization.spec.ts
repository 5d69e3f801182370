import { randomUUID } from "node:crypto";
import type { APIRequestContext, APIResponse } from "@playwright/test";
import { STAFF, baseUrl, createCustomer, signInApi, type Customer } from "./support/accounts";
import { clientHeaders, expect, test } from "./support/fixtures";
import { QUOTE_NUMBER, UUID, confirmEmail, createConfirmedCustomer, pdfText, sampleQuote, staffCreateQuote, type StaffQuote } from "./support/quotes";

// Issue 5 §3–§5: every quote page, form post and the PDF × {guest, owner, another customer, staff},
// checked on the server without a browser. Another customer's quote is a 404 exactly like one that
// does not exist — never a 403 that confirms it is there.

type Actor = "guest" | "owner" | "otherCustomer" | "staff";
// The owner goes last: its accept is real, and every other actor's attempt must find the quote open.
const ACTORS: Actor[] = ["guest", "otherCustomer", "staff", "owner"];

type Outcome = number | { redirect: string | RegExp };

interface Row {
  method: "GET" | "POST";
  path: string;
  form?: (actor: Actor) => Record<string, string>;
  expect: Record<Actor, Outcome>;
  /** Extra checks of the answer (what it shows, or does not). */
  check?: (response: APIResponse, actor: Actor) => Promise<void>;
}

const signatureOf = (actor: Actor) => `Firma de prueba ${actor}`;
const messageFrom = (actor: Actor) => `¿Podemos cambiar el acabado a pintura electrostática? (${actor})`;

const staffReplyFrom = (actor: Actor) => `Sí, con un costo adicional de $450.00 por pieza. (${actor})`;

const login = (path: string) => ({ redirect: `/login?redirectTo=${encodeURIComponent(path)}` });
const adminLogin = (path: string) => ({ redirect: `/admin/login?redirectTo=${encodeURIComponent(path)}` });

function rows(quote: StaffQuote, owner: Customer): Row[] {
  const detail = `/quotes/${quote.id}`;
  const pdf = `${detail}/pdf`;
  const admin = `/admin/cotizaciones/${quote.id}`;
  const onlyOwnerSeesIt = async (response: APIResponse, actor: Actor) => {
    if (response.status() !== 200) return;
    const text = await response.text();
    if (actor === "owner") expect(text, "the owner sees the quote").toContain(quote.number);
    else expect(text, `${actor} must not see ${quote.number}`).not.toContain(quote.number);
  };
  const saysNothing = async (response: APIResponse, actor: Actor) => {
    if (response.status() === 404) {
      const text = await response.text();
      expect(text, `${actor}'s 404 names no quote`).not.toContain(quote.number);
      expect(text, `${actor}'s 404 names no customer`).not.toContain(owner.email);
    }
  };
  const adminOnly = (path: string, staff: Outcome): Record<Actor, Outcome> => ({
    guest: adminLogin(path),
    owner: adminLogin(path),
    otherCustomer: adminLogin(path),
    staff,
  });
  return [
    { method: "GET", path: "/quotes", expect: { guest: login("/quotes"), owner: 200, otherCustomer: 200, staff: 200 }, check: onlyOwnerSeesIt },
    {
      method: "GET",
      path: detail,
      expect: { guest: login(detail), owner: 200, otherCustomer: 404, staff: 404 },
      check: async (response, actor) => {
        await onlyOwnerSeesIt(response, actor);
        await saysNothing(response, actor);
      },
    },
    {
      method: "GET",
      path: pdf,
      expect: { guest: login(pdf), owner: 200, otherCustomer: 404, staff: 200 },
      check: async (response, actor) => {
        await saysNothing(response, actor);
        if (response.status() !== 200) return;
        expect(response.headers()["content-type"]).toBe("application/pdf");
        expect(response.headers()["content-disposition"]).toBe(`attachment; filename="${quote.number}.pdf"`);
        const text = await pdfText(await response.body());
        expect(text).toContain(quote.number);
      },
    },
    {
      // A message: refused for everyone but the owner (whose message is posted).
      method: "POST",
      path: detail,
      form: (actor) => ({ intent: "mensaje", body: messageFrom(actor) }),
      expect: { guest: login(detail), owner: { redirect: `${detail}?ok=mensaje#mensajes` }, otherCustomer: 404, staff: 404 },
      check: saysNothing,
    },
    {
      // The accept itself.
      method: "POST",
      path: detail,
      form: (actor) => ({ intent: "aceptar", fullName: signatureOf(actor), terms: "on", revision: "1" }),
      expect: { guest: login(detail), owner: { redirect: `${detail}?ok=aceptada` }, otherCustomer: 404, staff: 404 },
      check: saysNothing,
    },
    { method: "GET", path: "/admin/cotizaciones", expect: adminOnly("/admin/cotizaciones", 200) },
    { method: "GET", path: admin, expect: adminOnly(admin, 200) },
    {
      // A staff reply: only staff may post to the admin page.
      method: "POST",
      path: admin,
      form: (actor) => ({ intent: "mensaje", body: staffReplyFrom(actor) }),
      expect: adminOnly(admin, 200),
    },
    { method: "GET", path: "/admin/cotizaciones/nueva", expect: adminOnly("/admin/cotizaciones/nueva", 200) },
    {
      method: "POST",
      path: "/admin/cotizaciones/nueva",
      form: () => ({}),
      expect: adminOnly("/admin/cotizaciones/nueva", { redirect: new RegExp(`^/admin/cotizaciones/${UUID.source}$`) }),
    },
  ];
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

async function newClient(playwright: { request: { newContext: (options: object) => Promise<APIRequestContext> } }): Promise<APIRequestContext> {
  return playwright.request.newContext({ baseURL: baseUrl(), extraHTTPHeaders: clientHeaders(), maxRedirects: 0 });
}

test("quote authorization matrix: pages, posts and the PDF × guest, owner, another customer, staff", async ({ playwright }) => {
  test.slow(); // three accounts, two confirmations and ~40 requests
  const clients = {} as Record<Actor, APIRequestContext>;
  for (const actor of ACTORS) clients[actor] = await newClient(playwright);
  try {
    const owner = await createConfirmedCustomer(clients.owner, { name: "Olga Propietaria Matriz" });
    await createConfirmedCustomer(clients.otherCustomer, { name: "Óscar Otro Cliente" });
    expect((await signInApi(clients.staff, STAFF.email, STAFF.password)).response.status()).toBe(200);
    const quote = await staffCreateQuote(clients.staff, sampleQuote(owner));

    const results: string[] = [];
    const failures: string[] = [];
    for (const row of rows(quote, owner)) {
      for (const actor of ACTORS) {
        const expected = row.expect[actor];
        const form = row.form?.(actor);
        const response =
          row.method === "GET" ? await clients[actor].get(row.path) : await clients[actor].post(row.path, { headers: { origin: baseUrl() }, form: form ?? {} });
        const status = response.status();
        const location = response.headers()["location"] ?? "";
        const actual = status >= 300 && status < 400 ? `→ ${location}` : String(status);
        const label = `${row.method} ${row.path}${form?.intent ? ` (${form.intent})` : ""} as ${actor}`;
        results.push(`${label}: ${actual}`);
        const matches =
          typeof expected === "number"
            ? status === expected
            : status >= 300 && status < 400 && (typeof expected.redirect === "string" ? location === expected.redirect : expected.redirect.test(location));
        if (!matches) {
          failures.push(`${label}: expected ${typeof expected === "number" ? expected : `→ ${String(expected.redirect)}`}, got ${actual}`);
          continue;
        }
        if (row.check) {
          try {
            await row.check(response, actor);
          } catch (error) {
            failures.push(`${label}: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
          }
        }
      }
    }
    test.info().annotations.push({ type: "matrix", description: results.join("\n") });
    expect(failures, results.join("\n")).toEqual([]);

    // The refused posts changed nothing: the acceptance is the owner's; only the owner's and staff's messages exist.
    // (Without React's text separators, "<!-- -->".)
    const adminPage = (await (await clients.staff.get(`/admin/cotizaciones/${quote.id}`)).text()).replaceAll("<!-- -->", "");
    const ownerPage = (await (await clients.owner.get(`/quotes/${quote.id}`)).text()).replaceAll("<!-- -->", "");
    expect(adminPage).toContain("Aceptación del cliente");
    expect(ownerPage).toContain(`Aceptada por ${signatureOf("owner")}`);
    for (const page of [adminPage, ownerPage]) {
      expect(page).toContain(signatureOf("owner"));
      expect(page).toContain(escapeHtml(messageFrom("owner")));
      expect(page).toContain(escapeHtml(staffReplyFrom("staff")));
      for (const actor of ["guest", "otherCustomer", "staff"] as const) {
        expect(page).not.toContain(signatureOf(actor));
        expect(page).not.toContain(escapeHtml(messageFrom(actor)));
      }
      for (const actor of ["guest", "owner", "otherCustomer"] as const) expect(page).not.toContain(escapeHtml(staffReplyFrom(actor)));
    }

    // Another customer's quote answers exactly like a quote that does not exist.
    const missing = `/quotes/${randomUUID()}`;
    for (const path of [missing, `${missing}/pdf`]) {
      const response = await clients.otherCustomer.get(path);
      expect(response.status(), path).toBe(404);
    }
    const [foreign, absent] = await Promise.all([clients.otherCustomer.get(`/quotes/${quote.id}`), clients.otherCustomer.get(missing)]);
    const title = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];
    expect(title(await foreign.text())).toBe(title(await absent.text()));
    // Nonsense ids are a 404 too (never a 500).
    expect((await clients.owner.get("/quotes/no-es-un-id")).status()).toBe(404);
    expect((await clients.staff.get("/admin/cotizaciones/no-es-un-id")).status()).toBe(404);
  } finally {
    for (const client of Object.values(clients)) await client.dispose();
  }
});

test("a quote sent to an email belongs to that email's account only once the email is confirmed", async ({ playwright }) => {
  const [customerClient, staff] = [await newClient(playwright), await newClient(playwright)];
  try {
    expect((await signInApi(staff, STAFF.email, STAFF.password)).response.status()).toBe(200);
    // Registered but not confirmed: the quote sent to this address is not theirs yet.
    const customer = await createCustomer(customerClient, { name: "Ulises Sin Confirmar" });
    const quote = await staffCreateQuote(staff, sampleQuote(customer));
    expect((await customerClient.get(`/quotes/${quote.id}`)).status()).toBe(404);
    expect((await customerClient.get(`/quotes/${quote.id}/pdf`)).status()).toBe(404);
    expect(await (await customerClient.get("/quotes")).text()).not.toContain(quote.number);

    await confirmEmail(customerClient, customer.email);
    expect((await customerClient.get(`/quotes/${quote.id}`)).status()).toBe(200);
    expect(await (await customerClient.get("/quotes")).text()).toContain(quote.number);
    expect(QUOTE_NUMBER.test(quote.number)).toBe(true);
  } finally {
    await customerClient.dispose();
    await staff.dispose();
  }
});
