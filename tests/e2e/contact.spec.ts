import type { Page, Request } from "@playwright/test";
import { axeViolations } from "./support/axe";
import { expect, test } from "./support/fixtures";
import { waitForMail } from "./support/mail";
import { waitForHydration } from "./support/site";
import {
  CURRENT_YEAR,
  FOLIO,
  contactForm,
  contactValues,
  expectContactValues,
  expectFieldError,
  exportCsv,
  fillContactForm,
  findSolicitudes,
  openStaffClient,
  parseCsv,
  signInStaffContext,
  staffMailbox,
  waitFillTime,
  type ContactValues,
} from "./support/solicitudes";

// Issue 4 §2: /contact with and without JavaScript — the number, the confirmation email, staff
// seeing it as a "Mensaje de contacto" — and its validation errors with every value kept.

function invalidContactValues(): { values: ContactValues; errors: [keyof ReturnType<typeof contactForm>, string][] } {
  const values = contactValues({ name: "", email: "luis.hernandez@", phone: "123", subject: "", message: "Hola", privacy: false });
  return {
    values,
    errors: [
      ["name", "Escriba su nombre."],
      ["email", "Escriba un correo válido, por ejemplo nombre@empresa.com."],
      ["phone", "Escriba un número de 10 dígitos; puede empezar con +52."],
      ["subject", "Escriba el asunto."],
      ["message", "Escriba un mensaje de al menos 10 caracteres."],
      ["privacy", "Para enviar el formulario debe aceptar el aviso de privacidad."],
    ],
  };
}

/** Every POST the page makes (with JavaScript React Router posts to /contact.data, without it to /contact). */
function trackPosts(page: Page): Request[] {
  const posts: Request[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST") posts.push(request);
  });
  return posts;
}

async function expectSentPage(page: Page): Promise<string> {
  await page.waitForURL(/\/contact\/enviado\?folio=SOL-/);
  const heading = page.getByRole("heading", { level: 1 });
  await expect(heading).toHaveText(new RegExp(`^Recibimos su mensaje SOL-${CURRENT_YEAR()}-\\d{4,}$`));
  return FOLIO.exec((await heading.textContent()) ?? "")![0];
}

async function expectMails(values: ContactValues, number: string) {
  const [confirmation] = await waitForMail(values.email);
  expect(confirmation.subject).toBe(`Mensaje ${number} recibido`);
  expect(confirmation.text).toContain(`Su número de solicitud es ${number}.`);
  expect(confirmation.text).toContain(values.subject);
  const [notification] = await waitForMail(staffMailbox(), { subject: new RegExp(`^\\[${number}\\]`) });
  expect(notification.subject).toBe(`[${number}] Contacto: ${values.name}`);
  expect(notification.text).toContain(values.message);
}

test.describe("with JavaScript", () => {
  test("a message is sent: its number, the emails, and staff see a «Mensaje de contacto»", async ({ page, newClient }) => {
    const posts = trackPosts(page);
    const values = contactValues();
    await page.goto("/contact");
    await waitForHydration(page);
    const shownAt = Date.now();
    await fillContactForm(page, values);
    await waitFillTime(page, shownAt);
    await contactForm(page).submit.click();
    const number = await expectSentPage(page);
    expect(posts.map((request) => new URL(request.url()).pathname)).toEqual([expect.stringMatching(/^\/contact(\.data)?$/)]);
    expect(await axeViolations(page), "axe on /contact/enviado").toEqual([]);
    await expectMails(values, number);

    const staffContext = await newClient();
    await signInStaffContext(staffContext);
    const staffPage = await staffContext.newPage();
    await staffPage.goto(`/admin/formularios?tipo=contacto&q=${values.tag}`);
    const rows = staffPage.locator("main tbody tr");
    await expect(rows).toHaveCount(1);
    await expect(rows.first().locator("td").nth(1)).toHaveText("Contacto");
    await expect(rows.first().locator("td").nth(0)).toHaveText("Sin leer");
    await rows.first().getByRole("link", { name: number }).click();
    await expect(staffPage.getByRole("heading", { level: 1 })).toHaveText(number);
    await expect(staffPage.locator("main")).toContainText(`Mensaje de contacto de ${values.name}`);
    const message = staffPage.getByRole("region", { name: "Mensaje" });
    await expect(message.locator('xpath=.//dt[.="Asunto"]/following-sibling::dd[1]')).toHaveText(values.subject);
    await expect(message.locator('xpath=.//dt[.="Mensaje"]/following-sibling::dd[1]')).toHaveText(values.message);
    // A message is not a quote request: no project, files or quote sections.
    await expect(staffPage.getByRole("region", { name: "Proyecto" })).toHaveCount(0);
    await expect(staffPage.getByRole("region", { name: "Archivos" })).toHaveCount(0);
  });

  test("validation errors beside their fields, values kept, nothing sent; axe finds nothing", async ({ page }) => {
    const posts = trackPosts(page);
    await page.goto("/contact");
    await waitForHydration(page);
    const { values, errors } = invalidContactValues();
    await fillContactForm(page, values);
    const form = contactForm(page);
    await form.submit.click();
    for (const [field, message] of errors) await expectFieldError(form[field] as ReturnType<typeof page.locator>, message);
    await expectContactValues(page, values);
    await expect(form.form.locator("[aria-invalid=true]")).toHaveCount(errors.length);
    expect(posts).toEqual([]);
    expect(await axeViolations(page), "axe on /contact with errors").toEqual([]);
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a message is sent as a plain form post: its number, the emails, and the staff export says «Mensaje de contacto»", async ({ page, playwright }) => {
    const values = contactValues();
    await page.goto("/contact");
    const shownAt = Date.now();
    await fillContactForm(page, values);
    await waitFillTime(page, shownAt);
    await contactForm(page).submit.click();
    const number = await expectSentPage(page);
    await expectMails(values, number);

    const staff = await openStaffClient(playwright);
    try {
      expect(await findSolicitudes(staff, values.tag, { tipo: "contacto" })).toEqual([{ id: expect.any(String), number }]);
      expect(await findSolicitudes(staff, values.tag, { tipo: "cotizacion" })).toEqual([]);
      const [header, row, ...rest] = parseCsv((await exportCsv(staff, values.tag)).text);
      expect(rest).toEqual([]);
      const record = Object.fromEntries(header.map((column, index) => [column, row[index]]));
      expect(record).toMatchObject({ Número: number, Tipo: "Mensaje de contacto", Nombre: values.name, Correo: values.email, Asunto: values.subject, Mensaje: values.message });
    } finally {
      await staff.dispose();
    }
  });

  test("validation errors beside their fields, status 400, every value kept", async ({ page }) => {
    await page.goto("/contact");
    const { values, errors } = invalidContactValues();
    await fillContactForm(page, values);
    const form = contactForm(page);
    const [response] = await Promise.all([
      page.waitForResponse((candidate) => candidate.request().method() === "POST" && new URL(candidate.url()).pathname === "/contact"),
      form.submit.click(),
    ]);
    expect(response.status()).toBe(400);
    await page.waitForLoadState("domcontentloaded");
    for (const [field, message] of errors) await expectFieldError(form[field] as ReturnType<typeof page.locator>, message);
    await expectContactValues(page, values);
    await expect(form.form.locator("[aria-invalid=true]")).toHaveCount(errors.length);
  });
});
