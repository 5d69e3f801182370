import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { signInStaffWithForm, uniqueToken } from "./support/accounts";
import { axeViolations } from "./support/axe";
import { createQuestionDraft } from "./support/content";
import { waitForAdminMarker } from "./support/shop";
import { waitForHydration, savedAtTime } from "./support/site";
import { STAFF_AREA_REFUSED, createStaffMember, signInAdmin, type StaffRole } from "./support/staff";

// Issue 16 §2: the content editor at /admin/contenido (docs/decisions/0045). An editor adds a
// question as a draft (not public), publishes it, two tabs of one record get the conflict screen,
// history restores version 1; a second editor sees the lock and takes over; roles are checked.

/** A new staff member of `role`, invited by the admin, signed in on `page` through the panel's form. */
async function staffOnPage(page: Page, admin: APIRequestContext, scratch: APIRequestContext, role: StaffRole, label: string) {
  await signInAdmin(admin);
  const member = await createStaffMember(admin, scratch, role, label);
  await signInStaffWithForm(page, member.email, member.password);
  await expect(page).toHaveURL(/\/admin$/);
  await waitForAdminMarker(page);
  return member;
}

/** The questions the public sees, through the record API (published records only). */
async function publicQuestions(request: APIRequestContext): Promise<string[]> {
  const response = await request.get("/api/collections/preguntas/records?perPage=500");
  expect(response.status()).toBe(200);
  return ((await response.json()) as { items: { pregunta: string }[] }).items.map((item) => item.pregunta);
}

const saveButton = (page: Page) => page.getByRole("button", { name: "Guardar borrador" });
const status = (page: Page) => page.getByTestId("autosave-status");

/** A new question saved as a draft; answers its address. */
function createQuestion(page: Page, question: string): Promise<string> {
  return createQuestionDraft(page, { question, answer: "Sí: maquinamos titanio grado 5 con tolerancias de ±0.01 mm.", category: "Materiales" });
}

