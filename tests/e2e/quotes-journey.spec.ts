import fs from "node:fs";
import type { BrowserContext, Page } from "@playwright/test";
import { ADMIN_MARKER_KEY, PASSWORD, signInStaffWithForm, submitRegistration, uniqueToken } from "./support/accounts";
import { axeViolations } from "./support/axe";
import { expect, test } from "./support/fixtures";
import { linkInMail, listMail, waitForMail } from "./support/mail";
import {
  AWKWARD_LINE,
  CONFIRM_SUBJECT,
  DESIGN_LINE,
  QUOTE_NUMBER,
  TWO_LINES_TOTAL,
  UUID,
  acceptForm,
  acceptQuoteInPage,
  acceptedCustomerSubject,
  createConfirmedCustomer,
  definition,
  mediumDate,
  pdfText,
  quoteSentSubject,
  sampleQuote,
  staffCreateQuote,
  staffDecisionSubject,
  staffMessageSubject,
  type StaffQuote,
} from "./support/quotes";
import { waitForHydration } from "./support/site";
import { FOLIO, fillQuoteForm, openStaffClient, quoteForm, quoteValues, signInStaffContext, staffMailbox, waitFillTime } from "./support/solicitudes";

// Issue 5 §5: the quote journey in a real browser against the real server and its SMTP delivery —
// a visitor's request becomes a priced quote, the visitor becomes a customer, reads it, downloads
// the PDF, writes, accepts; then a revision and its comparison, a rejection, a stale second accept,
// and axe on every quote screen.

const SENT_NOTICE = "Cotización enviada. El cliente recibirá un correo con el enlace para verla, aceptarla o rechazarla.";
const ACCEPTED_NOTICE = "Gracias. Registramos su aceptación y le enviamos una confirmación por correo.";
/** The demo CLABE the test server pays into (no SPEI_CLABE set), grouped as the pages show it. */
const DEMO_CLABE_DISPLAY = "012 180 00123456789 9";

function staffNotice(page: Page) {
  return page.locator("main [role=status]");
}

/** The visible part of the staff panel: the marker the admin guard needs is set once signed in. */
async function waitForAdminMarker(page: Page): Promise<void> {
  await waitForHydration(page);
  await expect.poll(() => page.evaluate((key) => window.localStorage.getItem(key), ADMIN_MARKER_KEY)).toBe("1");
}

/** A browser signed in as staff (API sign-in plus the panel's marker), on its own client IP. */
async function staffBrowser(newClient: () => Promise<BrowserContext>): Promise<Page> {
  const context = await newClient();
  await signInStaffContext(context);
  return context.newPage();
}

