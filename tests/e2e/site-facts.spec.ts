import type { APIRequestContext, Page } from "@playwright/test";
import { STAFF, baseUrl, createCustomer } from "./support/accounts";
import { clientHeaders, expect, test } from "./support/fixtures";
import { waitForMail } from "./support/mail";
import { pdfText, quoteSentSubject, sampleQuote, staffCreateQuote } from "./support/quotes";
import { waitForHydration, savedAtTime } from "./support/site";
import { contactForm, contactValues, fillContactForm, openStaffClient, signInStaffContext, waitFillTime } from "./support/solicitudes";
import { createStaffMember, signInAdmin } from "./support/staff";

// Issue 16 §1 (docs/decisions/0047): the business facts come from the `ajustes` record. An admin
// changes the phone in /admin/contenido and publishes it; the header, the footer, /contact, a new
// email and the quote PDF show the new phone; an editor gets 403 on the record. The phone is unique
// to this run and the original is put back in a `finally`, so other journeys keep the seed's phone.

const ONLY_SUPERUSERS = { status: 403, message: "Only superusers can perform this action.", data: {} };

/** A bearer token of the record API for a staff account. */
async function staffToken(client: APIRequestContext, email: string, password: string): Promise<string> {
  const response = await client.post("/api/collections/_superusers/auth-with-password", { data: { identity: email, password } });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

/** The `ajustes` record as the admin reads it through the record API. */
async function readAjustes(client: APIRequestContext, token: string): Promise<{ id: string; telefono: string }> {
  const response = await client.get("/api/collections/ajustes/records", { headers: { Authorization: token } });
  expect(response.status()).toBe(200);
  const { items } = (await response.json()) as { items: { id: string; telefono: string }[] };
  expect(items).toHaveLength(1);
  return items[0]!;
}

/** "442 5xx xxxx": a Mexican number no other run or seed uses. */
function uniquePhone(): string {
  const digits = String(Date.now() % 1_000_000).padStart(6, "0");
  return `442 5${digits.slice(0, 2)} ${digits.slice(2)}`;
}

const telHref = (phone: string) => `tel:+52${phone.replace(/\D/g, "")}`;

async function expectHeaderAndFooter(page: Page, phone: string) {
  const footer = page.getByRole("contentinfo");
  await expect(footer.getByRole("link", { name: `Tel. ${phone}` })).toHaveAttribute("href", telHref(phone));
  // The header's menu (below 1280 px) offers the call.
  await page.getByTestId("mobile-menu").locator("summary").click();
  await expect(page.getByRole("banner").getByRole("link", { name: `Llamar al ${phone}` })).toHaveAttribute("href", telHref(phone));
}

test("an admin changes the phone in ajustes: header, footer, /contact, a new email and the quote PDF show it; an editor gets 403", async ({ page, playwright, newClient }) => {
  test.slow(); // two staff sign-ins, an invitation, a contact form's fill time and a PDF
  const admin = await playwright.request.newContext({ baseURL: baseUrl(), extraHTTPHeaders: clientHeaders() });
  const adminToken = await staffToken(admin, STAFF.email, STAFF.password);
  const original = await readAjustes(admin, adminToken);
  const phone = uniquePhone();
  expect(phone).not.toBe(original.telefono);
  try {
    // 1. The admin edits the phone in the content editor and publishes it.
    await signInStaffContext(page.context());
    await page.goto("/admin/contenido/ajustes");
    await expect(page).toHaveURL(new RegExp(`/admin/contenido/ajustes/${original.id}$`));
    await waitForHydration(page);
    await page.getByLabel("Teléfono", { exact: true }).fill(phone);
    await page.getByRole("button", { name: "Publicar" }).click();
    await expect(page.getByTestId("autosave-status")).toHaveText(savedAtTime("Publicado"));
    await expect(page.getByTestId("record-state")).toHaveText("Publicado");

    // 2. A visitor sees it at once in the header, the footer and /contact (no stale cached page).
    const visitor = await newClient({ viewport: { width: 390, height: 844 } });
    const guest = await visitor.newPage();
    await guest.goto("/contact");
    await expect(guest.getByRole("region", { name: "Datos de contacto" }).getByRole("link", { name: phone })).toHaveAttribute("href", telHref(phone));
    await expect(guest.locator("main")).not.toContainText(original.telefono);
    await expectHeaderAndFooter(guest, phone);
    await guest.goto("/catalogo");
    await expect(guest.getByRole("contentinfo")).toContainText(`Tel. ${phone}`);

    // 3. A new email: the contact form's confirmation carries the new phone in its footer.
    await guest.goto("/contact");
    await waitForHydration(guest);
    const values = contactValues();
    const shownAt = Date.now();
    await fillContactForm(guest, values);
    await waitFillTime(guest, shownAt);
    await contactForm(guest).submit.click();
    await guest.waitForURL(/\/contact\/enviado\?folio=SOL-/);
    const [confirmation] = await waitForMail(values.email);
    expect(confirmation!.text).toContain(`Tel. ${phone}`);
    expect(confirmation!.html).toContain(`href="${telHref(phone)}"`);
    expect(confirmation!.text).not.toContain(original.telefono);

    // 4. A quote sent now: its email and its PDF show the new phone.
    const customer = await createCustomer((await newClient()).request);
    const staff = await openStaffClient(playwright);
    try {
      const quote = await staffCreateQuote(staff, sampleQuote(customer));
      const [sent] = await waitForMail(customer.email, { subject: quoteSentSubject(quote.number) });
      expect(sent!.text).toContain(`Tel. ${phone}`);
      const pdf = await staff.get(`/quotes/${quote.id}/pdf`);
      expect(pdf.status()).toBe(200);
      const text = await pdfText(await pdf.body());
      expect(text).toContain(quote.number);
      expect(text).toContain(`Tel. ${phone}`);
      expect(text).not.toContain(original.telefono);
    } finally {
      await staff.dispose();
    }

    // 5. An editor may not read ajustes through the record API: PocketBase's 403, as a guest gets.
    await signInAdmin(admin);
    const editorClient = (await newClient()).request;
    const editor = await createStaffMember(admin, editorClient, "editor", "ajustes");
    const editorToken = await staffToken(editorClient, editor.email, editor.password);
    for (const path of ["/api/collections/ajustes/records", `/api/collections/ajustes/records/${original.id}`]) {
      const refused = await editorClient.get(path, { headers: { Authorization: editorToken } });
      expect(refused.status(), path).toBe(403);
      expect(await refused.json()).toEqual(ONLY_SUPERUSERS);
      const anonymous = await (await newClient()).request.get(path);
      expect(anonymous.status(), `${path} anónimo`).toBe(403);
    }
  } finally {
    // Put the seed's phone back (a write without ?draft=true publishes), whatever failed above.
    const restored = await admin.patch(`/api/collections/ajustes/records/${original.id}`, { headers: { Authorization: adminToken }, data: { telefono: original.telefono } });
    expect(restored.status(), await restored.text()).toBe(200);
    expect((await readAjustes(admin, adminToken)).telefono).toBe(original.telefono);
    await admin.dispose();
  }
});

// docs/decisions/0087: the FAQ names the facts ("{credito}") instead of writing them, so the cached
// /faqs shows what Ajustes says; the credit text reached no page before. A change published in
// Ajustes reaching the FAQ is tested on the database (site-facts.server.test.ts): publishing it here
// would empty every cached page under the other journeys, and the phone test above already follows
// a publish through the page cache.
test("the cached /faqs shows the credit text of ajustes; the editor lists the facts a text may name", async ({ page, playwright, newClient }) => {
  const admin = await playwright.request.newContext({ baseURL: baseUrl(), extraHTTPHeaders: clientHeaders() });
  const adminToken = await staffToken(admin, STAFF.email, STAFF.password);
  const listed = (await (await admin.get("/api/collections/ajustes/records", { headers: { Authorization: adminToken } })).json()) as { items: { credito: string }[] };
  await admin.dispose();
  const { credito } = listed.items[0]!;
  expect(credito).not.toBe("");
  const guest = await (await newClient()).newPage();
  await guest.goto("/faqs");
  await expect(guest.locator("main")).toContainText(credito);
  await expect(guest.locator("main")).not.toContainText("{");

  // Staff writing a question see which names they may use, and a misspelt one is pointed out.
  await signInStaffContext(page.context());
  await page.goto("/admin/contenido/preguntas/nuevo");
  await waitForHydration(page);
  const help = page.getByText("Datos del negocio que puede escribir");
  await help.click();
  await expect(page.getByText("{horario_en_frase}")).toBeVisible();
  await expect(page.getByText("{correo}")).toBeVisible();
  // The editor itself (its toolbar), not the text shown while it loads, takes the typing.
  await expect(page.getByRole("toolbar")).toContainText("Negritas");
  await page.getByRole("textbox", { name: "Respuesta" }).click();
  await page.keyboard.type("Escríbanos a {corre} y le contestamos.");
  await expect(page.getByRole("textbox", { name: "Respuesta" })).toContainText("{corre}");
  await expect(page.getByText("{corre} no es un dato de Ajustes y se mostrará tal cual")).toBeVisible();
});
