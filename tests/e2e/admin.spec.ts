import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import {
  ADMIN_MARKER_KEY,
  SESSION_COOKIE,
  STAFF,
  baseUrl,
  createCustomer,
  currentUser,
  signInApi,
  signInStaffWithForm,
  signInWithForm,
  submitLogin,
  submitStaffLogin,
  uniqueEmail,
  uniqueToken,
} from "./support/accounts";
import { clientHeaders } from "./support/fixtures";
import { runAdminCreate } from "./support/server";
import { waitForHydration } from "./support/site";

// Issue 3 §3: staff created from the command line, /admin/login, the customers list with block and
// unblock, and the browser guard (localStorage marker, "Usuario no autenticado").

const NO_ADMIN_ACCESS = "Esta cuenta no tiene acceso al panel de administración.";

function adminMarker(page: Page) {
  return page.evaluate((key) => window.localStorage.getItem(key), ADMIN_MARKER_KEY);
}

test.describe("staff sign-in", () => {
  test("the staff account from admin-create signs in at /admin/login and /admin shows who it is", async ({ page }) => {
    await signInStaffWithForm(page);
    await expect(page).toHaveURL(`${new URL(baseUrl()).origin}/admin`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Resumen");
    await expect(page.locator("main")).toContainText(`${STAFF.name} (${STAFF.email})`);
    await expect(page.getByTestId("admin-staff")).toContainText(STAFF.name);
    await expect(page.getByRole("navigation", { name: "Administración" }).getByRole("link", { name: "Clientes" })).toBeVisible();
    await waitForHydration(page);
    await expect.poll(() => adminMarker(page)).toBe("1");
  });

  test("a customer account is refused at /admin/login and gets no admin session", async ({ page, context, request, playwright }) => {
    const customer = await createCustomer(request);
    await signInStaffWithForm(page, customer.email, customer.password);
    await expect(page.getByRole("alert")).toHaveText(NO_ADMIN_ACCESS);
    await expect(page).toHaveURL(/\/admin\/login$/);
    expect(await currentUser(context.request)).toBeNull();
    expect(await adminMarker(page)).toBeNull();
    await page.goto("/admin");
    await expect(page).toHaveURL(/\/admin\/login\?redirectTo=%2Fadmin$/);

    // Without the browser: 403, and no session cookie is handed out.
    const client = await playwright.request.newContext({ baseURL: baseUrl(), extraHTTPHeaders: clientHeaders(), maxRedirects: 0 });
    try {
      const response = await client.post("/admin/login", { form: { email: customer.email, password: customer.password, redirectTo: "/admin" } });
      expect(response.status()).toBe(403);
      expect(await response.text()).toContain(NO_ADMIN_ACCESS);
      const setCookies = response.headersArray().filter((header) => header.name.toLowerCase() === "set-cookie");
      expect(setCookies.filter((header) => /^forja\.session_token=[^;]+/.test(header.value))).toEqual([]);
      expect((await client.get("/admin/clientes")).status()).toBe(302);
    } finally {
      await client.dispose();
    }
  });

  test("a wrong staff password gets the generic message", async ({ page }) => {
    await signInStaffWithForm(page, STAFF.email, "No-Es-La-Clave-1");
    await expect(page.getByRole("alert")).toHaveText("El correo o la contraseña no son correctos.");
    await expect(page).toHaveURL(/\/admin\/login$/);
  });
});

test.describe("customers list", () => {
  test("lists and searches customers; blocking ends their session and refuses sign-in; unblocking restores it", async ({ page, request, newClient }) => {
    test.slow(); // several sign-ins, each hashing a password
    const tag = uniqueToken();
    const blocked = await createCustomer(request, { name: `Bruno Bloqueo ${tag}`, company: `Fundición ${tag}` });
    const other = await createCustomer(request, { name: `Carla Activa ${tag}` });

    const customerDevice = await newClient();
    const customerPage = await customerDevice.newPage();
    await signInWithForm(customerPage, blocked.email, blocked.password);
    expect(await currentUser(customerDevice.request)).toMatchObject({ id: blocked.id });

    await signInStaffWithForm(page);
    await expect(page).toHaveURL(/\/admin$/);
    await expect.poll(() => adminMarker(page)).toBe("1");
    await page.getByRole("navigation", { name: "Administración" }).getByRole("link", { name: "Clientes" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Clientes");

    // Search by the tag both names share.
    await page.getByRole("searchbox", { name: "Buscar por nombre, correo o empresa" }).fill(tag);
    await page.getByRole("button", { name: "Buscar" }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/clientes\\?q=${tag}$`));
    await expect(page.locator("main")).toContainText(`2 cuentas que coinciden con «${tag}».`);
    const rows = page.locator("tbody tr");
    await expect(rows).toHaveCount(2);
    const blockedRow = rows.filter({ hasText: blocked.email });
    await expect(blockedRow).toContainText(blocked.name);
    await expect(blockedRow).toContainText(`Fundición ${tag}`);
    await expect(blockedRow.locator("td").nth(3)).toHaveText("No");
    await expect(blockedRow.locator("td").nth(4)).not.toHaveText("");
    await expect(blockedRow).toContainText("Activa");
    await expect(rows.filter({ hasText: other.email })).toContainText(other.name);

    // Staff accounts are not customers.
    await page.goto(`/admin/clientes?q=${encodeURIComponent(STAFF.email)}`);
    await expect(page.locator("main")).toContainText("Ninguna cuenta coincide con su búsqueda.");
    await page.goto(`/admin/clientes?q=${tag}`);

    // Block.
    await blockedRow.getByRole("button", { name: `Bloquear a ${blocked.name}` }).click();
    await expect(page.getByRole("status")).toHaveText("Cuenta bloqueada: sus sesiones se cerraron y no podrá entrar.");
    await expect(blockedRow).toContainText("Bloqueada");
    await expect(rows.filter({ hasText: other.email })).toContainText("Activa");

    expect(await currentUser(customerDevice.request)).toBeNull();
    await customerPage.goto("/cuenta");
    await expect(customerPage).toHaveURL(/\/login\?redirectTo=%2Fcuenta$/);
    await waitForHydration(customerPage);
    await submitLogin(customerPage, blocked.email, blocked.password);
    await expect(customerPage.getByRole("alert")).toContainText("Esta cuenta está bloqueada.");
    await expect(customerPage).toHaveURL(/\/login/);
    expect(await currentUser(customerDevice.request)).toBeNull();

    // Unblock.
    await blockedRow.getByRole("button", { name: `Desbloquear a ${blocked.name}` }).click();
    await expect(page.getByRole("status")).toHaveText("Cuenta desbloqueada.");
    await expect(blockedRow).toContainText("Activa");
    await submitLogin(customerPage, blocked.email, blocked.password);
    await expect(customerPage).toHaveURL(/\/cuenta$/);
    expect(await currentUser(customerDevice.request)).toMatchObject({ id: blocked.id });
  });
});

test.describe("browser guard", () => {
  test("without the localStorage marker the admin area logs 'Usuario no autenticado' and goes to /admin/login; logout clears it", async ({ page, context }) => {
    test.slow(); // several sign-ins, each hashing a password
    const logs: string[] = [];
    page.on("console", (message) => logs.push(message.text()));
    await signInStaffWithForm(page);
    await expect(page).toHaveURL(/\/admin$/);
    await waitForHydration(page);
    await expect.poll(() => adminMarker(page)).toBe("1");
    expect(logs).not.toContain("Usuario no autenticado");

    // Client-side navigation inside /admin with the marker gone.
    await page.evaluate((key) => window.localStorage.removeItem(key), ADMIN_MARKER_KEY);
    await page.getByRole("navigation", { name: "Administración" }).getByRole("link", { name: "Clientes" }).click();
    await expect(page).toHaveURL(/\/admin\/login\?redirectTo=%2Fadmin%2Fclientes$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Acceso del personal");
    await expect.poll(() => logs.filter((line) => line === "Usuario no autenticado").length).toBeGreaterThanOrEqual(1);
    // It stays there (no bouncing between the panel and the login).
    await page.waitForTimeout(750);
    await expect(page).toHaveURL(/\/admin\/login\?redirectTo=%2Fadmin%2Fclientes$/);
    expect(logs.filter((line) => line === "Usuario no autenticado").length).toBe(1);

    // Signing in again goes back where the guard interrupted, with the marker.
    await submitStaffLogin(page, STAFF.email, STAFF.password);
    await expect(page).toHaveURL(/\/admin\/clientes$/);
    await expect.poll(() => adminMarker(page)).toBe("1");

    // A full page load without the marker is caught too.
    await page.evaluate((key) => window.localStorage.removeItem(key), ADMIN_MARKER_KEY);
    logs.length = 0;
    await page.goto("/admin/formularios");
    await expect(page).toHaveURL(/\/admin\/login\?redirectTo=%2Fadmin%2Fformularios$/);
    expect(logs).toContain("Usuario no autenticado");

    // Sign in once more, then log out: the marker and the session go.
    await submitStaffLogin(page, STAFF.email, STAFF.password);
    await expect(page).toHaveURL(/\/admin\/formularios$/);
    await expect.poll(() => adminMarker(page)).toBe("1");
    await page.getByRole("navigation", { name: "Administración" }).getByRole("button", { name: "Cerrar sesión" }).click();
    await expect(page).toHaveURL(/\/admin\/login$/);
    expect(await adminMarker(page)).toBeNull();
    expect(await currentUser(context.request)).toBeNull();
    expect((await context.cookies()).map((cookie) => cookie.name)).not.toContain(SESSION_COOKIE);
  });
});

test.describe("admin-create", () => {
  test("refuses in Spanish while the server holds the database, and the server stays healthy", async ({ request, playwright }) => {
    test.setTimeout(90_000);
    const attempted = { email: uniqueEmail("otro.personal"), password: "Prensa-Hidraulica-2026", name: "Otro Personal" };
    const result = await runAdminCreate({ root: process.env.E2E_SERVER_ROOT!, dataDir: process.env.E2E_DATA_DIR! }, attempted);
    expect(result.code, `${result.stdout}\n${result.stderr}`).not.toBe(0);
    expect(result.stderr).toContain("No se creó la cuenta:");
    expect(result.stderr).toContain(`está en uso por el proceso ${process.env.E2E_SERVER_PID}`);
    expect(result.stderr).toContain("Deténgalo y vuelva a intentarlo");

    const health = await request.get("/api/health");
    expect(health.status()).toBe(200);
    expect(await health.json()).toMatchObject({ code: 200 });

    const client = await playwright.request.newContext({ baseURL: baseUrl(), extraHTTPHeaders: clientHeaders() });
    try {
      expect((await signInApi(client, STAFF.email, STAFF.password)).response.status(), "the existing staff account still works").toBe(200);
      expect((await signInApi(client, attempted.email, attempted.password)).response.status(), "nothing was created").toBe(401);
    } finally {
      await client.dispose();
    }
  });
});