test.describe("the whole journey", () => {
  test("request → quote built and sent → email → registration and confirmation → /quotes → PDF → message → acceptance → staff see the record", async ({
    page,
    newClient,
    clientIp,
  }) => {
    test.setTimeout(120_000); // four password hashes, the minimum fill time and eight emails on a busy 2-core machine
    const values = quoteValues();

    // 1. A visitor asks for a quote at /cotiza.
    await page.goto("/cotiza");
    await waitForHydration(page);
    const shownAt = Date.now();
    await fillQuoteForm(page, values);
    await waitFillTime(page, shownAt);
    await quoteForm(page).submit.click();
    await page.waitForURL(/\/cotiza\/enviada\?folio=SOL-/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(new RegExp(`^Recibimos su solicitud ${FOLIO.source}$`));
    const folio = FOLIO.exec((await page.getByRole("heading", { level: 1 }).textContent()) ?? "")![0];

    // 2. Staff sign in and open the request in /admin/formularios.
    const staff = await (await newClient()).newPage();
    await signInStaffWithForm(staff);
    await expect(staff).toHaveURL(/\/admin$/);
    await waitForAdminMarker(staff);
    await staff.goto(`/admin/formularios?q=${values.tag}`);
    await staff.locator("main tbody").getByRole("link", { name: folio }).click();
    await expect(staff.getByRole("heading", { level: 1 })).toContainText(folio);

    // "Crear cotización": a draft prefilled from the request; the request links back.
    await staff.getByRole("button", { name: "Crear cotización" }).click();
    await staff.waitForURL(new RegExp(`/admin/cotizaciones/${UUID.source}$`));
    const quoteId = UUID.exec(new URL(staff.url()).pathname)![0];
    await expect(staff.getByRole("heading", { level: 1 })).toHaveText(new RegExp(`^${QUOTE_NUMBER.source}$`));
    const number = QUOTE_NUMBER.exec((await staff.getByRole("heading", { level: 1 }).textContent()) ?? "")![0];
    await expect(staff.locator("main").getByText("Borrador", { exact: true }).first()).toBeVisible();
    await expect(staff.getByRole("link", { name: "Ver la solicitud de origen" })).toHaveAttribute("href", /\/admin\/formularios\/[0-9a-f-]{36}$/);
    await waitForHydration(staff);
    await expect(staff.getByLabel("Nombre del cliente")).toHaveValue(values.name);
    await expect(staff.getByLabel("Correo del cliente")).toHaveValue(values.email);
    await expect(staff.getByLabel("Descripción de la partida 1")).toHaveValue(values.description);

    // Line 1: the awkward price. The live total shows the rounding rule before anything is saved.
    await staff.getByLabel("Cantidad de la partida 1").fill(AWKWARD_LINE.quantity);
    await staff.getByLabel("Precio unitario (MXN, antes de IVA) de la partida 1").fill(AWKWARD_LINE.unitPrice);
    await staff.getByLabel("Descuento % de la partida 1").fill(AWKWARD_LINE.discount!);
    await expect(staff.getByTestId("importe-1")).toHaveText("$92.49");
    await expect(staff.getByTestId("subtotal")).toHaveText("$92.49");
    await expect(staff.getByTestId("iva")).toHaveText("$14.80");
    await expect(staff.getByTestId("total")).toHaveText("$107.29 MXN");

    // Line 2, added in the browser.
    await staff.getByRole("button", { name: "Agregar partida" }).click();
    await expect(staff.getByLabel("Descripción de la partida 2")).toBeFocused();
    await staff.getByLabel("Descripción de la partida 2").fill(DESIGN_LINE.description);
    await staff.getByLabel("Cantidad de la partida 2").fill(DESIGN_LINE.quantity);
    await staff.getByLabel("Unidad de la partida 2").selectOption(DESIGN_LINE.unit!);
    await staff.getByLabel("Precio unitario (MXN, antes de IVA) de la partida 2").fill(DESIGN_LINE.unitPrice);
    await expect(staff.getByTestId("importe-2")).toHaveText("$1,500.00");
    await expect(staff.getByTestId("total")).toHaveText(`${TWO_LINES_TOTAL} MXN`);
    await staff.getByLabel("Plazo de entrega (días hábiles)").fill("12");

    // Save: the server's figures (the draft revision's total) agree with the live ones.
    const revisions = staff.getByRole("region", { name: "Revisiones" });
    await expect(revisions).toContainText("Borrador sin enviar · total $0.00");
    await staff.getByRole("button", { name: "Guardar borrador", exact: true }).click();
    await expect(staffNotice(staff)).toHaveText("Borrador guardado. Los totales son los que calculó el servidor.");
    await expect(revisions).toContainText(`Borrador sin enviar · total ${TWO_LINES_TOTAL} (IVA incluido)`);
    await expect(staff.getByRole("region", { name: "Historial" })).toContainText(`Borrador guardado (revisión 1); total ${TWO_LINES_TOTAL} con IVA`);
    expect(await axeViolations(staff), "axe on the builder").toEqual([]);

    // Send.
    await staff.getByRole("button", { name: "Enviar al cliente" }).click();
    await staff.waitForURL(`**/admin/cotizaciones/${quoteId}?enviada=1`);
    await expect(staffNotice(staff)).toHaveText(SENT_NOTICE);
    const sentSection = staff.getByRole("region", { name: "Revisión enviada (1)" });
    await expect(sentSection).toContainText(`${TWO_LINES_TOTAL} MXN`);
    await expect(definition(sentSection, "Plazo de entrega")).toHaveText("12 días hábiles");

    // 3. The email reaches the test SMTP server: to the visitor, with the link to /quotes/{id}.
    const [sentMail] = await waitForMail(values.email, { subject: quoteSentSubject(number) });
    expect(sentMail.to).toEqual([values.email.toLowerCase()]);
    expect(sentMail.text).toContain(`Hola, ${values.name}.`);
    expect(sentMail.text).toContain(`suma ${TWO_LINES_TOTAL} con IVA incluido`);
    const quoteLink = linkInMail(sentMail, `/quotes/${quoteId}`);
    expect(quoteLink.origin).toBe(new URL(page.url()).origin);

    // Following it without an account leads to the sign-in, which offers to register.
    await page.goto(quoteLink.pathname);
    await expect(page).toHaveURL(new RegExp(`/login\\?redirectTo=${encodeURIComponent(`/quotes/${quoteId}`)}$`));

    // 4. The visitor registers with that email and confirms it from the confirmation email.
    await page.goto("/registro");
    await waitForHydration(page);
    await submitRegistration(page, { name: values.name, email: values.email, company: values.company, password: PASSWORD });
    await expect(page).toHaveURL(/\/cuenta\?bienvenida=1$/);
    // Until the email is confirmed, the quote is not theirs.
    expect((await page.context().request.get(`/quotes/${quoteId}`, { maxRedirects: 0 })).status()).toBe(404);
    const [confirmation] = await waitForMail(values.email, { subject: CONFIRM_SUBJECT });
    await page.goto(linkInMail(confirmation, "/cuenta/confirmar").toString());
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("¡Correo confirmado!");
    await waitForHydration(page);
    await page.getByRole("link", { name: "Ver mis cotizaciones" }).click();

    // 5. /quotes lists it: number, status, total, "vence en …".
    await expect(page).toHaveURL(/\/quotes$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Mis cotizaciones");
    const row = page.locator("main tbody tr").filter({ hasText: number });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText("Enviada");
    await expect(row).toContainText(TWO_LINES_TOTAL);
    await expect(row).toContainText(/Vence en 30 días \(hasta el \d{1,2} de \p{L}+ de \d{4}\)/u);
    expect(await axeViolations(page), "axe on /quotes with a quote").toEqual([]);

    await row.getByRole("link", { name: number }).click();
    await expect(page).toHaveURL(new RegExp(`/quotes/${quoteId}$`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Cotización ${number}`);
    const document = page.getByRole("article");
    // Line 1 is the request's description, priced; line 2 the one staff added.
    await expect(document).toContainText(values.description);
    await expect(document).toContainText(DESIGN_LINE.description);
    await expect(document).toContainText("3 piezas");
    await expect(document).toContainText("7.5 %");
    await expect(document).toContainText("$92.49");
    await expect(document).toContainText(`${TWO_LINES_TOTAL} MXN`);
    await expect(definition(document, "Plazo de entrega")).toHaveText("12 días hábiles");
    await expect(page.getByRole("region", { name: "Resumen" })).toContainText(/Vence en 30 días/);
    await waitForHydration(page);
    expect(await axeViolations(page), "axe on a sent quote").toEqual([]);

    // 6. The PDF: a download, application/pdf, with the number and the total in its text.
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Descargar PDF" }).click()]);
    expect(download.suggestedFilename()).toBe(`${number}.pdf`);
    const downloaded = fs.readFileSync((await download.path())!);
    expect(downloaded.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const pdfResponse = await page.context().request.get(`/quotes/${quoteId}/pdf`);
    expect(pdfResponse.status()).toBe(200);
    expect(pdfResponse.headers()["content-type"]).toBe("application/pdf");
    const text = await pdfText(downloaded);
    expect(text).toContain(number);
    expect(text).toContain(`${TWO_LINES_TOTAL} MXN`);
    expect(text).toContain(values.name);

    // 7. A message: shown in the thread; staff get it by email.
    const question = `¿Pueden entregar las ménsulas con anodizado negro? ${uniqueToken()}`;
    await page.getByLabel("Escriba su mensaje").fill(question);
    await page.getByRole("button", { name: "Enviar mensaje" }).click();
    await expect(page).toHaveURL(new RegExp(`/quotes/${quoteId}\\?ok=mensaje#mensajes$`));
    await expect(page.getByRole("status")).toContainText("Enviamos su mensaje al equipo de Forja.");
    await expect(page.getByRole("region", { name: "Mensajes" })).toContainText(question);
    const [staffMessage] = await waitForMail(staffMailbox(), { subject: staffMessageSubject(number) });
    expect(staffMessage.subject).toBe(`[${number}] Mensaje de ${values.name}`);
    expect(staffMessage.text).toContain(question);
    expect(staffMessage.parsed.replyTo?.[0]?.address?.toLowerCase()).toBe(values.email.toLowerCase());

    // 8. Acceptance: the full name as signature and the terms ticked.
    await waitForHydration(page);
    await expect(acceptForm(page).terms).toHaveAccessibleName(`He leído las condiciones de la cotización ${number} (revisión 1) y la acepto por ${TWO_LINES_TOTAL} con IVA incluido.`);
    await acceptQuoteInPage(page, values.name);
    await expect(page).toHaveURL(new RegExp(`/quotes/${quoteId}\\?ok=aceptada$`));
    await expect(page.getByRole("status")).toContainText(ACCEPTED_NOTICE);
    await expect(page.getByRole("region", { name: "Estado de la cotización" })).toContainText(`Aceptada por ${values.name} el`);
    await expect(acceptForm(page).form).toHaveCount(0);
    // Accepted: the SPEI details (the account orders use) with the quote number as the reference.
    const payment = page.getByRole("region", { name: "Datos para el pago" });
    await expect(definition(payment, "CLABE")).toHaveText(DEMO_CLABE_DISPLAY);
    await expect(definition(payment, "Beneficiario")).toHaveText("Forja Diseño y Manufactura, S.A. de C.V.");
    await expect(definition(payment, "Referencia (escríbala en el concepto)")).toHaveText(number);
    expect(await axeViolations(page), "axe on an accepted quote").toEqual([]);

    const [acceptedMail] = await waitForMail(values.email, { subject: acceptedCustomerSubject(number) });
    expect(acceptedMail.text).toContain(`firmada como «${values.name}»`);
    expect(acceptedMail.text).toContain(TWO_LINES_TOTAL);
    expect(acceptedMail.text).toContain(`CLABE: ${DEMO_CLABE_DISPLAY}`);
    expect(acceptedMail.text).toContain(`Referencia: ${number}`);
    const acceptedPdf = await pdfText(await (await page.context().request.get(`/quotes/${quoteId}/pdf`)).body());
    expect(acceptedPdf).toContain(`CLABE: ${DEMO_CLABE_DISPLAY}`);
    expect(acceptedPdf).toContain(`Referencia: ${number}`);
    await waitForMail(staffMailbox(), { subject: staffDecisionSubject(number, "Aceptada") });

    // 9. Staff see it "Aceptada" with the acceptance record: name, date, IP.
    await staff.goto(`/admin/cotizaciones?q=${number}`);
    const staffRow = staff.locator("main tbody tr").filter({ hasText: number });
    await expect(staffRow).toContainText("Aceptada");
    await expect(staffRow).toContainText(TWO_LINES_TOTAL);
    expect(await axeViolations(staff), "axe on /admin/cotizaciones").toEqual([]);
    await staffRow.getByRole("link", { name: number }).click();
    await expect(staff).toHaveURL(new RegExp(`/admin/cotizaciones/${quoteId}$`));
    const record = staff.getByRole("region", { name: "Aceptación del cliente" });
    await expect(definition(record, "Firmó como")).toHaveText(values.name);
    await expect(definition(record, "Fecha y hora")).toContainText(mediumDate());
    await expect(definition(record, "Dirección IP")).toHaveText(clientIp);
    await expect(definition(record, "Navegador")).toContainText("Chrome");
    await expect(staff.getByRole("region", { name: "Estado" })).toContainText("«Aceptada» es un estado final");
    await expect(staff.getByRole("region", { name: "Mensajes con el cliente" })).toContainText(question);
    expect(await axeViolations(staff), "axe on the staff detail of an accepted quote").toEqual([]);
  });
});

test.describe("revisions", () => {
  test("staff revise a sent quote; the customer sees revision 2 with the comparison and can no longer accept revision 1", async ({ page, newClient, playwright }) => {
    test.slow();
    const customer = await createConfirmedCustomer(page.context().request, { name: `Leticia Revisión ${uniqueToken()}` });
    const api = await openStaffClient(playwright);
    let quote: StaffQuote;
    try {
      quote = await staffCreateQuote(api, sampleQuote(customer));
    } finally {
      await api.dispose();
    }

    // The customer has revision 1 open in a tab (and keeps it). Its live updates are cut, as on a
    // connection that dropped: the page must stay at revision 1 for the server to refuse it.
    await page.route("**/api/realtime", (route) => route.abort());
    await page.goto(`/quotes/${quote.id}`);
    await waitForHydration(page);
    await expect(page.getByRole("article")).toContainText(`${quote.number} · revisión 1`);
    await expect(page.getByRole("region", { name: "Revisiones" })).toContainText("Esta es la única revisión");

    // Staff: "Crear revisión", new price for line 2, new lead time, send.
    const staff = await staffBrowser(newClient);
    await staff.goto(`/admin/cotizaciones/${quote.id}`);
    await waitForHydration(staff);
    await staff.getByRole("button", { name: "Crear revisión" }).click();
    await expect(staffNotice(staff)).toContainText("Revisión nueva creada a partir de la enviada.");
    await expect(staff.getByRole("heading", { name: "Revisión 2 (borrador)" })).toBeVisible();
    await expect(staff.getByLabel("Precio unitario (MXN, antes de IVA) de la partida 2")).toHaveValue("1500.00");
    await staff.getByLabel("Precio unitario (MXN, antes de IVA) de la partida 2").fill("1350");
    await staff.getByLabel("Plazo de entrega (días hábiles)").fill("15");
    await expect(staff.getByTestId("total")).toHaveText("$1,673.29 MXN");
    await staff.getByRole("button", { name: "Enviar al cliente" }).click();
    await staff.waitForURL(`**/admin/cotizaciones/${quote.id}?enviada=1`);
    await expect(staff.getByRole("region", { name: "Revisión enviada (2)" })).toContainText("$1,673.29 MXN");

    const mails = await waitForMail(customer.email, { subject: quoteSentSubject(quote.number), count: 2 });
    expect(mails[1]!.text).toContain(`La revisión 2 de la cotización ${quote.number} suma $1,673.29 con IVA incluido`);

    // A fresh look: revision 2 only, and what changed since revision 1.
    const fresh = await page.context().newPage();
    await fresh.goto(`/quotes/${quote.id}`);
    await expect(fresh.getByRole("article")).toContainText(`${quote.number} · revisión 2`);
    await expect(fresh.getByRole("article")).toContainText("$1,350.00");
    await expect(fresh.getByRole("article")).not.toContainText("$1,500.00");
    await expect(fresh.getByRole("article")).toHaveCount(1);
    await expect(fresh.getByRole("region", { name: "Resumen" })).toContainText("15 días hábiles");
    const history = fresh.getByRole("region", { name: "Revisiones" });
    await expect(history).toContainText("Revisión 2 (vigente)");
    await expect(history).toContainText("Revisión 1");
    const comparison = history.getByRole("region", { name: "Cambios de la revisión 1 a la 2" });
    await expect(comparison).toContainText("Partida modificada");
    await expect(comparison).toContainText(DESIGN_LINE.description);
    const change = (label: string) => comparison.locator("li").filter({ hasText: new RegExp(`^${label.replace(/[()]/g, "\\$&")}:`) });
    await expect(change("Precio unitario (antes de IVA)").locator("del")).toHaveText("$1,500.00");
    await expect(change("Precio unitario (antes de IVA)").locator("ins")).toHaveText("$1,350.00");
    await expect(change("Plazo de entrega").locator("del")).toHaveText("12 días hábiles");
    await expect(change("Plazo de entrega").locator("ins")).toHaveText("15 días hábiles");
    await expect(change("Total (IVA incluido)").locator("del")).toHaveText(TWO_LINES_TOTAL);
    await expect(change("Total (IVA incluido)").locator("ins")).toHaveText("$1,673.29");
    await expect(comparison).toContainText("Diferencia: −$174.00 (baja)");
    await expect(acceptForm(fresh).terms).toHaveAccessibleName(`He leído las condiciones de la cotización ${quote.number} (revisión 2) y la acepto por $1,673.29 con IVA incluido.`);

    // The stale tab still shows revision 1; accepting from it is refused and changes nothing.
    await expect(acceptForm(page).terms).toHaveAccessibleName(`He leído las condiciones de la cotización ${quote.number} (revisión 1) y la acepto por ${TWO_LINES_TOTAL} con IVA incluido.`);
    await acceptQuoteInPage(page, customer.name);
    await expect(page.getByRole("alert")).toHaveText(
      "Le enviamos una revisión nueva de esta cotización (revisión 2) mientras tenía abierta la 1. Revise los cambios antes de aceptarla.",
    );
    await expect(page).toHaveURL(new RegExp(`/quotes/${quote.id}$`));
    // The refused tab now shows revision 2, still open, next to the refusal.
    await expect(page.getByRole("article")).toContainText(`${quote.number} · revisión 2`);
    await expect(acceptForm(page).terms).toHaveAccessibleName(/\(revisión 2\) y la acepto por \$1,673\.29/);
    await fresh.reload();
    await expect(fresh.getByRole("article")).toContainText(`${quote.number} · revisión 2`);
    await expect(acceptForm(fresh).form).toBeVisible();
    await expect(fresh.getByText("Enviada", { exact: true }).first()).toBeVisible();
    expect(await listMail(customer.email, acceptedCustomerSubject(quote.number))).toEqual([]);
  });
});

test.describe("answers and illegal moves", () => {
  test("a rejection with a reason: the customer's page records it and staff see the reason and comment", async ({ page, newClient, playwright }) => {
    const customer = await createConfirmedCustomer(page.context().request, { name: `Rodrigo Rechazo ${uniqueToken()}` });
    const api = await openStaffClient(playwright);
    let quote: StaffQuote;
    try {
      quote = await staffCreateQuote(api, sampleQuote(customer));
    } finally {
      await api.dispose();
    }
    const note = `Necesitamos las piezas en 8 días hábiles como máximo. ${uniqueToken()}`;

    await page.goto(`/quotes/${quote.id}`);
    await waitForHydration(page);
    await page.getByText("No me conviene: rechazar la cotización").click();
    const reject = page.locator("form#rechazar");
    await reject.getByLabel("Motivo").selectOption({ label: "El plazo de entrega no nos funciona" });
    await reject.getByLabel("Comentarios").fill(note);
    await reject.getByRole("button", { name: "Rechazar la cotización" }).click();
    await expect(page).toHaveURL(new RegExp(`/quotes/${quote.id}\\?ok=rechazada$`));
    await expect(page.getByRole("status")).toContainText("Registramos que rechazó la cotización.");
    const state = page.getByRole("region", { name: "Estado de la cotización" });
    await expect(state).toContainText("Motivo: El plazo de entrega no nos funciona.");
    await expect(state).toContainText(note);
    await expect(acceptForm(page).form).toHaveCount(0);

    const [staffMail] = await waitForMail(staffMailbox(), { subject: staffDecisionSubject(quote.number, "Rechazada") });
    expect(staffMail.text).toContain("Motivo: El plazo de entrega no nos funciona");

    const staff = await staffBrowser(newClient);
    await staff.goto(`/admin/cotizaciones/${quote.id}`);
    const record = staff.getByRole("region", { name: "Rechazo del cliente" });
    await expect(definition(record, "Motivo")).toHaveText("El plazo de entrega no nos funciona");
    await expect(definition(record, "Comentario del cliente")).toHaveText(note);
    await expect(definition(record, "Fecha y hora")).toContainText(mediumDate());
    await expect(staff.getByRole("region", { name: "Estado" })).toContainText("Rechazada");
    await expect(staff.getByRole("region", { name: "Historial" })).toContainText("Rechazada (revisión 1): El plazo de entrega no nos funciona");
  });

  test("a second accept from a stale tab is refused in Spanish and changes nothing", async ({ page, newClient, playwright }) => {
    const customer = await createConfirmedCustomer(page.context().request, { name: `Susana Doble ${uniqueToken()}` });
    const api = await openStaffClient(playwright);
    let quote: StaffQuote;
    try {
      quote = await staffCreateQuote(api, sampleQuote(customer));
    } finally {
      await api.dispose();
    }

    const first = page;
    const second = await page.context().newPage();
    // The second tab hears nothing (its live updates cut): it stays stale, as a tab without a connection.
    await second.route("**/api/realtime", (route) => route.abort());
    for (const tab of [first, second]) {
      await tab.goto(`/quotes/${quote.id}`);
      await waitForHydration(tab);
    }
    await acceptQuoteInPage(first, customer.name);
    await expect(first).toHaveURL(new RegExp(`\\?ok=aceptada$`));

    await acceptQuoteInPage(second, "Otra Persona Que Firma");
    await expect(second.getByRole("alert")).toHaveText("La cotización ya está aceptada.");
    await expect(second.getByRole("region", { name: "Estado de la cotización" })).toContainText(`Aceptada por ${customer.name} el`);

    // Nothing changed: one acceptance, signed by the first tab; one confirmation email.
    const staff = await staffBrowser(newClient);
    await staff.goto(`/admin/cotizaciones/${quote.id}`);
    await expect(definition(staff.getByRole("region", { name: "Aceptación del cliente" }), "Firmó como")).toHaveText(customer.name);
    await expect(staff.getByRole("region", { name: "Historial" }).getByText("Aceptada (revisión 1)")).toHaveCount(1);
    await waitForMail(customer.email, { subject: acceptedCustomerSubject(quote.number) });
    expect(await listMail(customer.email, acceptedCustomerSubject(quote.number))).toHaveLength(1);
  });
});

test.describe("accessibility", () => {
  test("axe: /quotes empty and with a quote, a sent and an accepted quote, the staff list, the builder and the detail", async ({ page, newClient, playwright }) => {
    test.slow();
    const customer = await createConfirmedCustomer(page.context().request, { name: `Alma Accesible ${uniqueToken()}` });

    await page.goto("/quotes");
    await expect(page.getByRole("heading", { name: "Aún no tiene cotizaciones" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Solicitar una cotización" })).toHaveAttribute("href", "/cotiza");
    await waitForHydration(page);
    expect(await axeViolations(page), "axe on /quotes (empty)").toEqual([]);

    const api = await openStaffClient(playwright);
    let quote: StaffQuote;
    let draft: StaffQuote;
    try {
      quote = await staffCreateQuote(api, sampleQuote(customer));
      draft = await staffCreateQuote(api, sampleQuote(customer, { notes: "Borrador para la revisión de accesibilidad" }), { send: false });
    } finally {
      await api.dispose();
    }

    await page.goto("/quotes");
    await expect(page.locator("main tbody tr")).toHaveCount(1); // the draft is not shown
    await waitForHydration(page);
    expect(await axeViolations(page), "axe on /quotes").toEqual([]);

    await page.goto(`/quotes/${quote.id}`);
    await waitForHydration(page);
    expect(await axeViolations(page), "axe on a sent quote").toEqual([]);
    // With every form's errors showing.
    await acceptForm(page).submit.click();
    await expect(acceptForm(page).fullName).toHaveAttribute("aria-invalid", "true");
    expect(await axeViolations(page), "axe on a sent quote with errors").toEqual([]);
    await acceptQuoteInPage(page, customer.name);
    await expect(page).toHaveURL(/\?ok=aceptada$/);
    await waitForHydration(page);
    expect(await axeViolations(page), "axe on an accepted quote").toEqual([]);

    const staff = await staffBrowser(newClient);
    await staff.goto("/admin/cotizaciones");
    await waitForHydration(staff);
    expect(await axeViolations(staff), "axe on /admin/cotizaciones").toEqual([]);
    await staff.goto(`/admin/cotizaciones/${draft.id}`);
    await waitForHydration(staff);
    await expect(staff.getByRole("heading", { name: "Borrador", exact: true })).toBeVisible();
    expect(await axeViolations(staff), "axe on the builder").toEqual([]);
    await staff.goto(`/admin/cotizaciones/${draft.id}?vista=previa`);
    await waitForHydration(staff);
    expect(await axeViolations(staff), "axe on the preview").toEqual([]);
    await staff.goto(`/admin/cotizaciones/${quote.id}`);
    await waitForHydration(staff);
    await expect(staff.getByRole("region", { name: "Aceptación del cliente" })).toBeVisible();
    expect(await axeViolations(staff), "axe on the staff detail").toEqual([]);
  });
});
