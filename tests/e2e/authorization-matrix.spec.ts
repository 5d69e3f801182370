import type { APIRequestContext, APIResponse } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { binaryStlFile } from "../support/minimal-files";
import { STAFF, baseUrl, createCustomer, signInApi, type Customer } from "./support/accounts";
import { clientHeaders } from "./support/fixtures";
import { fetchFormToken, findSolicitudes, quoteMultipart, quoteValues } from "./support/solicitudes";
import { createStaffMember, signInAdmin } from "./support/staff";

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
  /** Extra checks of every answer, whatever its status (e.g. never the bytes of a file). */
  raw?: (body: Buffer, actor: Actor) => void;
  /** The form a POST sends, per actor. */
  form?: (actor: Actor) => Record<string, string>;
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
      if (actor !== "guest") expect(JSON.parse(text).email).toBe(identities[actor].email);
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

    await checkRows(
      ROWS.map((row) =>
        row.method === "POST"
          ? {
              ...row,
              form: (actor: Actor) =>
                actor === "staff"
                  ? { intent: "unblock", userId: otherCustomer.id }
                  : { intent: "block", userId: actor === "customer" ? otherCustomer.id : customer.id },
            }
          : row,
      ),
      clients,
    );

    // The refused block attempts changed nothing: both customers are still active and signed in.
    expect((await clients.customer.get("/api/users/me")).status()).toBe(200);
    expect((await clients.otherCustomer.get("/api/users/me")).status()).toBe(200);
  } finally {
    for (const client of Object.values(clients)) await client.dispose();
  }
});

