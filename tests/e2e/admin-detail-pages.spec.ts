import type { APIRequestContext, Page, PlaywrightWorkerArgs } from "@playwright/test";
import { baseUrl, uniqueEmail, uniqueToken } from "./support/accounts";
import { axeViolations } from "./support/axe";
import { clientHeaders, expect, test } from "./support/fixtures";
import { waitForMail } from "./support/mail";
import { QUOTE_NUMBER, UUID } from "./support/quotes";
import { addToCartApi, createProduct, findOrders, openStaffApi, placeOrderApi, signInStaffBrowser } from "./support/shop";
import { waitForHydration } from "./support/site";
import { fetchFormToken, findSolicitudes, MIN_FILL_WAIT_MS, openStaffClient, quoteMultipart, quoteValues, signInStaffContext } from "./support/solicitudes";

// The staff detail pages in a real browser: an order's note for the customer goes with one status
// change only; a request that already has a quote links to it; an empty internal note is refused
// beside its field; the quote builder confirms a save beside its buttons and a save without changes
// adds no history entry; /admin/formularios counts «solicitudes» and says when the dates are reversed.

const SAVED_NOTICE = "Borrador guardado. Los totales son los que calculó el servidor.";
const UNCHANGED_NOTICE = "No había cambios: el borrador ya estaba guardado.";

/** A quote request sent to /api/cotiza from its own client, as the form would; found by its tag. */
async function sendQuoteRequest(playwright: PlaywrightWorkerArgs["playwright"], staffApi: APIRequestContext) {
  const visitor = await playwright.request.newContext({ baseURL: baseUrl(), extraHTTPHeaders: clientHeaders(), maxRedirects: 0 });
  try {
    const values = quoteValues();
    const token = await fetchFormToken(visitor, "/cotiza");
    await new Promise((resolve) => setTimeout(resolve, MIN_FILL_WAIT_MS));
    const sent = await visitor.post("/api/cotiza", { multipart: quoteMultipart(values, token) });
    expect(sent.status(), await sent.text()).toBe(200);
    const [solicitud] = await findSolicitudes(staffApi, values.tag);
    expect(solicitud, "the request is listed").toBeTruthy();
    return { values, solicitud: solicitud! };
  } finally {
    await visitor.dispose();
  }
}

function builderForm(page: Page) {
  return page.locator("form").filter({ has: page.getByRole("button", { name: "Guardar borrador", exact: true }) });
}

test("/admin/pedidos/{id}: after a status change the note box is empty, so the next status (and its email) goes without it", async ({ playwright, newClient }) => {
  test.slow(); // an order placed through /checkout, two status changes and three emails
  const staffApi = await openStaffApi(playwright);
  const buyer = await playwright.request.newContext({ baseURL: baseUrl(), extraHTTPHeaders: clientHeaders(), maxRedirects: 0 });
  try {
    const product = await createProduct(staffApi, { label: "Nota del pedido", netCentavos: 45_000, stock: 10 });
    await addToCartApi(buyer, product.id, 1);
    const email = uniqueEmail("nota-pedido");
    const number = await placeOrderApi(buyer, { name: "Nora Notas", email, phone: "4421234567", delivery: "recoger", paymentMethod: "spei" });
    const [order] = await findOrders(staffApi, number);
    expect(order?.number).toBe(number);

    const context = await newClient();
    await signInStaffBrowser(context);
    const page = await context.newPage();
    await page.goto(`/admin/pedidos/${order!.id}`);
    await waitForHydration(page);
    const note = page.getByLabel("Nota para el cliente");
    const history = page.getByRole("region", { name: "Historial", exact: true });
    const text = `Recibimos su transferencia; folio bancario ${uniqueToken()}.`;

    await note.fill(text);
    await page.getByRole("button", { name: "Marcar como «Pagado»" }).click();
    await expect(page.locator("main").getByRole("status")).toHaveText(`El pedido ${number} pasó a «Pagado». Avisamos al cliente por correo.`);
    await expect(history).toContainText("Pendiente de pago → Pagado");
    await expect(history.getByText(text)).toHaveCount(1);
    await expect(note).toHaveValue("");

    // The next change, without touching the box: no note in its entry or its email.
    await page.getByRole("button", { name: "Marcar como «En preparación»" }).click();
    await expect(page.locator("main").getByRole("status")).toHaveText(`El pedido ${number} pasó a «En preparación». Avisamos al cliente por correo.`);
    await expect(history).toContainText("Pagado → En preparación");
    await expect(history.getByText(text)).toHaveCount(1);
    await expect(note).toHaveValue("");

    const [paid] = await waitForMail(email, { subject: new RegExp(`^Pedido ${number}: Pagado$`) });
    expect(paid.text).toContain(`Nota de nuestro equipo: ${text}`);
    const [preparing] = await waitForMail(email, { subject: new RegExp(`^Pedido ${number}: En preparación$`) });
    expect(preparing.text).not.toContain(text);
    expect(preparing.text).not.toContain("Nota de nuestro equipo");
  } finally {
    await buyer.dispose();
    await staffApi.dispose();
  }
});

