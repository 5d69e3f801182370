import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { PASSWORD, baseUrl, signInStaffWithForm, uniqueEmail } from "./support/accounts";
import { clientHeaders } from "./support/fixtures";
import { waitForHydration } from "./support/site";
import { STAFF_AREA_REFUSED, createStaffMember, invitationLink, signInAdmin } from "./support/staff";

// Issue 16 §4: staff roles and staff accounts (docs/decisions/0040). An admin invites from
// /admin/personal, the invitee chooses a password from the emailed link and sees only what the
// role may use; the server answers 403 elsewhere; deactivation ends an open session at once.

const SECTIONS = ["Resumen", "Solicitudes", "Cotizaciones", "Clientes", "Pedidos", "Productos", "Contenido", "Imágenes", "Personal"];

async function sidebarSections(page: Page): Promise<string[]> {
  const links = page.getByRole("navigation", { name: "Administración" }).getByRole("link");
  const names = (await links.allInnerTexts()).map((name) => name.trim());
  return names.filter((name) => SECTIONS.includes(name));
}

async function expectRefused(page: Page, path: string) {
  const response = await page.goto(path);
  expect(response?.status(), path).toBe(403);
  await expect(page.locator("main")).toContainText(STAFF_AREA_REFUSED);
}

test("an admin invites an editor, who sets a password and sees only the content areas", async ({ page, newClient }) => {
  test.slow(); // two accounts, an email and a password hash
  const editor = { name: "Elena Editora", email: uniqueEmail("editora") };

  await signInStaffWithForm(page);
  await expect(page).toHaveURL(/\/admin$/);
  await page.getByRole("navigation", { name: "Administración" }).getByRole("link", { name: "Personal" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Personal");
  await waitForHydration(page);

  // Bad input first: Spanish messages, and what was typed is kept.
  const form = page.locator("form").filter({ has: page.getByRole("button", { name: "Enviar invitación" }) });
  await form.getByLabel("Nombre completo").fill(editor.name);
  await form.getByLabel("Correo electrónico").fill("no-es-un-correo");
  await form.getByRole("button", { name: "Enviar invitación" }).click();
  await expect(form.getByText("Escriba un correo válido, por ejemplo nombre@empresa.com.")).toBeVisible();
  await expect(form.getByText("Elija el rol de la persona.")).toBeVisible();
  await expect(form.getByLabel("Nombre completo")).toHaveValue(editor.name);

  await form.getByLabel("Correo electrónico").fill(editor.email);
  await form.getByRole("radio", { name: /Edición de contenido/ }).check();
  await form.getByRole("button", { name: "Enviar invitación" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Enviamos la invitación" })).toHaveText(`Enviamos la invitación a ${editor.email}.`);
  const row = page.getByTestId("staff-row").filter({ hasText: editor.email });
  await expect(row).toContainText("Invitación pendiente");
  await expect(row.getByLabel(`Rol de ${editor.name}`, { exact: true })).toHaveValue("editor");

  // The editor's own browser: the link, the password, then /admin.
  const editorBrowser = await newClient();
  const editorPage = await editorBrowser.newPage();
  const link = await invitationLink(editor.email);
  await editorPage.goto(`${link.pathname}${link.search}`);
  await expect(editorPage.getByRole("heading", { level: 1 })).toHaveText(`Le damos la bienvenida, ${editor.name}`);
  await waitForHydration(editorPage);
  await editorPage.getByLabel("Contraseña", { exact: true }).fill(PASSWORD);
  await editorPage.getByLabel("Repita la contraseña").fill(PASSWORD);
  await editorPage.getByRole("button", { name: "Guardar y entrar al panel" }).click();
  await expect(editorPage).toHaveURL(`${new URL(baseUrl()).origin}/admin`);
  await expect(editorPage.getByTestId("admin-staff")).toContainText("Rol: Edición de contenido");
  expect(await sidebarSections(editorPage)).toEqual(["Resumen", "Contenido", "Imágenes"]);
  // The summary shows no sales figures to an editor.
  await expect(editorPage.getByRole("heading", { name: "Últimas solicitudes" })).toHaveCount(0);

  await expectRefused(editorPage, "/admin/cotizaciones");
  await expectRefused(editorPage, "/admin/personal");

  // The link worked once.
  await editorPage.goto(`${link.pathname}${link.search}`);
  await expect(editorPage.getByRole("heading", { level: 1 })).toHaveText("Enlace no válido");

  await page.reload();
  await expect(page.getByTestId("staff-row").filter({ hasText: editor.email })).toContainText("Activa");
});

test("sales sees the sales areas and gets 403 on /admin/personal", async ({ page, playwright, context }) => {
  const admin = await playwright.request.newContext({ baseURL: baseUrl(), extraHTTPHeaders: clientHeaders() });
  try {
    await signInAdmin(admin);
    await createStaffMember(admin, context.request, "ventas");
  } finally {
    await admin.dispose();
  }
  await page.goto("/admin");
  await waitForHydration(page);
  expect(await sidebarSections(page)).toEqual(["Resumen", "Solicitudes", "Cotizaciones", "Clientes", "Pedidos", "Productos"]);
  const quotes = await page.goto("/admin/cotizaciones");
  expect(quotes?.status()).toBe(200);
  await expectRefused(page, "/admin/personal");
});

test("deactivating an account ends its open session and its record API token at once", async ({ page, playwright, context }) => {
  test.slow();
  const admin = await playwright.request.newContext({ baseURL: baseUrl(), extraHTTPHeaders: clientHeaders() });
  try {
    await signInAdmin(admin);
    const member = await createStaffMember(admin, context.request, "ventas", "baja");
    await page.goto("/admin/pedidos");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Pedidos");
    const api = await context.request.post("/api/collections/_superusers/auth-with-password", { data: { identity: member.email, password: member.password } });
    expect(api.status()).toBe(200);
    const { token } = (await api.json()) as { token: string };
    expect((await context.request.post("/api/collections/_superusers/auth-refresh", { headers: { Authorization: token } })).status()).toBe(200);

    const list = await (await admin.get("/admin/personal")).text();
    const userId = new RegExp(`data-email="${member.email.replace(/\./g, "\\.")}"[\\s\\S]*?name="userId" value="([^"]+)"`).exec(list)?.[1];
    expect(userId).toBeTruthy();
    const deactivated = await admin.post("/admin/personal", { headers: { origin: baseUrl() }, form: { intent: "desactivar", userId: userId! } });
    expect(deactivated.status()).toBe(200);

    // The open page's next request finds no session; the token is refused.
    await page.getByRole("navigation", { name: "Administración" }).getByRole("link", { name: "Cotizaciones" }).click();
    await expect(page).toHaveURL(/\/admin\/login\?redirectTo=%2Fadmin%2Fcotizaciones$/);
    expect((await context.request.post("/api/collections/_superusers/auth-refresh", { headers: { Authorization: token } })).status()).toBe(401);
    const again = await context.request.post("/api/collections/_superusers/auth-with-password", { data: { identity: member.email, password: member.password } });
    expect(again.status()).toBe(400);
  } finally {
    await admin.dispose();
  }
});
