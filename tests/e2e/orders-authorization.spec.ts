import { randomUUID } from "node:crypto";
import type { APIRequestContext, APIResponse } from "@playwright/test";
import { STAFF, baseUrl, createCustomer, signInApi, type Customer } from "./support/accounts";
import { clientHeaders, expect, test } from "./support/fixtures";
import { addToCartApi, cartQuantityApi, createProduct, findOrders, placeOrderApi, speiReference, stockOf, type TestProduct } from "./support/shop";

// Issue 6 §5: the authorization matrix extended to the shop — every order, product and cart page
// or post × {guest, owner, another customer, staff}, checked on the server without a browser. A
// customer never sees another's order (the same 404 as an order that does not exist) or cart.

type Actor = "guest" | "owner" | "otherCustomer" | "staff";
// The owner last: its post is real, and everyone else's attempt must have changed nothing before it.
const ACTORS: Actor[] = ["guest", "otherCustomer", "staff", "owner"];

type Outcome = number | { redirect: string };

interface Row {
  method: "GET" | "POST";
  path: string;
  form?: (actor: Actor) => Record<string, string>;
  expect: Record<Actor, Outcome>;
  check?: (response: APIResponse, actor: Actor) => Promise<void>;
}

const login = (path: string) => ({ redirect: `/login?redirectTo=${encodeURIComponent(path)}` });
const adminLogin = (path: string) => ({ redirect: `/admin/login?redirectTo=${encodeURIComponent(path)}` });
const adminOnly = (path: string, staff: Outcome = 200): Record<Actor, Outcome> => ({ guest: adminLogin(path), owner: adminLogin(path), otherCustomer: adminLogin(path), staff });

interface Fixture {
  owner: Customer;
  other: Customer;
  product: TestProduct;
  order: { id: string; number: string };
  guestOrder: { id: string; number: string };
}