test("an editor adds a question as a draft, publishes it, meets a conflict and restores version 1", async ({ page, request, newClient }) => {
  test.slow(); // an invitation, a password hash, two tabs and several saves
  const scratch = await newClient();
  await staffOnPage(page, request, scratch.request, "editor", "editora");
  const guest = (await newClient()).request;
  const question = `¿Maquinan piezas de titanio? ${uniqueToken()}`;

  await page.getByRole("navigation", { name: "Administración" }).getByRole("link", { name: "Contenido" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Contenido");
  expect(await axeViolations(page)).toEqual([]);

  // Bad input: Spanish messages beside the fields, and what was typed stays.
  await page.goto("/admin/contenido/preguntas/nuevo");
  await waitForHydration(page);
  await page.getByLabel("Pregunta", { exact: true }).fill(question);
  await page.getByLabel("Orden", { exact: true }).fill("diez");
  await saveButton(page).click();
  await expect(page.getByText("Escriba la categoría, por ejemplo Plazos de entrega.")).toBeVisible();
  await expect(page.getByText("Escriba la respuesta.")).toBeVisible();
  await expect(page.getByText("Escriba el orden como un número entero.")).toBeVisible();
  await expect(status(page)).toHaveText("No se pudo guardar: revise los campos marcados.");
  await expect(page.getByLabel("Pregunta", { exact: true })).toHaveValue(question);
  await expect(page.getByLabel("Orden", { exact: true })).toHaveValue("diez");

  // The rich-text editor loads (its toolbar) and what is typed in it is saved.
  await expect(page.getByRole("toolbar")).toContainText("Negritas");
  const path = await createQuestion(page, question);
  expect(await publicQuestions(guest)).not.toContain(question);
  await expect(page.getByRole("textbox", { name: "Respuesta" })).toContainText("maquinamos titanio grado 5");
  expect(await axeViolations(page)).toEqual([]);

  await page.getByRole("button", { name: "Publicar" }).click();
  await expect(status(page)).toHaveText(savedAtTime("Publicado"));
  await expect(page.getByRole("status").filter({ hasText: "Publicado: el sitio ya muestra esta versión." })).toBeVisible();
  await expect(page.getByTestId("record-state")).toHaveText("Publicado");
  expect(await publicQuestions(guest)).toContain(question);

  // Autosave: a few seconds after typing stops the draft saves itself, and a failed one is shown.
  await page.getByLabel("Pregunta", { exact: true }).fill("");
  await expect(status(page)).toHaveText("No se pudo guardar: revise el campo marcado.", { timeout: 10_000 });
  await page.getByLabel("Pregunta", { exact: true }).fill(`${question} (revisada)`);
  await expect(status(page)).toHaveText(savedAtTime("Guardado"), { timeout: 10_000 });
  await expect(page.getByTestId("record-state")).toHaveText("Borrador pendiente");
  expect(await publicQuestions(guest)).toContain(question);

  // Leaving with unsaved changes asks first.
  await page.getByLabel("Categoría", { exact: true }).fill("Materiales y acabados");
  await page.getByRole("link", { name: "← Preguntas frecuentes" }).click();
  await expect(page.getByRole("alertdialog", { name: "Tiene cambios sin guardar" })).toBeVisible();
  await page.getByRole("button", { name: "Seguir editando" }).click();
  await expect(page).toHaveURL(new RegExp(`${path}$`));
  await saveButton(page).click();
  await expect(status(page)).toHaveText(savedAtTime("Borrador guardado"));

  // Two tabs of one record: the stale one gets both versions side by side.
  const second = await page.context().newPage();
  await second.goto(path);
  await waitForHydration(second);
  await second.getByLabel("Categoría", { exact: true }).fill("Materiales especiales");
  await saveButton(second).click();
  await expect(status(second)).toHaveText(savedAtTime("Borrador guardado"));
  await second.close();

  await page.getByLabel("Orden", { exact: true }).fill("15");
  await saveButton(page).click();
  const conflict = page.getByTestId("conflict");
  await expect(conflict.getByRole("heading", { name: "Alguien más guardó este registro" })).toBeVisible();
  await expect(conflict.getByRole("columnheader", { name: "Versión guardada" })).toBeVisible();
  await expect(conflict.getByRole("columnheader", { name: "Sus cambios" })).toBeVisible();
  // Only what differs: the category and the order (the answer, stored in another key order, is the same).
  await expect(conflict.getByTestId("diff-row")).toHaveCount(2);
  await expect(conflict.getByRole("row").filter({ hasText: "Categoría" })).toContainText("Materiales especiales");
  await expect(conflict.getByRole("row").filter({ hasText: "Categoría" })).toContainText("Materiales y acabados");
  await conflict.getByRole("button", { name: "Conservar mis cambios" }).click();
  await expect(status(page)).toHaveText(savedAtTime("Borrador guardado"));
  await expect(conflict).toHaveCount(0);
  await page.getByRole("button", { name: "Publicar" }).click();
  await expect(page.getByTestId("record-state")).toHaveText("Publicado");
  expect(await publicQuestions(guest)).toContain(`${question} (revisada)`);

  // History: version 1 comes back as version 3, every field.
  await page.getByRole("link", { name: "Historial" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Historial: ${question} (revisada)`);
  await expect(page.getByTestId("version-row")).toHaveCount(2);
  await expect(page.getByTestId("diff-row").filter({ hasText: "Pregunta" })).toContainText("(revisada)");
  await page.getByRole("link", { name: "Restaurar esta versión (número 1)" }).click();
  await page.getByRole("button", { name: "Sí, restaurar la versión 1" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Versión 1 restaurada" })).toBeVisible();
  await expect(page.getByTestId("version-row")).toHaveCount(3);
  await expect(page.getByTestId("version-row").first()).toContainText("Restauración de la versión 1");
  const questions = await publicQuestions(guest);
  expect(questions).toContain(question);
  expect(questions).not.toContain(`${question} (revisada)`);
});

test("a second editor sees who holds a record and takes it over; the first is told and becomes read-only", async ({ page, request, newClient }) => {
  test.slow(); // two invitations; the holder learns it on the next heartbeat (20 s)
  const first = await staffOnPage(page, request, (await newClient()).request, "editor", "primera");
  const path = await createQuestion(page, `¿Trabajan aluminio 6061? ${uniqueToken()}`);

  const otherBrowser = await newClient();
  const other = await otherBrowser.newPage();
  await staffOnPage(other, request, (await newClient()).request, "editor", "segunda");
  await other.goto(path);
  await waitForHydration(other);
  // «desde las 2:30 p.m.», or «desde la 1:05 p.m.» (atTime, tested in lib/format.test.ts).
  await expect(other.getByRole("alert").filter({ hasText: new RegExp(`Lo está editando ${first.name} desde las? \\d`) })).toBeVisible();
  await expect(saveButton(other)).toBeDisabled();
  await other.getByRole("button", { name: "Tomar el control" }).click();
  await expect(saveButton(other)).toBeEnabled();

  await expect(page.getByRole("alertdialog")).toContainText("tomó el control de este registro", { timeout: 30_000 });
  await expect(page.getByRole("alertdialog")).toContainText("Sus cambios ya no se guardan");
  await expect(saveButton(page)).toBeDisabled();
});

test("ventas gets 403 on /admin/contenido and an editor 403 on the ajustes record", async ({ page, request, newClient }) => {
  test.slow(); // two invitations and password hashes
  await signInStaffWithForm(page);
  await expect(page).toHaveURL(/\/admin$/);
  await waitForAdminMarker(page);
  await page.goto("/admin/contenido/ajustes");
  await expect(page).toHaveURL(/\/admin\/contenido\/ajustes\/[0-9a-f-]{36}$/);
  await expect(page.getByText("no puede eliminarse")).toBeVisible();
  const ajustes = new URL(page.url()).pathname;

  const editor = await (await newClient()).newPage();
  await staffOnPage(editor, request, (await newClient()).request, "editor", "sin-ajustes");
  for (const target of [ajustes, "/admin/contenido/ajustes"]) {
    const response = await editor.goto(target);
    expect(response?.status(), target).toBe(403);
    await expect(editor.locator("main")).toContainText(STAFF_AREA_REFUSED);
  }
  await editor.goto("/admin/contenido");
  await expect(editor.getByRole("heading", { name: "Preguntas frecuentes" })).toBeVisible();
  await expect(editor.getByRole("link", { name: "Ajustes", exact: true })).toHaveCount(0);

  const sales = await (await newClient()).newPage();
  await staffOnPage(sales, request, (await newClient()).request, "ventas", "ventas-contenido");
  const refused = await sales.goto("/admin/contenido");
  expect(refused?.status()).toBe(403);
  await expect(sales.locator("main")).toContainText(STAFF_AREA_REFUSED);
  await expect(sales.getByRole("navigation", { name: "Administración" }).getByRole("link", { name: "Contenido" })).toHaveCount(0);
});
