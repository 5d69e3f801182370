import fs from "node:fs";
import type { Page, PlaywrightWorkerArgs, Request } from "@playwright/test";
import { binaryStlFile, largeStepFile, pdfFile, stepFile, windowsExeFile } from "../support/minimal-files";
import { STAFF, createCustomer, signInStaffWithForm } from "./support/accounts";
import { axeViolations } from "./support/axe";
import { waitForAdminMarker } from "./support/shop";
import { expect, test } from "./support/fixtures";
import { linkInMail, waitForMail } from "./support/mail";
import { waitForHydration } from "./support/site";
import {
  CURRENT_YEAR,
  FOLIO,
  bigTempFile,
  dropFiles,
  expectFieldError,
  expectQuoteValues,
  exportCsv,
  fetchFormToken,
  fillQuoteForm,
  findSolicitudes,
  longSpanishDate,
  mexicoDate,
  openStaffClient,
  parseCsv,
  quoteForm,
  quoteMultipart,
  quoteValues,
  staffMailbox,
  waitFillTime,
  type QuoteValues,
} from "./support/solicitudes";

// Issue 4 §1, §3 and §4: /cotiza with real CAD files, with and without JavaScript, every validation
// error, the spam defences, and what staff see of it in /admin/formularios — all against the real
// server, its real SMTP delivery and its own pages.

const BOT_MESSAGE = "No pudimos procesar el formulario. Si usa un programa que llena formularios automáticamente, desactívelo e intente de nuevo.";
const PDF_REQUIRED = "Con tolerancias más estrictas que ISO 2768-m, adjunte el plano en PDF con las cotas y tolerancias.";
const RATE_LIMITED = /^Demasiados intentos desde su conexión\. Espere (un minuto|\d+ minutos) e inténtelo de nuevo\.$/;
const DISCLAIMER = "Es una estimación automática; la cotización formal la envía nuestro equipo.";
const PRICE_RANGE = /Precio indicativo: (\$[\d,]+\.\d\d – \$[\d,]+\.\d\d) MXN, IVA incluido/;
const FILES_KEPT_NOTE = "Si el formulario marca un error, vuelva a elegir sus archivos: el navegador no los conserva.";

/** Invalid values in every field that can be wrong; the rest valid. Each is expected back as typed. */
function invalidQuoteValues(): { values: QuoteValues; errors: [keyof ReturnType<typeof quoteForm>, string][] } {
  const values = quoteValues({
    name: "",
    email: "ana.torres@",
    phone: "12345",
    description: "Muy corto",
    quantity: "0",
    extraQuantities: "100; 500",
    requiredBy: mexicoDate(-3),
    privacy: false,
  });
  return {
    values,
    errors: [
      ["name", "Escriba su nombre."],
      ["email", "Escriba un correo válido, por ejemplo nombre@empresa.com."],
      ["phone", "Escriba un número de 10 dígitos; puede empezar con +52."],
      ["description", "Describa su proyecto con al menos 20 caracteres: qué pieza es, para qué sirve y qué necesita."],
      ["quantity", "La cantidad debe ser al menos 1."],
      ["extraQuantities", "Escriba cantidades enteras separadas por comas, por ejemplo 100, 500, 1000."],
      ["requiredBy", "La fecha requerida no puede estar en el pasado."],
      ["privacy", "Para enviar el formulario debe aceptar el aviso de privacidad."],
    ],
  };
}

/** Every POST from this page: the form's multipart document post, or its JavaScript upload to /api/cotiza. */
function trackFormPosts(page: Page): Request[] {
  const posts: Request[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST") posts.push(request);
  });
  return posts;
}

async function openQuoteForm(page: Page, path = "/cotiza", hydrate = true): Promise<number> {
  const response = await page.goto(path);
  expect(response?.status()).toBe(200);
  if (hydrate) await waitForHydration(page);
  return Date.now();
}

/** The requests staff find for a search, looked up with a fresh staff session. */
async function storedSolicitudes(playwright: PlaywrightWorkerArgs["playwright"], q: string) {
  const staff = await openStaffClient(playwright);
  try {
    return await findSolicitudes(staff, q);
  } finally {
    await staff.dispose();
  }
}

/** Clicks submit (JavaScript off) and returns the document response of the post. */
async function submitDocument(page: Page) {
  const [response] = await Promise.all([
    page.waitForResponse((candidate) => candidate.request().method() === "POST" && new URL(candidate.url()).pathname === "/cotiza"),
    quoteForm(page).submit.click(),
  ]);
  await page.waitForLoadState("domcontentloaded");
  return response;
}

async function expectSuccessPage(page: Page): Promise<string> {
  await page.waitForURL(/\/cotiza\/enviada\?folio=SOL-/);
  const heading = page.getByRole("heading", { level: 1 });
  await expect(heading).toHaveText(new RegExp(`^Recibimos su solicitud SOL-${CURRENT_YEAR()}-\\d{4,}$`));
  await expect(page.getByRole("heading", { name: "Qué sigue" })).toBeVisible();
  const number = FOLIO.exec((await heading.textContent()) ?? "")![0];
  expect(new URL(page.url()).searchParams.get("folio")).toBe(number);
  return number;
}

/** The <dd> of a <dt> with exactly this text on a staff detail page. */
function detailValue(page: Page, label: string, within = page.locator("main")) {
  return within.locator(`xpath=.//dt[normalize-space()="${label}"]/following-sibling::dd[1]`);
}