function rows({ owner, product, order, guestOrder }: Fixture): Row[] {
  const confirmation = `/checkout/confirmacion/${order.number}`;
  const guestConfirmation = `/checkout/confirmacion/${guestOrder.number}`;
  const adminOrder = `/admin/pedidos/${order.id}`;
  const adminProduct = `/admin/productos/${product.id}`;
  const ownerName = owner.name;
  /** Only the owner's answers name the order; a 404 says nothing about it or its owner. */
  const onlyOwnerSees = (number: string) => async (response: APIResponse, actor: Actor) => {
    const text = await response.text();
    if (actor === "owner" && response.status() === 200) {
      expect(text, "the owner sees the order").toContain(number);
      return;
    }
    expect(text, `${actor} must not see ${owner.email}`).not.toContain(owner.email);
    expect(text, `${actor} must not see ${ownerName}`).not.toContain(ownerName);
    expect(text, `${actor} must not see the SPEI reference`).not.toContain(speiReference(number));
    if (response.status() === 200) expect(text, `${actor} must not see ${number}`).not.toContain(number);
  };
  const ownerCartOnly = async (response: APIResponse, actor: Actor) => {
    const text = await response.text();
    if (actor === "owner") expect(text).toContain(product.name);
    else expect(text, `${actor} must not see the owner's cart`).not.toContain(product.name);
  };
  return [
    { method: "GET", path: "/cuenta/pedidos", expect: { guest: login("/cuenta/pedidos"), owner: 200, otherCustomer: 200, staff: 200 }, check: onlyOwnerSees(order.number) },
    { method: "GET", path: confirmation, expect: { guest: 404, owner: 200, otherCustomer: 404, staff: 404 }, check: onlyOwnerSees(order.number) },
    // A guest's order: only the browser that placed it (checked apart) may open it.
    { method: "GET", path: guestConfirmation, expect: { guest: 404, owner: 404, otherCustomer: 404, staff: 404 } },
    {
      method: "GET",
      path: "/admin/pedidos",
      expect: adminOnly("/admin/pedidos"),
      check: async (response, actor) => {
        if (actor === "staff") expect(await response.text()).toContain(order.number);
      },
    },
    {
      method: "GET",
      path: adminOrder,
      expect: adminOnly(adminOrder),
      check: async (response, actor) => {
        if (actor === "staff") expect(await response.text()).toContain(owner.email);
      },
    },
    {
      // Customers try to cancel (which would return the stock); staff mark it paid.
      method: "POST",
      path: adminOrder,
      form: (actor) => ({ status: actor === "staff" ? "pagado" : "cancelado" }),
      expect: adminOnly(adminOrder),
    },
    { method: "GET", path: "/admin/productos", expect: adminOnly("/admin/productos") },
    { method: "GET", path: "/admin/productos/nuevo", expect: adminOnly("/admin/productos/nuevo") },
    { method: "GET", path: adminProduct, expect: adminOnly(adminProduct) },
    {
      // Customers try to withdraw the product; staff activate it (it already is).
      method: "POST",
      path: adminProduct,
      form: (actor) => ({ intent: actor === "staff" ? "activar" : "desactivar" }),
      expect: adminOnly(adminProduct),
    },
    {
      method: "POST",
      path: "/admin/productos/nuevo",
      form: () => ({ name: "Producto intruso", sku: "INTRUSO-1", category: "Intrusos", shortDescription: "No debe crearse nunca.", price: "10", ivaBp: "1600", unit: "pieza", stock: "1", minOrder: "1" }),
      // Staff post a form that is not multipart: a Spanish refusal, nothing created.
      expect: adminOnly("/admin/productos/nuevo", 400),
    },
    {
      // Everyone has a count: their own (only the owner has something in a cart).
      method: "GET",
      path: "/api/carrito",
      expect: { guest: 200, owner: 200, otherCustomer: 200, staff: 200 },
      check: async (response, actor) => {
        expect(response.headers()["cache-control"]).toBe("private, no-store");
        expect(((await response.json()) as { data: { quantity: number } }).data.quantity, actor).toBe(actor === "owner" ? 3 : 0);
      },
    },
    { method: "GET", path: "/carrito", expect: { guest: 200, owner: 200, otherCustomer: 200, staff: 200 }, check: ownerCartOnly },
    {
      // Removing the owner's line from elsewhere touches only one's own (empty) cart; the owner re-sets it to 3.
      method: "POST",
      path: "/carrito",
      form: (actor) => (actor === "owner" ? { intent: "actualizar", productId: product.id, quantity: "3" } : { intent: "quitar", productId: product.id }),
      expect: { guest: { redirect: "/carrito" }, owner: { redirect: "/carrito" }, otherCustomer: { redirect: "/carrito" }, staff: { redirect: "/carrito" } },
    },
    // Nothing to buy: back to the cart.
    { method: "GET", path: "/checkout", expect: { guest: { redirect: "/carrito" }, owner: 200, otherCustomer: { redirect: "/carrito" }, staff: { redirect: "/carrito" } }, check: ownerCartOnly },
  ];
}

async function newClient(playwright: { request: { newContext: (options: object) => Promise<APIRequestContext> } }): Promise<APIRequestContext> {
  return playwright.request.newContext({ baseURL: baseUrl(), extraHTTPHeaders: clientHeaders(), maxRedirects: 0 });
}

function title(html: string): string | undefined {
  return /<title>([^<]*)<\/title>/.exec(html)?.[1];
}