/** Sends every row as every actor; collects each outcome and fails once with all mismatches. */
async function checkRows(rows: Row[], clients: Record<Actor, APIRequestContext>): Promise<void> {
  const results: string[] = [];
  const failures: string[] = [];
  for (const row of rows) {
    for (const actor of ACTORS) {
      const expected = row.expect[actor];
      const response: APIResponse =
        row.method === "GET"
          ? await clients[actor].get(row.path)
          : await clients[actor].post(row.path, { headers: { origin: baseUrl() }, form: row.form?.(actor) ?? {} });
      const actual = response.status() >= 300 && response.status() < 400 ? `→ ${response.headers()["location"]}` : String(response.status());
      const wanted = typeof expected === "number" ? String(expected) : `→ ${expected.redirect}`;
      const label = `${row.method} ${row.path} as ${actor}`;
      results.push(`${label}: ${actual}`);
      if (actual !== wanted) failures.push(`${label}: expected ${wanted}, got ${actual}`);
      else {
        try {
          row.raw?.(await response.body(), actor);
          if (response.status() === 200 && row.body) row.body(await response.text(), actor);
        } catch (error) {
          failures.push(`${label}: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
        }
      }
    }
  }
  test.info().annotations.push({ type: "matrix", description: results.join("\n") });
  expect(failures, results.join("\n")).toEqual([]);
}

// Issue 4 §4: the solicitudes' staff pages, their file and CSV routes and the detail's actions.
// The request is sent by the signed-in customer (so it is linked to that account): even its
// author only ever gets the staff login, never the file.
test("authorization matrix: /admin/formularios, a solicitud, its file, the CSV and the detail's POST", async ({ playwright }) => {
  test.slow(); // 25 requests, three accounts and a solicitud
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

    // The customer's own request, with a file.
    const stl = binaryStlFile();
    const values = quoteValues({ email: customer.email });
    const token = await fetchFormToken(clients.customer, "/cotiza");
    await new Promise((resolve) => setTimeout(resolve, 3_100));
    const sent = await clients.customer.post("/api/cotiza", { multipart: quoteMultipart(values, token, [{ name: "pieza-cliente.stl", bytes: stl }]) });
    expect(sent.status(), await sent.text()).toBe(200);
    const [solicitud] = await findSolicitudes(clients.staff, values.tag);
    expect(solicitud).toBeTruthy();
    const detailHtml = await (await clients.staff.get(`/admin/formularios/${solicitud.id}`)).text();
    expect(detailHtml, "linked to the customer's account").toContain(customer.email);
    const filePath = /href="(\/admin\/formularios\/[0-9a-f-]{36}\/archivos\/[0-9a-f-]{36})"/.exec(detailHtml)?.[1];
    expect(filePath).toBeTruthy();

    const staffOnly = (path: string) => ({ guest: adminLogin(path), customer: adminLogin(path), otherCustomer: adminLogin(path), staff: 200 });
    const neverTheFile = (body: Buffer, actor: Actor) => {
      if (actor !== "staff") expect(body.includes(Buffer.from(stl.subarray(84, 134))), `${actor} never gets the file`).toBe(false);
    };
    const detail = `/admin/formularios/${solicitud.id}`;
    const rows: Row[] = [
      { method: "GET", path: "/admin/formularios", expect: staffOnly("/admin/formularios") },
      { method: "GET", path: `/admin/formularios?q=${values.tag}`, expect: staffOnly(`/admin/formularios?q=${values.tag}`) },
      {
        method: "GET",
        path: detail,
        expect: staffOnly(detail),
        body: (text) => expect(text).toContain(solicitud.number),
      },
      {
        method: "GET",
        path: filePath!,
        expect: staffOnly(filePath!),
        raw: (body, actor) => {
          neverTheFile(body, actor);
          if (actor === "staff") expect(Buffer.compare(body, Buffer.from(stl))).toBe(0);
        },
      },
      {
        method: "GET",
        path: `${detail}/archivos/00000000-0000-4000-8000-000000000000`,
        expect: { ...staffOnly(`${detail}/archivos/00000000-0000-4000-8000-000000000000`), staff: 404 },
      },
      {
        method: "GET",
        path: "/admin/formularios/exportar.csv",
        expect: staffOnly("/admin/formularios/exportar.csv"),
        raw: (body, actor) => {
          if (actor !== "staff") expect(body.toString("utf8")).not.toContain(solicitud.number);
        },
      },
      {
        method: "POST",
        path: detail,
        expect: staffOnly(detail),
        form: (actor) => ({ intent: "nota", note: `Nota de prueba de ${actor}` }),
      },
      {
        method: "POST",
        path: detail,
        expect: staffOnly(detail),
        form: (actor) => ({ intent: "estado", status: actor === "staff" ? "en_revision" : "descartado" }),
      },
      { method: "GET", path: "/admin", expect: staffOnly("/admin") },
    ];
    await checkRows(rows, clients);

    // Only staff's actions reached the history.
    const after = await (await clients.staff.get(detail)).text();
    expect(after).toContain("Nota de prueba de staff");
    expect(after).not.toMatch(/Nota de prueba de (guest|customer|otherCustomer)/);
    const csv = (await (await clients.staff.get(`/admin/formularios/exportar.csv?q=${values.tag}`)).text()).split("\r\n");
    expect(csv[1]).toContain(",En revisión,");
  } finally {
    for (const client of Object.values(clients)) await client.dispose();
  }
});

// Issue 16 §4 (docs/decisions/0040): the staff roles. Every staff page and action × admin (the
// account from admin-create), editor and sales (both invited by the admin): the role, not being
// staff, decides. Customers and guests are the rows above (the staff login).
test("authorization matrix: the staff pages × admin, editor and sales", async ({ playwright }) => {
  test.slow(); // two invitations, three sessions and about 45 requests
  type Role = "admin" | "editor" | "ventas";
  const ROLES: Role[] = ["admin", "editor", "ventas"];
  const clients = {} as Record<Role, APIRequestContext>;
  for (const role of ROLES) {
    clients[role] = await playwright.request.newContext({ baseURL: baseUrl(), extraHTTPHeaders: clientHeaders(), maxRedirects: 0 });
  }
  try {
    await signInAdmin(clients.admin);
    const editor = await createStaffMember(clients.admin, clients.editor, "editor");
    const ventas = await createStaffMember(clients.admin, clients.ventas, "ventas");
    const customerClient = await playwright.request.newContext({ baseURL: baseUrl(), extraHTTPHeaders: clientHeaders() });
    const customer = await createCustomer(customerClient).finally(() => customerClient.dispose());
    const staffList = await (await clients.admin.get("/admin/personal")).text();
    const editorId = new RegExp(`data-email="${editor.email.replace(/\./g, "\\.")}"[\\s\\S]*?name="userId" value="([^"]+)"`).exec(staffList)?.[1];
    expect(editorId).toBeTruthy();

    const sales = { admin: 200, editor: 403, ventas: 200 };
    const adminOnly = { admin: 200, editor: 403, ventas: 403 };
    const everyone = { admin: 200, editor: 200, ventas: 200 };
    const rows: { method: "GET" | "POST"; path: string; expect: Record<Role, number>; form?: Record<string, string> }[] = [
      { method: "GET", path: "/admin", expect: everyone },
      { method: "GET", path: "/admin/formularios", expect: sales },
      { method: "GET", path: "/admin/formularios/exportar.csv", expect: sales },
      { method: "GET", path: "/admin/cotizaciones", expect: sales },
      { method: "GET", path: "/admin/cotizaciones/nueva", expect: sales },
      { method: "GET", path: "/admin/clientes", expect: sales },
      { method: "POST", path: "/admin/clientes", expect: sales, form: { intent: "unblock", userId: customer.id } },
      { method: "GET", path: "/admin/pedidos", expect: sales },
      { method: "GET", path: "/admin/productos", expect: sales },
      { method: "GET", path: "/admin/personal", expect: adminOnly },
      // Giving the editor the role it already has: harmless for the admin, refused to the others.
      { method: "POST", path: "/admin/personal", expect: adminOnly, form: { intent: "rol", userId: editorId!, role: "editor" } },
      { method: "POST", path: "/admin/personal", expect: { admin: 400, editor: 403, ventas: 403 }, form: { intent: "invitar", name: "", email: "", role: "admin" } },
    ];
    const results: string[] = [];
    const failures: string[] = [];
    for (const row of rows) {
      for (const role of ROLES) {
        const response =
          row.method === "GET" ? await clients[role].get(row.path) : await clients[role].post(row.path, { headers: { origin: baseUrl() }, form: row.form ?? {} });
        const label = `${row.method} ${row.path} as ${role}`;
        results.push(`${label}: ${response.status()}`);
        if (response.status() !== row.expect[role]) failures.push(`${label}: expected ${row.expect[role]}, got ${response.status()}`);
      }
    }
    test.info().annotations.push({ type: "matrix", description: results.join("\n") });
    expect(failures, results.join("\n")).toEqual([]);
    // The refused attempts changed nothing: the editor is still an editor and nobody new was invited.
    expect(await (await clients.admin.get("/admin/personal")).text()).toContain(editor.email);
    expect((await clients.editor.get("/admin")).status()).toBe(200);

    // The record API: the same table decides for `_superusers` tokens (customers are sales' area).
    const credentials = { admin: { email: STAFF.email, password: STAFF.password }, editor, ventas };
    for (const role of ROLES) {
      const signedIn = await clients[role].post("/api/collections/_superusers/auth-with-password", {
        data: { identity: credentials[role].email, password: credentials[role].password },
      });
      expect(signedIn.status()).toBe(200);
      const { token } = (await signedIn.json()) as { token: string };
      const users = await clients[role].get("/api/collections/users/records?perPage=1", { headers: { Authorization: token } });
      expect(users.status()).toBe(200);
      const { totalItems } = (await users.json()) as { totalItems: number };
      if (role === "editor") expect(totalItems, "an editor reads customers as a guest: none").toBe(0);
      else expect(totalItems, `${role} reads the customers`).toBeGreaterThan(0);
    }
  } finally {
    for (const client of Object.values(clients)) await client.dispose();
  }
});
