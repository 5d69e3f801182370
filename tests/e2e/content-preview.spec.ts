import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { signInStaffWithForm, uniqueToken } from "./support/accounts";
import { axeViolations } from "./support/axe";
import { createQuestionDraft } from "./support/content";
import { waitForAdminMarker } from "./support/shop";
import { waitForHydration, savedAtTime } from "./support/site";
import { createStaffMember, signInAdmin } from "./support/staff";

// Issue 16 §2, docs/decisions/0049: «Vista previa» shows an editor the draft at its real address
// (banner, never stored, never indexed) while everyone else at that address sees the published
// page; «Editar esta página» on a public page takes staff to the record it shows, and nobody else
// sees it.

const PREVIEW_BANNER = "Vista previa del borrador";

async function editorOnPage(page: Page, admin: APIRequestContext, scratch: APIRequestContext) {
  await signInAdmin(admin);
  const member = await createStaffMember(admin, scratch, "editor", "vista-previa");
  await signInStaffWithForm(page, member.email, member.password);
  await expect(page).toHaveURL(/\/admin$/);
  await waitForAdminMarker(page);
}

test("an editor previews a question's draft at /faqs; visitors at that address see the published page", async ({ page, request, newClient }) => {
  test.slow(); // an invitation, a password hash and a save before the preview opens
  await editorOnPage(page, request, (await newClient()).request);
  const token = uniqueToken();
  const question = `¿Hacen roscas métricas finas? ${token}`;

  // A new question, saved as a draft: not public.
  await createQuestionDraft(page, { question, answer: "Sí: de M3 x 0.35 a M24 x 1.5, con calibre pasa/no pasa.", category: "Procesos" });

  // A change not saved yet: «Vista previa» saves it first, then opens the page in a new tab.
  const revised = `${question} (revisada)`;
  await page.getByLabel("Pregunta", { exact: true }).fill(revised);
  const [preview] = await Promise.all([page.waitForEvent("popup"), page.getByRole("link", { name: "Vista previa" }).click()]);
  await expect(page.getByTestId("autosave-status")).toHaveText(savedAtTime("Borrador guardado"));
  await preview.waitForLoadState();
  const previewUrl = new URL(preview.url());
  expect(previewUrl.pathname).toBe("/faqs");
  expect(previewUrl.searchParams.get("vista-previa")).toBe(page.url().split("/").at(-1));
  await expect(preview.getByText(revised)).toBeVisible();
  const banner = preview.getByRole("complementary", { name: PREVIEW_BANNER });
  await expect(banner).toContainText("los visitantes siguen viendo la versión publicada");
  await expect(preview.locator('head meta[name="robots"]')).toHaveAttribute("content", "noindex");
  await waitForHydration(preview);
  expect(await axeViolations(preview)).toEqual([]);

  // The answer is the editor's only: never stored, never indexed.
  const answered = await page.request.get(previewUrl.pathname + previewUrl.search);
  expect(answered.status()).toBe(200);
  expect(answered.headers()["cache-control"]).toBe("private, no-store");
  expect(answered.headers()["x-robots-tag"]).toBe("noindex");
  expect(await answered.text()).toContain(revised);

  // Anyone else at the same address, with or without the parameter: the published page.
  const guest = (await newClient()).request;
  for (const address of [previewUrl.pathname + previewUrl.search, "/faqs"]) {
    const response = await guest.get(address);
    expect(response.status(), address).toBe(200);
    const html = await response.text();
    expect(html, address).not.toContain(token);
    expect(html, address).not.toContain(PREVIEW_BANNER);
    expect(response.headers()["x-robots-tag"], address).toBeUndefined();
  }

  // The banner is part of the server's page: hydrating it raises nothing.
  const again = await page.context().newPage();
  const problems: string[] = [];
  again.on("console", (message) => {
    if (message.type() === "error") problems.push(message.text());
  });
  again.on("pageerror", (error) => problems.push(error.message));
  await again.goto(previewUrl.pathname + previewUrl.search);
  await waitForHydration(again);
  await expect(again.getByText(revised)).toBeVisible();
  expect(problems).toEqual([]);
  await again.close();

  // Back to the editor from the banner.
  await banner.getByRole("link", { name: "Volver al editor" }).click();
  await expect(preview).toHaveURL(new RegExp(`/admin/contenido/preguntas/${previewUrl.searchParams.get("vista-previa")}$`));
});

test("«Editar esta página» shows for an editor on /faqs and opens the questions; a visitor never sees it", async ({ page, request, newClient }) => {
  test.slow(); // an invitation and a password hash
  await editorOnPage(page, request, (await newClient()).request);
  await page.goto("/faqs");
  await waitForHydration(page);
  const edit = page.getByRole("navigation", { name: "Herramientas del personal" }).getByRole("link", { name: "Editar esta página" });
  await expect(edit).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
  // Reached with the keyboard, with its focus ring.
  await edit.focus();
  await expect(edit).toBeFocused();
  expect(await edit.evaluate((element) => getComputedStyle(element).outlineStyle)).not.toBe("none");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/admin\/contenido\/preguntas$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Preguntas frecuentes");

  // A page with one record opens that record; a page without one, the content list with a notice.
  await page.goto("/about");
  await waitForHydration(page);
  await page.getByRole("link", { name: "Editar esta página" }).click();
  await expect(page).toHaveURL(/\/admin\/contenido\/paginas\/[0-9a-f-]{36}$/);
  await page.goto("/admin/contenido/ir?ruta=/catalogo");
  await expect(page).toHaveURL(/\/admin\/contenido\?/);
  await expect(page.getByRole("status").filter({ hasText: "La página /catalogo no muestra ningún registro" })).toBeVisible();

  // A visitor: no link, and the panel's address is not theirs.
  const visitor = await (await newClient()).newPage();
  await visitor.goto("/faqs");
  await waitForHydration(visitor);
  await expect(visitor.getByRole("link", { name: "Editar esta página" })).toHaveCount(0);
  await visitor.goto("/admin/contenido/ir?ruta=/faqs");
  await expect(visitor).toHaveURL(/\/admin\/login\?redirectTo=/);
});

test("staff whose role does not edit content (ventas) see no «Editar esta página» on public pages", async ({ page, request, newClient }) => {
  test.slow(); // an invitation and a password hash
  await signInAdmin(request);
  const member = await createStaffMember(request, (await newClient()).request, "ventas", "sin-contenido");
  await signInStaffWithForm(page, member.email, member.password);
  await expect(page).toHaveURL(/\/admin/);
  await waitForAdminMarker(page);
  await page.goto("/faqs");
  await waitForHydration(page);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByRole("link", { name: "Editar esta página" })).toHaveCount(0);
});