test("a request's page: an empty internal note is refused beside its field; once quoted, it links to the quote; the builder confirms each save beside its buttons", async ({
  playwright,
  newClient,
}) => {
  test.slow(); // the request's minimum fill time, a quote and several saves
  const staffApi = await openStaffClient(playwright);
  try {
    const { solicitud } = await sendQuoteRequest(playwright, staffApi);
    const context = await newClient();
    await signInStaffContext(context);
    const page = await context.newPage();
    await page.goto(`/admin/formularios/${solicitud.id}`);
    await waitForHydration(page);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(solicitud.number);

    // «Guardar nota» with nothing written: a Spanish error tied to the field; nothing is added.
    const history = page.getByRole("region", { name: "Historial", exact: true });
    const entries = await history.locator("li").count();
    const noteField = page.getByLabel("Nota para el equipo");
    await page.getByRole("button", { name: "Guardar nota" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Escriba la nota antes de guardarla." })).toBeVisible();
    await expect(noteField).toHaveAttribute("aria-invalid", "true");
    await expect(noteField).toHaveAccessibleDescription(/Escriba la nota antes de guardarla\./);
    await expect(history.locator("li")).toHaveCount(entries);
    // The rest of the page is as it was: the status form and the quote panel are still offered.
    await expect(page.getByRole("button", { name: "Cambiar estado" })).toBeVisible();
    const quotePanel = page.getByRole("region", { name: "Cotización", exact: true });
    await expect(quotePanel).toContainText("Crea un borrador con el cliente y la descripción de esta solicitud");
    expect(await axeViolations(page), "axe on the refused note").toEqual([]);

    // The first quote.
    await quotePanel.getByRole("button", { name: "Crear cotización" }).click();
    await page.waitForURL(new RegExp(`/admin/cotizaciones/${UUID.source}$`));
    const quoteId = UUID.exec(new URL(page.url()).pathname)![0];
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(new RegExp(`^${QUOTE_NUMBER.source}$`));
    const number = QUOTE_NUMBER.exec((await page.getByRole("heading", { level: 1 }).textContent()) ?? "")![0];
    await waitForHydration(page);

    // «Guardar borrador»: the confirmation is a status message beside the buttons, and it stays
    // after the page's live data reload (saving changes the quote's record, which reloads it).
    await page.getByLabel("Precio unitario (MXN, antes de IVA) de la partida 1").fill("1250.50");
    await page.getByRole("button", { name: "Guardar borrador", exact: true }).click();
    const builderStatus = builderForm(page).getByRole("status");
    await expect(builderStatus).toHaveText(SAVED_NOTICE);
    const quoteHistory = page.getByRole("region", { name: "Historial", exact: true });
    const saves = quoteHistory.locator("li").filter({ hasText: "Borrador guardado (revisión 1)" });
    await expect(saves).toHaveCount(1);
    await page.waitForTimeout(2_000);
    await expect(builderStatus).toHaveText(SAVED_NOTICE);

    // Again with nothing changed: said so, and no second identical entry in the history.
    await page.getByRole("button", { name: "Guardar borrador", exact: true }).click();
    await expect(builderStatus).toHaveText(UNCHANGED_NOTICE);
    await expect(saves).toHaveCount(1);
    await page.reload();
    await expect(saves).toHaveCount(1);

    // Back on the request: the quote is linked with its status, and no second one is offered.
    await page.goto(`/admin/formularios/${solicitud.id}`);
    await waitForHydration(page);
    const panel = page.getByRole("region", { name: "Cotización", exact: true });
    await expect(panel).toContainText("Esta solicitud ya tiene una cotización");
    await expect(panel.getByRole("link", { name: `${number} · Borrador` })).toHaveAttribute("href", `/admin/cotizaciones/${quoteId}`);
    await expect(panel).not.toContainText("Crea un borrador");
    await expect(panel.getByRole("button")).toHaveCount(0);
    expect(await axeViolations(page), "axe on a request with its quote").toEqual([]);
    await panel.getByRole("link", { name: `${number} · Borrador` }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/cotizaciones/${quoteId}$`));
  } finally {
    await staffApi.dispose();
  }
});

test("/admin/formularios counts «solicitudes» and says when «Desde» is after «Hasta»", async ({ playwright, newClient }) => {
  test.slow(); // the request's minimum fill time
  const staffApi = await openStaffClient(playwright);
  try {
    const { values } = await sendQuoteRequest(playwright, staffApi);
    const context = await newClient();
    await signInStaffContext(context);
    const page = await context.newPage();
    const summary = page.locator("main h1 + p");

    await page.goto(`/admin/formularios?q=${values.tag}`);
    await expect(summary).toHaveText("1 solicitud con estos filtros; mostrando 1–1.");
    await page.goto(`/admin/formularios?q=sin-coincidencias-${uniqueToken()}`);
    await expect(summary).toHaveText("Ninguna solicitud.");
    await expect(page.locator("main")).toContainText("Ninguna solicitud coincide con estos filtros.");

    await page.goto(`/admin/formularios?q=${values.tag}&desde=2026-03-12&hasta=2026-03-01`);
    await waitForHydration(page);
    await expect(summary).toHaveText("Ninguna solicitud: las fechas están invertidas.");
    const reversed = page.getByTestId("fechas-invertidas");
    await expect(reversed).toContainText("La fecha «Desde» (12/03/2026) es posterior a «Hasta» (01/03/2026), así que ninguna solicitud puede coincidir.");
    await expect(page.locator("main")).not.toContainText("Ninguna solicitud coincide con estos filtros.");
    expect(await axeViolations(page), "axe with reversed dates").toEqual([]);
    await reversed.getByRole("link", { name: "Intercambiar las fechas" }).click();
    await expect(page).toHaveURL(/[?&]desde=2026-03-01&hasta=2026-03-12/);
    await expect(page.getByLabel("Desde")).toHaveValue("2026-03-01");
    await expect(page.getByLabel("Hasta")).toHaveValue("2026-03-12");
    await expect(page.getByTestId("fechas-invertidas")).toHaveCount(0);
  } finally {
    await staffApi.dispose();
  }
});