test("orders, products and carts × guest, owner, another customer, staff", async ({ playwright }) => {
  test.slow(); // three accounts, two orders and ~60 requests
  const clients = {} as Record<Actor, APIRequestContext>;
  for (const actor of ACTORS) clients[actor] = await newClient(playwright);
  const staffApi = clients.staff;
  const guestBuyer = await newClient(playwright);
  try {
    expect((await signInApi(clients.staff, STAFF.email, STAFF.password)).response.status(), "staff sign-in").toBe(200);
    const product = await createProduct(staffApi, { label: "Buje de la matriz", stock: 50 });
    const owner = await createCustomer(clients.owner, { name: `Olga Propietaria ${randomUUID().slice(0, 8)}` });
    const other = await createCustomer(clients.otherCustomer, { name: `Óscar Otro ${randomUUID().slice(0, 8)}` });

    await addToCartApi(clients.owner, product.id, 2);
    const number = await placeOrderApi(clients.owner, { name: owner.name, email: owner.email, phone: "4421234567", delivery: "recoger", paymentMethod: "spei" });
    await addToCartApi(clients.owner, product.id, 3);
    await addToCartApi(guestBuyer, product.id, 1);
    const guestEmail = `invitado.${randomUUID().slice(0, 8)}@correo.example`;
    const guestNumber = await placeOrderApi(guestBuyer, { name: "Gina Invitada", email: guestEmail, phone: "4429876543", delivery: "recoger", paymentMethod: "recoger" });
    const [order] = await findOrders(staffApi, number);
    const [guestOrder] = await findOrders(staffApi, guestNumber);
    expect(order?.number).toBe(number);
    expect(guestOrder?.number).toBe(guestNumber);
    expect(await stockOf(staffApi, product.id)).toBe(47);

    const results: string[] = [];
    const failures: string[] = [];
    for (const row of rows({ owner, other, product, order: order!, guestOrder: guestOrder! })) {
      for (const actor of ACTORS) {
        const expected = row.expect[actor];
        const form = row.form?.(actor);
        const response =
          row.method === "GET" ? await clients[actor].get(row.path) : await clients[actor].post(row.path, { headers: { origin: baseUrl() }, form: form ?? {} });
        const status = response.status();
        const location = response.headers()["location"] ?? "";
        const actual = status >= 300 && status < 400 ? `→ ${location}` : String(status);
        const label = `${row.method} ${row.path}${form ? ` (${Object.values(form)[0]})` : ""} as ${actor}`;
        results.push(`${label}: ${actual}`);
        const matches = typeof expected === "number" ? status === expected : status >= 300 && status < 400 && location === expected.redirect;
        if (!matches) {
          failures.push(`${label}: expected ${typeof expected === "number" ? expected : `→ ${expected.redirect}`}, got ${actual}`);
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

    // The refused posts changed nothing: the order is paid (not cancelled), its stock not returned,
    // the product still sold, nothing created, and the owner's cart intact.
    const detail = await (await staffApi.get(`/admin/pedidos/${order!.id}`)).text();
    // (React separates text parts with <!-- --> in server HTML.)
    expect(detail).toMatch(/Pendiente de pago → (<!-- -->)?Pagado</);
    expect(detail).not.toMatch(/→ (<!-- -->)?Cancelado</);
    expect(await stockOf(staffApi, product.id)).toBe(47);
    expect((await clients.guest.get(`/catalogo/${product.slug}`)).status()).toBe(200);
    expect(await (await staffApi.get("/admin/productos?q=INTRUSO-1")).text()).not.toContain("Producto intruso");
    expect(await cartQuantityApi(clients.owner)).toBe(3);
    expect(await (await clients.owner.get("/cuenta/pedidos")).text()).toContain(number);

    // The guest's order opens only in the browser that placed it.
    const own = await guestBuyer.get(`/checkout/confirmacion/${guestNumber}`);
    expect(own.status()).toBe(200);
    expect(await own.text()).toContain(guestNumber);
    expect((await guestBuyer.get(`/checkout/confirmacion/${number}`)).status(), "a guest cookie opens no account's order").toBe(404);

    // Another customer's order answers exactly like one that does not exist; odd ids are 404s too.
    const missing = `PED-${number.slice(4, 8)}-9${number.slice(-4)}`;
    const [foreign, absent] = await Promise.all([clients.otherCustomer.get(`/checkout/confirmacion/${number}`), clients.otherCustomer.get(`/checkout/confirmacion/${missing}`)]);
    expect(absent.status()).toBe(404);
    expect(title(await foreign.text())?.replace(number, "N")).toBe(title(await absent.text())?.replace(missing, "N"));
    expect((await clients.owner.get("/checkout/confirmacion/no-es-un-pedido")).status()).toBe(404);
    expect((await clients.staff.get("/admin/pedidos/no-es-un-id")).status()).toBe(404);
    expect((await clients.staff.get(`/admin/pedidos/${randomUUID()}`)).status()).toBe(404);
    expect((await clients.staff.get("/admin/productos/no-es-un-id")).status()).toBe(404);
    expect((await clients.staff.get(`/admin/productos/${randomUUID()}`)).status()).toBe(404);
    expect(other.email).not.toBe(owner.email);
  } finally {
    for (const client of [...Object.values(clients), guestBuyer]) await client.dispose();
  }
});
