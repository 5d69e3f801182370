import { expect, test } from "./support/fixtures";
import { ADMIN_MARKER_KEY, STAFF, baseUrl, createCustomer } from "./support/accounts";
import { clientHeaders } from "./support/fixtures";
import { axeViolations } from "./support/axe";
import { waitForHydration } from "./support/site";
import { createStaffMember, signInAdmin } from "./support/staff";

// Issue 17 §5, docs/decisions/0063: «Ver como cliente» in /admin/clientes opens the site as that
// customer, read-only, with a banner on every page; a change is refused in Spanish; «Terminar» gives
// the admin's own session back at /admin/clientes. Other staff roles see no button.

const READ_ONLY = "Está viendo el sitio como cliente en modo de solo lectura";

test("an admin sees the site as a customer, read-only, and goes back to the panel", async ({ page, playwright }) => {
  test.slow(); // two views, each opened and ended, and the pages in between
  const visitor = await playwright.request.newContext({ baseURL: baseUrl(), extraHTTPHeaders: clientHeaders() });
  let customer: Awaited<ReturnType<typeof createCustomer>>;
  try {
    customer = await createCustomer(visitor, { name: `Cliente Vista ${Date.now()}` });
  } finally {
    await visitor.dispose();
  }
  // Signed in as the panel's admin (the sign-in screens have their own specs), with the panel's browser marker.
  await signInAdmin(page.request);
  await page.addInitScript((key) => window.localStorage.setItem(key, "1"), ADMIN_MARKER_KEY);
  await page.goto(`/admin/clientes?q=${encodeURIComponent(customer.email)}`);
  await waitForHydration(page);
  await page.getByRole("button", { name: `Ver como cliente: ${customer.name}` }).click();

  await expect(page).toHaveURL(/\/cuenta$/);
  const banner = page.getByTestId("banner-vista-cliente");
  await expect(banner).toContainText(`Está viendo el sitio como ${customer.name}.`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(customer.name);
  expect(await axeViolations(page)).toEqual([]);

  // Every page carries the banner, a cached public page too, and none is kept by the browser.
  const home = await page.goto("/");
  expect(home?.headers()["cache-control"]).toBe("private, no-store");
  await expect(banner).toBeVisible();
  await page.goto("/quotes");
  await expect(banner).toBeVisible();

  // A change is refused, and nothing is saved.
  await page.goto("/cuenta");
  await waitForHydration(page);
  await page.getByLabel("Nombre completo").fill("Nombre cambiado por soporte");
  await page.getByRole("button", { name: "Guardar datos" }).click();
  await expect(page.locator("main")).toContainText(READ_ONLY);
  await page.goto("/cuenta");
  await expect(page.getByRole("heading", { level: 1 })).toContainText(customer.name);

  // «Terminar»: back in the panel as the admin; the public pages show no banner any more.
  await page.getByRole("button", { name: "Terminar" }).click();
  await expect(page).toHaveURL(/\/admin\/clientes$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Clientes");
  await expect(banner).toHaveCount(0);
  await page.goto("/");
  await expect(banner).toHaveCount(0);

  // With «Permitir cambios» the view writes, as the customer.
  await page.goto(`/admin/clientes?q=${encodeURIComponent(customer.email)}`);
  await waitForHydration(page);
  await page.getByRole("row").filter({ hasText: customer.email }).getByLabel("Permitir cambios").check();
  await page.getByRole("button", { name: `Ver como cliente: ${customer.name}` }).click();
  await expect(page).toHaveURL(/\/cuenta$/);
  await expect(banner).toContainText("Los cambios que haga se guardan en su cuenta.");
  await waitForHydration(page);
  const renamed = `${customer.name} Soporte`;
  await page.getByLabel("Nombre completo").fill(renamed);
  await page.getByRole("button", { name: "Guardar datos" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(renamed);
  await page.getByRole("button", { name: "Terminar" }).click();
  await expect(page).toHaveURL(/\/admin\/clientes$/);

  // Each start and end is in the log with the admin's name (/api/logs takes the admin's panel session).
  const logs = await page.request.get(`/api/logs?perPage=10&sort=-created&filter=${encodeURIComponent(`data.type = 'audit' && data.customer.id = '${customer.id}'`)}`);
  expect(logs.status()).toBe(200);
  const entries = ((await logs.json()) as { items: { message: string; data: { via: string; admin: { name: string }; writable?: boolean } }[] }).items;
  expect(entries.map((entry) => [entry.message, entry.data.via, entry.data.admin.name, entry.data.writable])).toEqual([
    ["impersonation ended", "panel", STAFF.name, undefined],
    ["impersonation started", "panel", STAFF.name, true],
    ["impersonation ended", "panel", STAFF.name, undefined],
    ["impersonation started", "panel", STAFF.name, false],
  ]);
});

test("other staff roles see no «Ver como cliente» and the server refuses them", async ({ page, playwright, context }) => {
  const admin = await playwright.request.newContext({ baseURL: baseUrl(), extraHTTPHeaders: clientHeaders() });
  const visitor = await playwright.request.newContext({ baseURL: baseUrl(), extraHTTPHeaders: clientHeaders() });
  let customerId: string;
  try {
    await signInAdmin(admin);
    await createStaffMember(admin, context.request, "ventas");
    customerId = (await createCustomer(visitor)).id;
  } finally {
    await admin.dispose();
    await visitor.dispose();
  }
  await page.goto("/admin/clientes");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Clientes");
  await expect(page.getByRole("button", { name: /^Ver como cliente/ })).toHaveCount(0);
  const refused = await page.request.post("/admin/clientes", { headers: { origin: baseUrl() }, form: { intent: "impersonate", userId: customerId } });
  expect(refused.status()).toBe(403);
  expect(await refused.text()).toContain("Solo el rol de administración puede ver el sitio como un cliente.");
});
