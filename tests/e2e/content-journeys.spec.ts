import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { STAFF, signInStaffWithForm, uniqueToken } from "./support/accounts";
import { axeViolations } from "./support/axe";
import { createQuestionDraft } from "./support/content";
import { waitForAdminMarker } from "./support/shop";
import { waitForHydration, savedAtTime } from "./support/site";

// Issue 16, Tests: the content journeys not covered by content-editor.spec.ts (draft, publish,
// conflict, history, lock, roles), staff-roles.spec.ts and authorization-matrix.spec.ts. A question
// scheduled for the next minute stays off /faqs until then and is served right after (the same
// with two processes: app/routes/api/two-processes.test.ts); a page's slug change answers 301 and
// its redirection is listed and editable under Redirecciones; script, event-handler and
// javascript: payloads sent as HTML or Markdown come out sanitized on the public pages.

/** The admin from admin-create, signed in on `page` through the panel's form. */
async function staffOnPage(page: Page): Promise<void> {
  await signInStaffWithForm(page);
  await expect(page).toHaveURL(/\/admin$/);
  await waitForAdminMarker(page);
}

/** The date and hour inputs of «Programar publicación» for `at`, in Mexico City time. */
function mexicoCityInputs(at: Date): { day: string; time: string } {
  const parts = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Mexico_City", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((item) => item.type === type)!.value;
  return { day: `${part("year")}-${part("month")}-${part("day")}`, time: `${part("hour")}:${part("minute")}` };
}