test.describe("with JavaScript", () => {
  test("a dropped STL and a chosen STEP: estimate, upload progress, number, emails, staff follow-up, downloads and CSV", async ({ page, newClient, clientIp }) => {
    test.slow();
    const values = quoteValues();
    const step = { name: "carcasa-monitor.step", bytes: largeStepFile(8 * 1024 * 1024) };
    const stl = { name: "soporte caja 10x20x30.stl", bytes: binaryStlFile() };
    const posts = trackFormPosts(page);

    const shownAt = await openQuoteForm(page);
    await fillQuoteForm(page, values);
    const form = quoteForm(page);
    await form.files.setInputFiles({ name: step.name, mimeType: "model/step", buffer: Buffer.from(step.bytes) });
    await dropFiles(page, [{ name: stl.name, bytes: stl.bytes, type: "model/stl" }]);

    // Both files are listed (the drop added to the chosen one) and the input holds both.
    const fileList = page.locator("section[aria-labelledby=cotiza-archivos] ul").first();
    await expect(fileList.locator("li")).toHaveCount(2);
    await expect(fileList).toContainText(step.name);
    await expect(fileList).toContainText(stl.name);
    expect(await form.files.evaluate((input: HTMLInputElement) => [...(input.files ?? [])].map((file) => file.name))).toEqual([step.name, stl.name]);

    // The instant estimate of the STL (a 10 × 20 × 30 mm box): volume, box and, for 3D printing, a price.
    const estimate = page.getByRole("region", { name: "Estimación instantánea de sus archivos STL" });
    await expect(estimate).toBeVisible();
    const stlCard = estimate.locator("article").filter({ hasText: stl.name });
    await expect(stlCard).toHaveCount(1);
    await expect(estimate.locator("article")).toHaveCount(1); // the STEP has no estimate
    await expect(detailValue(page, "Volumen de la pieza", stlCard)).toHaveText("6 cm³");
    await expect(detailValue(page, "Dimensiones (caja envolvente)", stlCard)).toHaveText("10 × 20 × 30 mm");
    await expect(detailValue(page, "Triángulos", stlCard)).toHaveText("12");
    await expect(stlCard).not.toContainText("La malla no está cerrada");
    await expect(stlCard).toContainText(PRICE_RANGE);
    await expect(stlCard).toContainText("IVA incluido");
    await expect(stlCard).toContainText(DISCLAIMER);
    await expect(stlCard).toContainText("Por 1 pieza.");
    const browserRange = PRICE_RANGE.exec((await stlCard.textContent())!.replace(/[\u00a0\u202f]/g, " "))![1];

    // A service without a price rule shows no price; back to 3D printing shows it again.
    await form.service.selectOption("moldes-inyeccion");
    await expect(estimate).toContainText("Para «Moldes e inyección de plástico» no damos precio automático");
    await expect(stlCard).not.toContainText("Precio indicativo");
    await form.service.selectOption(values.service.value);
    await expect(stlCard).toContainText(PRICE_RANGE);

    // Slow the upload down (Chromium's own network emulation, the server untouched) to see the progress bar.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 3 * 1024 * 1024 });
    await waitFillTime(page, shownAt);
    await form.submit.click();
    const progress = page.getByRole("progressbar", { name: "Enviando archivos…" });
    await expect(page.getByTestId("upload-progress")).toBeVisible();
    await expect(page.getByTestId("upload-progress")).toContainText(/de 8(\.\d)? MB \(\d+ %\)/);
    await expect.poll(() => progress.evaluate((element: HTMLProgressElement) => element.value), { timeout: 10_000 }).toBeGreaterThan(0);
    const number = await expectSuccessPage(page);
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await cdp.detach();
    expect(posts.map((request) => new URL(request.url()).pathname)).toEqual(["/api/cotiza"]);
    expect(await axeViolations(page), "axe on /cotiza/enviada").toEqual([]);

    // The confirmation to the requester and the notification to staff, through the SMTP server.
    const [confirmation] = await waitForMail(values.email);
    expect(confirmation.subject).toBe(`Solicitud de cotización ${number} recibida`);
    expect(confirmation.text).toContain(`Su número de solicitud es ${number}.`);
    const [notification] = await waitForMail(staffMailbox(), { subject: new RegExp(`^\\[${number}\\]`) });
    expect(notification.subject).toBe(`[${number}] Solicitud de cotización: ${values.name}`);
    expect(notification.text).toContain(values.email);
    expect(notification.text).toContain(`${step.name}, ${stl.name}`);
    const id = /\/admin\/formularios\/([0-9a-f-]{36})/.exec(notification.text)?.[1];
    expect(id, "the notification links to the request").toBeTruthy();
    const adminLink = linkInMail(notification, `/admin/formularios/${id}`);
    expect(adminLink.origin).toBe(new URL(page.url()).origin);

    // Staff sign in and find it, unread, in the list.
    const staffPage = await (await newClient()).newPage();
    await signInStaffWithForm(staffPage);
    await staffPage.waitForURL(/\/admin$/);
    await waitForAdminMarker(staffPage);
    await staffPage.getByRole("navigation", { name: "Administración" }).getByRole("link", { name: "Solicitudes" }).click();
    await expect(staffPage.getByRole("heading", { level: 1 })).toHaveText("Solicitudes recibidas");
    await staffPage.getByLabel("Buscar").fill(values.tag);
    await staffPage.getByRole("button", { name: "Aplicar filtros" }).click();
    await expect(staffPage).toHaveURL(new RegExp(`[?&]q=${values.tag}`));
    const rows = staffPage.locator("main tbody tr");
    await expect(rows).toHaveCount(1);
    const row = rows.first();
    const cells = row.locator("td");
    await expect(cells.nth(0)).toHaveText("Sin leer");
    await expect(cells.nth(1)).toHaveText("Cotización");
    await expect(cells.nth(2)).toHaveText(number);
    await expect(cells.nth(4)).toHaveText(values.name);
    await expect(cells.nth(5)).toHaveText(values.company);
    await expect(cells.nth(6)).toHaveText(values.industry.label);
    await expect(cells.nth(7)).toHaveText("Nuevo");
    await expect(cells.nth(8)).toHaveText("2");
    expect(await axeViolations(staffPage), "axe on /admin/formularios").toEqual([]);

    // The detail: every field, the files, the server's estimate, the NDA record.
    await row.getByRole("link", { name: number }).click();
    await expect(staffPage).toHaveURL(adminLink.pathname);
    await expect(staffPage.getByRole("heading", { level: 1 })).toHaveText(number);
    const main = staffPage.locator("main");
    await expect(main).toContainText(`Solicitud de cotización de ${values.name} (${values.company})`);
    const expected: [string, string | RegExp][] = [
      ["Nombre", values.name],
      ["Empresa", values.company],
      ["Correo electrónico", values.email],
      ["Teléfono o WhatsApp", /^\+52 442 123 4567\s*Abrir en WhatsApp$/],
      ["Ciudad o estado", values.city],
      ["Cuenta en el sitio", "Sin cuenta vinculada"],
      ["Industria", values.industry.label],
      ["Servicio", values.service.label],
      ["Descripción del proyecto", values.description],
      ["Cantidad", "1 pieza"],
      ["Cantidades adicionales (precios por volumen)", "10, 50"],
      ["Fecha requerida", longSpanishDate(values.requiredBy)],
      ["Material", values.material],
      ["Acabado", values.finish],
      ["Tolerancias", "Estándar (ISO 2768-m)"],
      ["¿Lleva roscas?", "Sí"],
      ["Certificados e inspección", /^Certificado de conformidad\s*Reporte dimensional$/],
      ["Dirección IP", clientIp],
    ];
    for (const [label, value] of expected) await expect(detailValue(staffPage, label), label).toHaveText(value);
    await expect(detailValue(staffPage, "Acuerdo de confidencialidad")).toContainText("Aceptado: versión NDA-FORJA-2026-01");
    await expect(detailValue(staffPage, "Acuerdo de confidencialidad")).toContainText(/el \d/);
    await expect(detailValue(staffPage, "Aviso de privacidad")).toContainText("Aceptado el");

    const filesSection = staffPage.getByRole("region", { name: "Archivos" });
    await expect(filesSection.locator("li")).toHaveCount(2);
    await expect(filesSection.locator("li").filter({ hasText: step.name })).toContainText("(STEP, 8 MB)");
    await expect(filesSection.locator("li").filter({ hasText: stl.name })).toContainText("(STL, 1 KB)");

    const serverEstimate = staffPage.getByRole("region", { name: "Estimación instantánea" });
    await expect(serverEstimate).toContainText(stl.name);
    await expect(detailValue(staffPage, "Volumen", serverEstimate)).toHaveText("6 cm³");
    await expect(detailValue(staffPage, "Caja envolvente", serverEstimate)).toHaveText("10 × 20 × 30 mm");
    await expect(detailValue(staffPage, "Malla", serverEstimate)).toHaveText("Cerrada (12 triángulos)");
    // The server recomputed the same range the browser showed.
    await expect(detailValue(staffPage, "Precio indicativo", serverEstimate)).toContainText(`${browserRange} MXN, IVA incluido`);
    await expect(detailValue(staffPage, "Precio indicativo", serverEstimate)).toContainText(values.service.label);

    // Both files download byte for byte, under their own names.
    for (const file of [step, stl]) {
      const [download] = await Promise.all([
        staffPage.waitForEvent("download"),
        filesSection.getByRole("link", { name: `Descargar ${file.name}` }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(file.name);
      const downloaded = await fs.promises.readFile((await download.path())!);
      expect(downloaded.length, file.name).toBe(file.bytes.length);
      expect(Buffer.compare(downloaded, Buffer.from(file.bytes)), `${file.name} byte for byte`).toBe(0);
    }

    // Status, note, history.
    await staffPage.getByLabel("Cambiar a").selectOption("en_revision");
    await staffPage.getByRole("button", { name: "Cambiar estado" }).click();
    await expect(staffPage.getByRole("status").filter({ hasText: "Estado cambiado a «En revisión»." })).toBeVisible();
    const history = staffPage.getByRole("region", { name: "Historial" });
    // The page has reloaded its data (the note form is rebuilt with each new history entry).
    await expect(history.locator("li")).toHaveCount(3);
    await expect(staffPage.locator("main").getByText("Estado actual:")).toContainText("En revisión");
    const note = "Llamar a José: confirmar insertos M3 con el proveedor de Celaya y el acabado satinado.";
    const noteField = staffPage.getByLabel("Nota para el equipo");
    await noteField.fill(note);
    await expect(noteField).toHaveValue(note);
    await staffPage.getByRole("button", { name: "Guardar nota" }).click();
    await expect(staffPage.getByRole("status").filter({ hasText: "Nota guardada en el historial." })).toBeVisible();
    await expect(history.locator("li")).toHaveCount(4);
    await expect(history.locator("li").nth(0)).toContainText(note);
    await expect(history.locator("li").nth(0)).toContainText(STAFF.name);
    await expect(history.locator("li").nth(1)).toContainText("Cambió el estado de «Nuevo» a «En revisión»");
    await expect(history.locator("li").nth(1)).toContainText(STAFF.name);
    await expect(history.locator("li").nth(2)).toContainText("Marcó como leído");
    await expect(history.locator("li").nth(3)).toContainText("Solicitud recibida");
    await expect(history.locator("li").nth(3)).toContainText(values.name);
    expect(await axeViolations(staffPage), "axe on the detail page").toEqual([]);

    // Mark unread: back on the list, unread again and in its new status.
    await staffPage.getByRole("button", { name: "Marcar como no leído" }).click();
    await staffPage.waitForURL(/\/admin\/formularios$/);
    await staffPage.goto(`/admin/formularios?q=${values.tag}`);
    await expect(rows).toHaveCount(1);
    await expect(cells.nth(0)).toHaveText("Sin leer");
    await expect(cells.nth(7)).toHaveText("En revisión");

    // The CSV of this view: UTF-8 with a BOM, accents intact, every column of the request.
    const [csvDownload] = await Promise.all([staffPage.waitForEvent("download"), staffPage.getByRole("link", { name: "Exportar CSV" }).click()]);
    expect(csvDownload.suggestedFilename()).toMatch(/^solicitudes-\d{4}-\d{2}-\d{2}\.csv$/);
    const csvBytes = await fs.promises.readFile((await csvDownload.path())!);
    expect([...csvBytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const [header, ...dataRows] = parseCsv(csvBytes.toString("utf8"));
    expect(dataRows).toHaveLength(1);
    const record = Object.fromEntries(header.map((column, index) => [column, dataRows[0][index]]));
    expect(record).toMatchObject({
      Número: number,
      Tipo: "Solicitud de cotización",
      Estado: "En revisión",
      Leído: "No",
      Nombre: values.name,
      Empresa: values.company,
      Correo: values.email,
      // A leading "+" is neutralised against spreadsheet formulas (OWASP CSV injection).
      Teléfono: `'${values.phone}`,
      "Ciudad o estado": values.city,
      Industria: "Médica",
      Servicio: "Prototipado rápido (impresión 3D)",
      Descripción: values.description,
      Cantidad: "1",
      "Cantidades adicionales": "10, 50",
      "Fecha requerida": values.requiredBy,
      Material: values.material,
      Acabado: values.finish,
      Tolerancias: "Estándar (ISO 2768-m)",
      Roscas: "Sí",
      Certificados: "Certificado de conformidad, Reporte dimensional",
      Archivos: "2",
      "Acuerdo de confidencialidad": "NDA-FORJA-2026-01",
    });
    expect(record["Fecha (hora de la Ciudad de México)"]).toMatch(new RegExp(`^${mexicoDate()} \\d{2}:\\d{2}`));
  });

  test("every validation error beside its field, in Spanish, with every value kept; then corrected and sent", async ({ page }) => {
    const posts = trackFormPosts(page);
    const shownAt = await openQuoteForm(page);
    expect(await axeViolations(page), "axe on the empty /cotiza").toEqual([]);
    const { values, errors } = invalidQuoteValues();
    await fillQuoteForm(page, values);
    const form = quoteForm(page);
    await form.submit.click();

    for (const [field, message] of errors) await expectFieldError(form[field] as ReturnType<typeof page.locator>, message);
    await expectQuoteValues(page, values);
    await expect(form.form.locator("[aria-invalid=true]")).toHaveCount(errors.length);
    expect(posts, "nothing is sent while the form has errors").toEqual([]);
    expect(await axeViolations(page), "axe on /cotiza with errors").toEqual([]);

    // Corrected field by field, the errors go away and the request is sent.
    const fixed = { ...values, name: "Ana Torres Guzmán", email: values.email.replace(/@$/, "@ejemplo.mx"), phone: "442 123 4567", description: "Soporte de aluminio para banda transportadora con dos barrenos M6.", quantity: "25", extraQuantities: "100, 500", requiredBy: mexicoDate(0), privacy: true };
    await fillQuoteForm(page, fixed);
    await expect(form.form.locator("[aria-invalid=true]")).toHaveCount(0);
    await waitFillTime(page, shownAt);
    await form.submit.click();
    await expectSuccessPage(page);
    expect(posts.map((request) => new URL(request.url()).pathname)).toEqual(["/api/cotiza"]);
  });

  test("tolerancias más estrictas without a PDF is refused in the browser; a renamed .exe is refused by the server, naming it", async ({ page, playwright }) => {
    const posts = trackFormPosts(page);
    const shownAt = await openQuoteForm(page);
    const values = quoteValues({ tolerance: "estrictas", service: { value: "maquinado-cnc", label: "Maquinado CNC" } });
    await fillQuoteForm(page, values);
    const form = quoteForm(page);
    await form.files.setInputFiles({ name: "soporte.stl", mimeType: "model/stl", buffer: Buffer.from(binaryStlFile()) });
    await expect(form.fileErrors).toHaveText(PDF_REQUIRED);
    await waitFillTime(page, shownAt);
    await form.submit.click();
    await expect(form.fileErrors).toHaveText(PDF_REQUIRED);
    expect(posts).toEqual([]);

    // An executable renamed to .step passes the browser's extension check; the server reads its content.
    await form.tolerance("iso2768m").check();
    await form.files.setInputFiles({ name: "pieza-renombrada.step", mimeType: "model/step", buffer: Buffer.from(windowsExeFile()) });
    await expect(form.fileErrors).toHaveCount(0);
    const [answer] = await Promise.all([page.waitForResponse((response) => new URL(response.url()).pathname === "/api/cotiza"), form.submit.click()]);
    expect(answer.status()).toBe(400);
    await expect(form.fileErrors).toHaveText("«pieza-renombrada.step» no es un archivo STEP válido: su contenido no corresponde a la extensión.");
    await expect(page).toHaveURL(/\/cotiza$/);
    await expectQuoteValues(page, { ...values, tolerance: "iso2768m" });

    // Nothing was stored.
    expect(await storedSolicitudes(playwright, values.tag)).toEqual([]);
  });

  test("an over-limit file (51 MB) is refused in the browser before anything is sent", async ({ page }) => {
    const big = bigTempFile("plano-ensamble-completo.step", 51 * 1024 * 1024, stepFile());
    try {
      const posts = trackFormPosts(page);
      const shownAt = await openQuoteForm(page);
      const values = quoteValues();
      await fillQuoteForm(page, values);
      const form = quoteForm(page);
      await form.files.setInputFiles(big.file);
      const message = "El archivo «plano-ensamble-completo.step» pasa de 50 MB, el máximo por archivo.";
      await expect(form.fileErrors).toHaveText(message);
      await waitFillTime(page, shownAt);
      await form.submit.click();
      await expect(form.fileErrors).toHaveText(message);
      await page.waitForTimeout(300);
      expect(posts, "the browser sent nothing").toEqual([]);
      await expectQuoteValues(page, values);
    } finally {
      big.remove();
    }
  });

  test("?industria=medica preselects the industry and its certificates; ?servicio=maquinado-cnc the service", async ({ page }) => {
    await openQuoteForm(page, "/cotiza?industria=medica");
    const form = quoteForm(page);
    await expect(form.industry).toHaveValue("medica");
    await expect(form.industry.locator("option:checked")).toHaveText("Médica");
    await expect(form.service).toHaveValue("");
    const checked = async () => {
      const result: string[] = [];
      for (const label of ["Certificado de conformidad", "RoHS", "REACH", "Reporte dimensional"]) if (await form.certificate(label).isChecked()) result.push(label);
      return result;
    };
    expect(await checked()).toEqual(["Certificado de conformidad", "RoHS", "Reporte dimensional"]);
    // The person can change them, and another industry brings its own preset.
    await form.certificate("RoHS").uncheck();
    expect(await checked()).toEqual(["Certificado de conformidad", "Reporte dimensional"]);
    await form.industry.selectOption("alimentos");
    expect(await checked()).toEqual(["Certificado de conformidad"]);

    await openQuoteForm(page, "/cotiza?servicio=maquinado-cnc");
    await expect(form.service).toHaveValue("maquinado-cnc");
    await expect(form.service.locator("option:checked")).toHaveText("Maquinado CNC");
    await expect(form.industry).toHaveValue("");
    expect(await checked()).toEqual([]);

    // Unknown values preselect nothing.
    await openQuoteForm(page, "/cotiza?industria=textil&servicio=soldadura");
    await expect(form.industry).toHaveValue("");
    await expect(form.service).toHaveValue("");
  });

  test("the honeypot filled: refused with a neutral message and nothing stored", async ({ page, request, playwright }) => {
    const posts = trackFormPosts(page);
    const shownAt = await openQuoteForm(page);
    const values = quoteValues();
    await fillQuoteForm(page, values);
    await quoteForm(page).files.setInputFiles({ name: "soporte.step", mimeType: "model/step", buffer: Buffer.from(stepFile()) });
    // What a form-filling bot does: it fills the field people never see.
    await page.evaluate(() => {
      const input = document.querySelector<HTMLInputElement>('input[name="sitio_web"]')!;
      input.value = "https://ofertas.example";
    });
    await waitFillTime(page, shownAt);
    const [answer] = await Promise.all([page.waitForResponse((response) => new URL(response.url()).pathname === "/api/cotiza"), quoteForm(page).submit.click()]);
    expect(answer.status()).toBe(400);
    await expect(quoteForm(page).formErrors).toHaveText(BOT_MESSAGE);
    await expect(page).toHaveURL(/\/cotiza$/);
    expect(posts).toHaveLength(1);

    // The same without a browser, with a valid token: refused too.
    const token = await fetchFormToken(request, "/cotiza");
    await page.waitForTimeout(3_100);
    const direct = await request.post("/api/cotiza", { multipart: quoteMultipart(values, token, [], { sitio_web: "https://ofertas.example" }) });
    expect(direct.status()).toBe(400);
    expect((await direct.json()).result.error[""]).toEqual([BOT_MESSAGE]);

    expect(await storedSolicitudes(playwright, values.tag), "nothing stored for a bot").toEqual([]);
    expect(await waitForMail(values.email, { timeoutMs: 500 }).catch(() => [])).toEqual([]);
  });
});

test.describe("with JavaScript, sent twice", () => {
  test("a second click while the upload runs sends nothing more: one upload, one request stored", async ({ page, playwright }) => {
    const values = quoteValues();
    const answers: { status: number; body: { ok: boolean; number?: string } }[] = [];
    page.on("response", async (response) => {
      if (response.request().method() === "POST" && new URL(response.url()).pathname === "/api/cotiza") answers.push({ status: response.status(), body: await response.json() });
    });
    const shownAt = await openQuoteForm(page);
    await fillQuoteForm(page, values);
    await quoteForm(page).files.setInputFiles({ name: "soporte.stl", mimeType: "model/stl", buffer: Buffer.from(binaryStlFile()) });
    await waitFillTime(page, shownAt);
    // Two clicks in a row, the second before the first upload has been answered: the button is
    // disabled while the upload runs, so the second click does nothing. (A second post of the same
    // token is still answered with the same number: see "the same multipart body posted twice".)
    await quoteForm(page).submit.evaluate((button: HTMLButtonElement) => {
      button.click();
      button.click();
    });
    const number = await expectSuccessPage(page);
    await page.waitForTimeout(500);
    expect(answers).toEqual([{ status: 200, body: { ok: true, number } }]);

    expect(await storedSolicitudes(playwright, values.tag)).toEqual([{ id: expect.any(String), number }]);
    expect(await waitForMail(values.email)).toHaveLength(1);
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the same request as a plain multipart post: success page, and staff find it with its files", async ({ page, playwright }) => {
    const posts = trackFormPosts(page);
    const values = quoteValues({ nda: false });
    const step = { name: "brida-sin-js.stp", bytes: stepFile() };
    const stl = { name: "caja-sin-js.stl", bytes: binaryStlFile() };
    const shownAt = await openQuoteForm(page, "/cotiza", false);
    await fillQuoteForm(page, values);
    await quoteForm(page).files.setInputFiles([
      { name: step.name, mimeType: "model/step", buffer: Buffer.from(step.bytes) },
      { name: stl.name, mimeType: "model/stl", buffer: Buffer.from(stl.bytes) },
    ]);
    await waitFillTime(page, shownAt);
    const response = await submitDocument(page);
    expect(response.status()).toBe(302);
    const number = await expectSuccessPage(page);
    expect(posts.map((request) => new URL(request.url()).pathname)).toEqual(["/cotiza"]);
    expect(posts[0].headers()["content-type"]).toMatch(/^multipart\/form-data; boundary=/);

    const [confirmation] = await waitForMail(values.email);
    expect(confirmation.subject).toBe(`Solicitud de cotización ${number} recibida`);

    const staff = await openStaffClient(playwright);
    try {
      const found = await findSolicitudes(staff, values.tag);
      expect(found).toEqual([{ id: expect.any(String), number }]);
      const detail = await staff.get(`/admin/formularios/${found[0].id}`);
      expect(detail.status()).toBe(200);
      const html = await detail.text();
      expect(html).toContain(values.name);
      expect(html).toContain("No lo solicitó"); // no NDA this time
      const links = [...html.matchAll(/href="(\/admin\/formularios\/[0-9a-f-]{36}\/archivos\/[0-9a-f-]{36})"[^>]*download="([^"]+)"/g)].map((match) => ({ href: match[1], name: match[2] }));
      expect(links.map((link) => link.name).sort()).toEqual([step.name, stl.name].sort());
      for (const link of links) {
        const file = await staff.get(link.href);
        expect(file.status()).toBe(200);
        const expectedBytes = link.name === step.name ? step.bytes : stl.bytes;
        expect(Buffer.compare(await file.body(), Buffer.from(expectedBytes)), link.name).toBe(0);
      }
    } finally {
      await staff.dispose();
    }
  });

  test("every validation error beside its field, in Spanish, status 400, every value kept", async ({ page }) => {
    await openQuoteForm(page, "/cotiza", false);
    const { values, errors } = invalidQuoteValues();
    await fillQuoteForm(page, values);
    const form = quoteForm(page);
    await form.files.setInputFiles({ name: "soporte.stl", mimeType: "model/stl", buffer: Buffer.from(binaryStlFile()) });
    const response = await submitDocument(page);
    expect(response.status()).toBe(400);
    await expect(page).toHaveURL(/\/cotiza$/);
    for (const [field, message] of errors) await expectFieldError(form[field] as ReturnType<typeof page.locator>, message);
    await expectQuoteValues(page, values);
    await expect(form.form.locator("[aria-invalid=true]")).toHaveCount(errors.length);
    // Files are the one thing the browser drops; the page says so.
    await expect(page.locator("#cotiza-archivos-ayuda")).toContainText(FILES_KEPT_NOTE);
  });

  test("tolerancias más estrictas without a PDF: refused beside the files, values kept; with the PDF it is sent", async ({ page }) => {
    const shownAt = await openQuoteForm(page, "/cotiza", false);
    const values = quoteValues({ tolerance: "estrictas", nda: false });
    await fillQuoteForm(page, values);
    const form = quoteForm(page);
    const stl = { name: "soporte.stl", mimeType: "model/stl", buffer: Buffer.from(binaryStlFile()) };
    await form.files.setInputFiles(stl);
    await waitFillTime(page, shownAt);
    const refused = await submitDocument(page);
    expect(refused.status()).toBe(400);
    await expect(form.fileErrors).toHaveText(PDF_REQUIRED);
    await expectQuoteValues(page, values);

    await form.files.setInputFiles([stl, { name: "plano-cotas.pdf", mimeType: "application/pdf", buffer: Buffer.from(pdfFile()) }]);
    const accepted = await submitDocument(page);
    expect(accepted.status()).toBe(302);
    await expectSuccessPage(page);
  });

  test("an over-limit file (51 MB): the server answers 413 in Spanish and keeps what was typed", async ({ page }) => {
    test.slow();
    const big = bigTempFile("plano-ensamble-completo.step", 51 * 1024 * 1024, stepFile());
    try {
      const shownAt = await openQuoteForm(page, "/cotiza", false);
      const values = quoteValues();
      await fillQuoteForm(page, values);
      await quoteForm(page).files.setInputFiles(big.file);
      await waitFillTime(page, shownAt);
      const response = await submitDocument(page);
      expect(response.status()).toBe(413);
      await expect(quoteForm(page).formErrors).toHaveText("El archivo «plano-ensamble-completo.step» pasa de 50 MB, el máximo por archivo.");
      await expectQuoteValues(page, values);
    } finally {
      big.remove();
    }
  });

  test("a double click on submit creates one request", async ({ page, playwright }) => {
    const posts = trackFormPosts(page);
    const values = quoteValues();
    const shownAt = await openQuoteForm(page, "/cotiza", false);
    await fillQuoteForm(page, values);
    await quoteForm(page).files.setInputFiles({ name: "soporte.stl", mimeType: "model/stl", buffer: Buffer.from(binaryStlFile()) });
    await waitFillTime(page, shownAt);
    await quoteForm(page).submit.dblclick();
    const number = await expectSuccessPage(page);
    // Chromium itself usually folds a double click into one navigation; the server's one-time token
    // covers the posts that do get through (see the re-post tests).
    test.info().annotations.push({ type: "posts", description: `${posts.length} POST /cotiza` });
    expect(posts.length).toBeGreaterThanOrEqual(1);

    expect(await storedSolicitudes(playwright, values.tag)).toEqual([{ id: expect.any(String), number }]);
    expect(await waitForMail(values.email)).toHaveLength(1);
  });
});

for (const javaScriptEnabled of [true, false]) {
  test.describe(`back and resubmit, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("after the success page, Back and sending the form again shows the same number and stores nothing new", async ({ page, playwright }) => {
      const values = quoteValues();
      const stl = { name: "regreso.stl", mimeType: "model/stl", buffer: Buffer.from(binaryStlFile()) };
      const shownAt = await openQuoteForm(page, "/cotiza", javaScriptEnabled);
      await fillQuoteForm(page, values);
      await quoteForm(page).files.setInputFiles(stl);
      await waitFillTime(page, shownAt);
      if (javaScriptEnabled) await quoteForm(page).submit.click();
      else expect((await submitDocument(page)).status()).toBe(302);
      const number = await expectSuccessPage(page);

      await page.goBack();
      await page.waitForURL((url) => url.pathname === "/cotiza");
      if (javaScriptEnabled) {
        // The form is drawn again, empty, with a new token: the person types the same request again.
        await waitForHydration(page);
        await fillQuoteForm(page, values);
      } else {
        // The browser loads the form again (a new token) and puts back what was typed.
        await expect(quoteForm(page).name).toHaveValue(values.name);
      }
      // Files are put back only by some browsers: choose it again if needed.
      if ((await quoteForm(page).files.evaluate((input: HTMLInputElement) => input.files?.length ?? 0)) === 0) await quoteForm(page).files.setInputFiles(stl);
      // Sent again at once, before the form's minimum fill time: still the same request, not a bot.
      if (javaScriptEnabled) await quoteForm(page).submit.click();
      else await submitDocument(page);
      expect(await expectSuccessPage(page)).toBe(number);

      expect(await storedSolicitudes(playwright, values.tag)).toEqual([{ id: expect.any(String), number }]);
      expect(await waitForMail(values.email)).toHaveLength(1);
    });
  });
}

test.describe("without a browser", () => {
  test("the same multipart body posted twice with its token creates one request", async ({ request, playwright }) => {
    const values = quoteValues();
    const token = await fetchFormToken(request, "/cotiza");
    await new Promise((resolve) => setTimeout(resolve, 3_100));
    const body = () => quoteMultipart(values, token, [{ name: "soporte.stl", bytes: binaryStlFile(), type: "model/stl" }]);

    const first = await request.post("/cotiza", { multipart: body(), maxRedirects: 0 });
    expect(first.status()).toBe(302);
    const location = first.headers()["location"];
    expect(location).toMatch(/^\/cotiza\/enviada\?folio=SOL-\d{4}-\d{4,}$/);
    const second = await request.post("/cotiza", { multipart: body(), maxRedirects: 0 });
    expect(second.status()).toBe(302);
    expect(second.headers()["location"]).toBe(location);
    // The JavaScript endpoint answers the same number for the same token.
    const third = await request.post("/api/cotiza", { multipart: body() });
    expect(third.status()).toBe(200);
    const number = new URL(location, "http://x").searchParams.get("folio");
    expect(await third.json()).toEqual({ ok: true, number });

    expect(await storedSolicitudes(playwright, values.tag)).toEqual([{ id: expect.any(String), number }]);
  });

  test("the 6th stored request from one IP within 10 minutes gets 429 with a Spanish message", async ({ request, playwright }) => {
    // `request` sends this test's own fixed X-Forwarded-For on every call.
    const tag = quoteValues().tag;
    const tokens: string[] = [];
    for (let i = 0; i < 6; i++) tokens.push(await fetchFormToken(request, "/cotiza"));
    await new Promise((resolve) => setTimeout(resolve, 3_100));
    const numbers: string[] = [];
    for (let i = 0; i < 5; i++) {
      const response = await request.post("/cotiza", { multipart: quoteMultipart(quoteValues({ tag, name: `Ana Límite ${tag} ${i + 1}` }), tokens[i]), maxRedirects: 0 });
      expect(response.status(), `request ${i + 1}`).toBe(302);
      numbers.push(new URL(response.headers()["location"], "http://x").searchParams.get("folio")!);
    }
    expect(new Set(numbers).size).toBe(5);

    const sixth = await request.post("/cotiza", { multipart: quoteMultipart(quoteValues({ tag, name: `Ana Límite ${tag} 6` }), tokens[5]), maxRedirects: 0 });
    expect(sixth.status()).toBe(429);
    expect(Number(sixth.headers()["retry-after"])).toBeGreaterThan(0);
    const html = await sixth.text();
    const message = /Demasiados intentos desde su conexión\. Espere [^<]+ e inténtelo de nuevo\./.exec(html)?.[0];
    expect(message).toMatch(RATE_LIMITED);
    expect(html, "the typed values come back").toContain(`Ana Límite ${tag} 6`);

    // The JavaScript endpoint says the same, in JSON.
    const api = await request.post("/api/cotiza", { multipart: quoteMultipart(quoteValues({ tag }), tokens[5]) });
    expect(api.status()).toBe(429);
    expect((await api.json()).result.error[""][0]).toMatch(RATE_LIMITED);

    expect((await storedSolicitudes(playwright, tag)).map((row) => row.number).sort()).toEqual([...numbers].sort());
  });
});

test("the CSV export streams UTF-8 with a BOM and keeps accents (staff client)", async ({ request, playwright }) => {
  const values = quoteValues({ name: "Íñigo Ñandú Güemes", company: "Tornería «El Águila»" });
  const token = await fetchFormToken(request, "/cotiza");
  await new Promise((resolve) => setTimeout(resolve, 3_100));
  const posted = await request.post("/api/cotiza", { multipart: quoteMultipart(values, token) });
  expect(posted.status()).toBe(200);
  const { number } = (await posted.json()) as { number: string };
  const staff = await openStaffClient(playwright);
  try {
    const csv = await exportCsv(staff, number);
    expect(csv.contentType).toBe("text/csv; charset=utf-8");
    expect([...csv.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = parseCsv(csv.text);
    expect(rows[0].slice(0, 4)).toEqual(["Número", "Tipo", "Fecha (hora de la Ciudad de México)", "Estado"]);
    expect(rows).toHaveLength(2);
    expect(rows[1]).toEqual(expect.arrayContaining([number, "Íñigo Ñandú Güemes", "Tornería «El Águila»", values.description]));
  } finally {
    await staff.dispose();
  }
});

test("/cotiza/enviada offers «Crear mi cuenta» to a visitor and «Ver mis cotizaciones» to a signed-in customer", async ({ page }) => {
  const sent = `/cotiza/enviada?folio=SOL-${CURRENT_YEAR()}-0001`;
  const main = page.locator("main");
  await page.goto(sent);
  await waitForHydration(page);
  await expect(main.getByRole("link", { name: "Crear mi cuenta" })).toHaveAttribute("href", "/registro?redirectTo=%2Fquotes");
  await expect(main.getByRole("link", { name: "Ver mis cotizaciones" })).toHaveCount(0);

  // Signed in (this browser's own request context keeps the session cookie): no invitation to make an account.
  await createCustomer(page.context().request);
  const response = await page.goto(sent);
  expect(response?.status()).toBe(200);
  // In the HTML itself, before any JavaScript runs…
  const html = await response!.text();
  expect(html).not.toContain("Crear mi cuenta");
  expect(html).toContain("Ver mis cotizaciones");
  // …and after hydration.
  await waitForHydration(page);
  await expect(main.getByRole("link", { name: "Ver mis cotizaciones" })).toHaveAttribute("href", "/quotes");
  await expect(main.getByRole("link", { name: "Crear mi cuenta" })).toHaveCount(0);
  expect(await axeViolations(page)).toEqual([]);
  await main.getByRole("link", { name: "Ver mis cotizaciones" }).click();
  await expect(page).toHaveURL("/quotes");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Mis cotizaciones");
  // Nothing asked yet: no requests to show.
  await expect(page.getByRole("region", { name: "Solicitudes en proceso" })).toHaveCount(0);

  // A request sent while signed in is on /quotes at once, before any quote answers it.
  const request = page.context().request;
  const token = await fetchFormToken(request, "/cotiza");
  await page.waitForTimeout(3_100);
  const posted = await request.post("/cotiza", { multipart: quoteMultipart(quoteValues({ service: { value: "maquinado-cnc", label: "Maquinado CNC" } }), token), maxRedirects: 0 });
  expect(posted.status()).toBe(302);
  const folio = new URL(posted.headers()["location"]!, "http://x").searchParams.get("folio")!;
  await page.goto("/quotes");
  const waiting = page.getByRole("region", { name: "Solicitudes en proceso" });
  await expect(waiting.getByRole("listitem")).toHaveCount(1);
  await expect(waiting.getByRole("listitem")).toContainText(`Solicitud ${folio}`);
  await expect(waiting.getByRole("listitem")).toContainText("Maquinado CNC");
  await expect(waiting.getByRole("listitem")).toContainText("Recibida: la revisaremos en breve");
  await expect(main).not.toContainText("Aún no tiene cotizaciones");
  expect(await axeViolations(page)).toEqual([]);
});