/** A token for the record API as the admin (`_superusers`). */
async function staffToken(request: APIRequestContext): Promise<string> {
  const response = await request.post("/api/collections/_superusers/auth-with-password", { data: { identity: STAFF.email, password: STAFF.password } });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

const saveButton = (page: Page) => page.getByRole("button", { name: "Guardar borrador" });

test("a question scheduled for the next minute stays off /faqs until then and is served right after it", async ({ page, newClient }) => {
  test.setTimeout(180_000); // up to 80 s until the next minute with room to spare
  await staffOnPage(page);
  const question = `¿Rectifican ejes templados a 60 HRC? ${uniqueToken()}`;
  await createQuestionDraft(page, { question, answer: "Sí, en rectificadora cilíndrica con tolerancias de ±0.005 mm.", category: "Procesos", published: true });

  // The next whole minute with at least 20 s to look at /faqs before it.
  const minute = new Date(Math.ceil((Date.now() + 20_000) / 60_000) * 60_000);
  const { day, time } = mexicoCityInputs(minute);
  await page.getByLabel("Fecha", { exact: true }).fill(day);
  await page.getByLabel("Hora", { exact: true }).fill(time);
  await page.getByRole("button", { name: "Programar publicación" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Publicación programada para el" })).toBeVisible();
  await expect(page.getByTestId("record-state")).toHaveText(/^Programado para el /);

  // A visitor until the minute: every /faqs loaded before it leaves the question out.
  const guest = await (await newClient()).newPage();
  let looks = 0;
  while (Date.now() < minute.getTime() - 3_000) {
    await guest.goto("/faqs");
    if (Date.now() >= minute.getTime()) break;
    await expect(guest.getByRole("heading", { level: 1 })).toHaveText("Respuestas antes de cotizar");
    await expect(guest.getByText(question)).toHaveCount(0);
    looks += 1;
    await guest.waitForTimeout(Math.min(3_000, Math.max(0, minute.getTime() - 3_000 - Date.now())));
  }
  expect(looks).toBeGreaterThan(2);

  // From the minute: served within a second (asked every 50 ms), then shown in the browser.
  await guest.waitForTimeout(Math.max(0, minute.getTime() - Date.now()));
  let servedAfterMs = Number.POSITIVE_INFINITY;
  while (Date.now() - minute.getTime() < 10_000) {
    if ((await (await guest.request.get("/faqs")).text()).includes(question)) {
      servedAfterMs = Date.now() - minute.getTime();
      break;
    }
    await guest.waitForTimeout(50);
  }
  expect(servedAfterMs, "served within 1 s of its minute").toBeLessThanOrEqual(1_000);
  await guest.goto("/faqs");
  const published = guest.getByRole("group").filter({ hasText: question });
  await published.getByText(question).click();
  await expect(published).toContainText("rectificadora cilíndrica");

  await page.reload();
  await expect(page.getByTestId("record-state")).toHaveText("Publicado");
});

test("a page's new slug answers 301 from the old address; the redirection is listed and edited under Redirecciones", async ({ page, request, newClient }) => {
  test.slow(); // several saves and publishes
  await staffOnPage(page);
  const token = uniqueToken();
  const oldSlug = `guia-de-tolerancias-${token}`;
  const newSlug = `tolerancias-${token}`;
  const title = `Guía de tolerancias ${token}`;
  const slugField = () => page.getByLabel("Dirección", { exact: true });

  await page.goto("/admin/contenido/paginas/nuevo");
  await waitForHydration(page);
  await slugField().fill(oldSlug);
  await page.getByLabel("Título", { exact: true }).fill(title);
  await page.getByLabel("Descripción para buscadores").fill("Qué tolerancias alcanzamos en maquinado CNC, rectificado y lámina, y cómo indicarlas en su plano para cotizar sin retrabajos.");
  const body = page.getByRole("textbox", { name: "Contenido" });
  await expect(body).toHaveAttribute("contenteditable", "true");
  await body.click();
  await page.keyboard.type("En maquinado CNC sostenemos ±0.01 mm en cotas funcionales.");
  await page.getByLabel("Publicado", { exact: true }).check();
  await saveButton(page).click();
  await page.waitForURL(/\/admin\/contenido\/paginas\/[0-9a-f-]{36}$/);
  await waitForHydration(page);
  await page.getByRole("button", { name: "Publicar" }).click();
  await expect(page.getByTestId("record-state")).toHaveText("Publicado");
  expect((await request.get(`/${oldSlug}`)).status()).toBe(200);

  // Bad input: an address that is a route of the site is refused in Spanish, and what was typed stays.
  await slugField().fill("cotiza");
  await saveButton(page).click();
  await expect(page.getByText(/La dirección \/cotiza ya es una página del sitio/)).toBeVisible();
  await expect(slugField()).toHaveValue("cotiza");
  await expect(page.getByLabel("Título", { exact: true })).toHaveValue(title);

  await slugField().fill(newSlug);
  await page.getByRole("button", { name: "Publicar" }).click();
  await expect(page.getByTestId("autosave-status")).toHaveText(savedAtTime("Publicado"));
  await expect(page.getByTestId("record-state")).toHaveText("Publicado");

  const moved = await request.get(`/${oldSlug}`, { maxRedirects: 0 });
  expect(moved.status()).toBe(301);
  expect(moved.headers()["location"]).toBe(`/${newSlug}`);
  const visitor = await (await newClient()).newPage();
  await visitor.goto(`/${oldSlug}`);
  await expect(visitor).toHaveURL(new RegExp(`/${newSlug}$`));
  await expect(visitor.getByRole("heading", { level: 1 })).toHaveText(title);

  // Listed with the content, and editable on its own form.
  await page.goto("/admin/contenido");
  await expect(page.getByRole("link", { name: `/${oldSlug} → /${newSlug}` })).toBeVisible();
  await page.getByRole("heading", { name: "Redirecciones" }).getByRole("link").click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Redirecciones");
  expect(await axeViolations(page)).toEqual([]);
  const row = page.getByTestId("redirect-row").filter({ hasText: `/${oldSlug}` });
  await expect(row).toContainText(`/${newSlug}`);
  await row.getByRole("link", { name: `Editar la redirección desde /${oldSlug}` }).click();
  await waitForHydration(page);
  const target = page.getByLabel("Dirección nueva", { exact: true });
  await expect(target).toHaveValue(`/${newSlug}`);

  await target.fill("contacto");
  await page.getByRole("button", { name: "Guardar redirección" }).click();
  await expect(page.getByText("Escriba una dirección de este sitio que empiece con /, o una dirección completa que empiece con https://.")).toBeVisible();
  await expect(target).toHaveValue("contacto");

  await target.fill("/contact");
  await page.getByRole("button", { name: "Guardar redirección" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Redirección guardada" })).toHaveText(`Redirección guardada: /${oldSlug} lleva a /contact.`);
  const edited = await request.get(`/${oldSlug}`, { maxRedirects: 0 });
  expect(edited.status()).toBe(301);
  expect(edited.headers()["location"]).toBe("/contact");

  await page.getByRole("button", { name: "Eliminar redirección" }).click();
  await expect(page).toHaveURL(/\/admin\/contenido\/redirecciones$/);
  await expect(page.getByTestId("redirect-row").filter({ hasText: `/${oldSlug}` })).toHaveCount(0);
  expect((await request.get(`/${oldSlug}`, { maxRedirects: 0 })).status()).toBe(404);
});

test("script, event-handler and javascript: payloads sent as HTML or Markdown come out sanitized on /faqs and on a page", async ({ page, request }) => {
  const token = uniqueToken();
  const authorization = { Authorization: await staffToken(request) };
  const html = '<p onmouseover="window.__xss=1">Hola <a href="javascript:window.__xss=2">enlace</a><img src=x onerror="window.__xss=3"> y <a href="https://proveedor.example/ficha">la ficha</a></p><script>window.__xss=4</script>';
  const markdown = "Hola [enlace](javascript:window.__xss=2) <script>window.__xss=4</script> <img src=x onerror=window.__xss=3> y [la ficha](https://proveedor.example/ficha)";
  const question = `¿Cómo limpian el texto? ${token}`;
  const created = await request.post("/api/collections/preguntas/records", { headers: authorization, data: { pregunta: question, respuesta: html, categoria: "Pruebas de seguridad", orden: 997 } });
  expect(created.status(), await created.text()).toBe(200);
  const slug = `texto-limpio-${token}`;
  const pageRecord = await request.post("/api/collections/paginas/records", {
    headers: authorization,
    data: { slug, titulo: `Texto limpio ${token}`, descripcion: "Una página de prueba con texto que intenta ejecutar código en el navegador del visitante.", cuerpo: markdown },
  });
  expect(pageRecord.status(), await pageRecord.text()).toBe(200);

  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  for (const [path, container] of [
    ["/faqs", page.getByRole("group").filter({ hasText: question })],
    [`/${slug}`, page.locator("article")],
  ] as const) {
    await page.goto(path);
    await waitForHydration(page);
    if (path === "/faqs") await container.getByText(question).click();
    await expect(container).toContainText("Hola");
    await expect(container.getByRole("link", { name: "la ficha" })).toHaveAttribute("rel", /noopener/);
    // What the browser built from the HTML (markup written as text is shown as text, inert).
    const built = await container.evaluate((element) => ({
      elements: element.querySelectorAll("script, img, iframe, object, embed, style").length,
      handlers: [element, ...element.querySelectorAll("*")].flatMap((node) => [...node.attributes].filter((attribute) => /^on/i.test(attribute.name)).map((attribute) => attribute.name)),
      scriptLinks: [...element.querySelectorAll("[href], [src]")].map((node) => node.getAttribute("href") ?? node.getAttribute("src") ?? "").filter((url) => /^\s*javascript:/i.test(url)),
    }));
    expect(built, path).toEqual({ elements: 0, handlers: [], scriptLinks: [] });
    // Hovering and clicking what is left runs nothing.
    await container.getByText("Hola").hover();
    await container.getByText("enlace").click();
    expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss), path).toBeUndefined();
  }
  expect(dialogs).toEqual([]);
});
