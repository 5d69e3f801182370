import { gzipSync } from "node:zlib";
import type { APIRequestContext, BrowserContext, Page } from "@playwright/test";
import { baseUrl, uniqueEmail } from "./support/accounts";
import { clientHeaders, expect, test } from "./support/fixtures";
import { addToCartApi, createProduct, openStaffApi, placeOrderApi } from "./support/shop";
import { acceptForm, createConfirmedCustomer, sampleQuote, staffCreateQuote, staffSaveDraft, type StaffQuote } from "./support/quotes";
import { trackDocumentRequests, waitForHydration } from "./support/site";
import {
  FOLIO,
  fetchFormToken,
  fillQuoteForm,
  MIN_FILL_WAIT_MS,
  openStaffClient,
  quoteForm,
  quoteMultipart,
  quoteValues,
  signInStaffContext,
  waitFillTime,
} from "./support/solicitudes";

// Issue 11 §2: pages that update by themselves (docs/decisions/0021). Two browsers at once: one
// watches a live page, the other (or an API client) changes something; the change must show up
// without a reload, and what the watcher is typing must survive it. The public pages must not
// download the realtime client, and the first visit's JavaScript stays within its budget.

/** Text only the `pocketbase` SDK's realtime client carries (its connect event's name). */
const SDK_MARK = "PB_CONNECT";

/**
 * Resolves when the page's realtime client has posted a subscription set that holds every one of
 * `topics` and the server accepted it: from then on, events for them reach the page.
 */
function subscribed(page: Page, topics: string[]) {
  return page.waitForResponse(
    (response) => {
      const request = response.request();
      if (request.method() !== "POST" || new URL(response.url()).pathname !== "/api/realtime") return false;
      const sent = JSON.parse(request.postData() ?? "{}") as { subscriptions?: string[] };
      return response.status() === 204 && topics.every((topic) => sent.subscriptions?.includes(topic));
    },
    { timeout: 20_000 },
  );
}

/** Opens `path` in `page` and waits until it is hydrated and subscribed to `topics`. */
async function openLive(page: Page, path: string, topics: string[]): Promise<void> {
  const ready = subscribed(page, topics);
  await page.goto(path);
  await waitForHydration(page);
  await ready;
}

async function staffPage(newClient: () => Promise<BrowserContext>): Promise<Page> {
  const context = await newClient();
  await signInStaffContext(context);
  return context.newPage();
}

/** A request sent to /api/cotiza as a visitor's script would: its folio. */
async function sendSolicitudApi(request: APIRequestContext): Promise<string> {
  const token = await fetchFormToken(request, "/cotiza");
  await new Promise((resolve) => setTimeout(resolve, MIN_FILL_WAIT_MS));
  const posted = await request.post("/api/cotiza", { multipart: quoteMultipart(quoteValues(), token) });
  expect(posted.status()).toBe(200);
  return ((await posted.json()) as { number: string }).number;
}

/** Every JavaScript file the page downloads, with its text. */
function scriptsOf(page: Page): { url: string; text: Promise<string> }[] {
  const scripts: { url: string; text: Promise<string> }[] = [];
  page.on("response", (response) => {
    if (response.request().resourceType() !== "script" && !response.url().endsWith(".js")) return;
    scripts.push({ url: response.url(), text: response.text().catch(() => "") });
  });
  return scripts;
}

async function loadedSdk(scripts: { url: string; text: Promise<string> }[]): Promise<string[]> {
  const found: string[] = [];
  for (const script of scripts) if ((await script.text).includes(SDK_MARK)) found.push(new URL(script.url).pathname);
  return found;
}

test.describe("live staff pages", () => {
  test("/admin/formularios: a request sent at /cotiza appears with a notice naming its folio, without a reload", async ({ page, newClient }) => {
    test.setTimeout(90_000);
    const staff = await staffPage(newClient);
    const documents = trackDocumentRequests(staff);
    await openLive(staff, "/admin/formularios", ["solicitudes/*"]);
    const summary = staff.locator("main h1 + p");
    const summaryBefore = await summary.textContent();
    // A search being typed (not sent yet) must survive the update.
    const search = staff.locator("#filtro-q");
    await search.fill("Querét");

    // A visitor, in another browser, sends the quote form.
    await page.goto("/cotiza");
    await waitForHydration(page);
    const shownAt = Date.now();
    await fillQuoteForm(page, quoteValues());
    await waitFillTime(page, shownAt);
    await quoteForm(page).submit.click();
    await page.waitForURL(/\/cotiza\/enviada\?folio=SOL-/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(new RegExp(`^Recibimos su solicitud ${FOLIO.source}$`));
    const folio = FOLIO.exec((await page.getByRole("heading", { level: 1 }).textContent()) ?? "")![0];

    // The notice, in a polite live region, names it and links to it; the row and the count follow.
    const notice = staff.getByRole("status").filter({ hasText: `Nueva solicitud ${folio}` });
    await expect(notice).toBeVisible();
    await expect(notice.getByRole("link", { name: folio })).toHaveAttribute("href", /^\/admin\/formularios\/[0-9a-f-]{36}$/);
    await expect(staff.locator("main table tbody tr").filter({ hasText: folio })).toBeVisible();
    await expect(summary).not.toHaveText(summaryBefore ?? "");
    await expect(search).toHaveValue("Querét");
    expect(documents, "no page load after the first").toHaveLength(1);
  });

  test("/admin: a new request moves the unread figure and the latest list, with its notice", async ({ request, newClient }) => {
    test.setTimeout(60_000);
    const staff = await staffPage(newClient);
    const documents = trackDocumentRequests(staff);
    await openLive(staff, "/admin", ["solicitudes/*"]);
    const unread = staff.locator("xpath=//dt[normalize-space()='Sin leer']/following-sibling::dd[1]");
    const unreadBefore = Number((await unread.textContent())?.replace(/\D/g, ""));

    const folio = await sendSolicitudApi(request);
    await expect(staff.getByRole("status").filter({ hasText: `Nueva solicitud ${folio}` })).toBeVisible();
    await expect(staff.getByRole("link", { name: folio }).first()).toBeVisible();
    await expect.poll(async () => Number((await unread.textContent())?.replace(/\D/g, ""))).toBeGreaterThan(unreadBefore);
    expect(documents).toHaveLength(1);
  });

  test("before the short token expires the page gets a new one and subscribes again with it; events keep coming", async ({ request, newClient }) => {
    test.setTimeout(60_000);
    const staff = await staffPage(newClient);
    // The page's clock runs fast on demand (the server's does not): 13 minutes pass in an instant.
    await staff.clock.install();
    await openLive(staff, "/admin/formularios", ["solicitudes/*"]);
    const tokenAgain = staff.waitForResponse((response) => new URL(response.url()).pathname === "/cuenta/tiempo-real" && response.status() === 200);
    const resubscribed = subscribed(staff, ["solicitudes/*"]);
    await staff.clock.fastForward("13:00");
    const renewed = await tokenAgain;
    const sent = await resubscribed;
    // The subscriptions went out again under the new token.
    expect(await sent.request().headerValue("authorization")).toBe(((await renewed.json()) as { token: string }).token);

    const folio = await sendSolicitudApi(request);
    await expect(staff.getByRole("status").filter({ hasText: `Nueva solicitud ${folio}` })).toBeVisible();
  });

  test("/admin/pedidos: an order placed at /checkout appears with a notice naming it", async ({ playwright, newClient }) => {
    test.setTimeout(60_000);
    const shop = await openStaffApi(playwright);
    const buyer = await playwright.request.newContext({ baseURL: baseUrl(), extraHTTPHeaders: clientHeaders(), maxRedirects: 0 });
    try {
      const product = await createProduct(shop, { label: "Brida en vivo", stock: 10 });
      const staff = await staffPage(newClient);
      const documents = trackDocumentRequests(staff);
      await openLive(staff, "/admin/pedidos", ["pedidos/*"]);

      await addToCartApi(buyer, product.id, 2);
      const number = await placeOrderApi(buyer, { name: "Óscar Comprador", email: uniqueEmail("vivo"), phone: "4421112233", delivery: "recoger", paymentMethod: "recoger" });

      const notice = staff.getByRole("status").filter({ hasText: `Pedido nuevo ${number}` });
      await expect(notice).toBeVisible();
      await expect(notice.getByRole("link", { name: number })).toHaveAttribute("href", /^\/admin\/pedidos\/[0-9a-f-]{36}$/);
      await expect(staff.locator("main table tbody tr").filter({ hasText: number })).toBeVisible();
      expect(documents).toHaveLength(1);
    } finally {
      await buyer.dispose();
      await shop.dispose();
    }
  });
});

test.describe("a quote seen live by both sides", () => {
  let staffApi: APIRequestContext;

  test.beforeEach(async ({ playwright }) => {
    staffApi = await openStaffClient(playwright);
  });

  test.afterEach(async () => {
    await staffApi.dispose();
  });

  async function customerWithQuote(newClient: () => Promise<BrowserContext>): Promise<{ context: BrowserContext; quote: StaffQuote; values: ReturnType<typeof sampleQuote> }> {
    const context = await newClient();
    const customer = await createConfirmedCustomer(context.request);
    const values = sampleQuote(customer);
    const quote = await staffCreateQuote(staffApi, values);
    return { context, quote, values };
  }

  test("/quotes/{id}: a staff message and a new revision arrive while the customer types, and the draft survives", async ({ newClient }) => {
    test.setTimeout(120_000);
    const { context, quote, values } = await customerWithQuote(newClient);
    const page = await context.newPage();
    const documents = trackDocumentRequests(page);
    await openLive(page, `/quotes/${quote.id}`, [`cotizaciones/${quote.id}`, "mensajes/*"]);

    const textarea = page.getByLabel("Escriba su mensaje");
    const draft = "Borrador a medias: ¿podrían entregar la mitad el día 15 y el resto";
    await textarea.fill(draft);

    // Staff answer from the panel.
    const reply = `Sí, podemos dividir la entrega (${Date.now()}).`;
    const sent = await staffApi.post(`/admin/cotizaciones/${quote.id}`, { headers: { origin: baseUrl() }, form: { intent: "mensaje", body: reply } });
    expect(sent.status()).toBe(200);
    await expect(page.locator("#mensajes").getByText(reply)).toBeVisible();
    await expect(page.getByRole("status").filter({ hasText: "Mensaje nuevo del equipo de Forja." })).toBeVisible();
    await expect(textarea).toHaveValue(draft);
    await expect(textarea).toBeFocused();

    // The customer starts signing revision 1…
    const signing = acceptForm(page);
    await signing.fullName.fill("Renata Olvera Guzmán");
    await signing.terms.check();

    // …and staff send a second revision: its number and a notice show up; the drafts are still there.
    const revised = await staffApi.post(`/admin/cotizaciones/${quote.id}`, { headers: { origin: baseUrl() }, form: { intent: "revisar" } });
    expect(revised.status()).toBe(200);
    await staffSaveDraft(staffApi, quote.id, { ...values, leadTimeDays: "9" }, "enviar");
    await expect(page.getByText(/^Revisión 2, enviada el/)).toBeVisible();
    await expect(page.getByRole("status").filter({ hasText: "Forja le envió la revisión 2 de esta cotización." })).toBeVisible();
    // The signature stays; the box that said "revisión 1" starts unticked for revision 2.
    await expect(signing.terms).toHaveAccessibleName(/\(revisión 2\)/);
    await expect(signing.terms).not.toBeChecked();
    await expect(signing.fullName).toHaveValue("Renata Olvera Guzmán");
    await expect(textarea).toHaveValue(draft);
    expect(documents, "no page load after the first").toHaveLength(1);

    // Sending it still empties the form afterwards, and the message shows in the thread.
    await textarea.fill(`${draft} de la próxima semana?`);
    await page.getByRole("button", { name: "Enviar mensaje" }).click();
    await expect(page.locator("#mensajes").getByText(`${draft} de la próxima semana?`)).toBeVisible();
    await expect(textarea).toHaveValue("");
  });

  test("/quotes: the list follows a quote's status", async ({ newClient }) => {
    test.setTimeout(90_000);
    const { context, quote } = await customerWithQuote(newClient);
    const page = await context.newPage();
    await openLive(page, "/quotes", ["cotizaciones/*"]);
    const row = page.getByRole("row").filter({ hasText: quote.number });
    await expect(row).toContainText("Enviada");

    const cancelled = await staffApi.post(`/admin/cotizaciones/${quote.id}`, { headers: { origin: baseUrl() }, form: { intent: "cancelar" } });
    expect(cancelled.status()).toBe(200);
    await expect(row).toContainText("Cancelada");
  });

  test("/admin/cotizaciones/{id}: the customer's message and acceptance arrive; the staff reply and the open builder keep what is typed", async ({ newClient }) => {
    test.setTimeout(120_000);
    const { context, quote } = await customerWithQuote(newClient);
    // A second revision in the making: the builder is open on the staff page.
    const revised = await staffApi.post(`/admin/cotizaciones/${quote.id}`, { headers: { origin: baseUrl() }, form: { intent: "revisar" } });
    expect(revised.status()).toBe(200);

    const staff = await staffPage(newClient);
    const documents = trackDocumentRequests(staff);
    await openLive(staff, `/admin/cotizaciones/${quote.id}`, [`cotizaciones/${quote.id}`, "mensajes/*"]);
    const terms = staff.locator("textarea[name=terms]");
    const termsText = "Condiciones que el personal está redactando: 60 % de anticipo.";
    await terms.fill(termsText);
    const replyBox = staff.getByLabel("Responder al cliente");
    const replyDraft = "Gracias por su mensaje; le confirmo en cuanto";
    await replyBox.fill(replyDraft);

    // The customer writes from their page (their browser's session).
    const question = `¿Incluye el tratamiento térmico? (${Date.now()})`;
    const asked = await context.request.post(`/quotes/${quote.id}`, { headers: { origin: baseUrl() }, form: { intent: "mensaje", body: question }, maxRedirects: 0 });
    expect(asked.status()).toBe(302);
    await expect(staff.getByText(question)).toBeVisible();
    await expect(staff.getByRole("status").filter({ hasText: "Mensaje nuevo de" })).toBeVisible();
    await expect(replyBox).toHaveValue(replyDraft);
    await expect(terms).toHaveValue(termsText);

    // …and accepts the revision they were sent.
    const signature = "Renata Olvera Guzmán";
    const accepted = await context.request.post(`/quotes/${quote.id}`, {
      headers: { origin: baseUrl() },
      form: { intent: "aceptar", fullName: signature, terms: "on", revision: "1" },
      maxRedirects: 0,
    });
    expect(accepted.status()).toBe(302);
    await expect(staff.getByRole("heading", { name: "Aceptación del cliente" })).toBeVisible();
    await expect(staff.getByRole("status").filter({ hasText: "El cliente aceptó la cotización." })).toBeVisible();
    await expect(staff.getByText(signature, { exact: true })).toBeVisible();
    await expect(replyBox).toHaveValue(replyDraft);
    expect(documents, "no page load after the first").toHaveLength(1);
  });
});

test.describe("what the public pages download", () => {
  test("/ and /catalogo never load the realtime client; a live page does", async ({ page, newClient }) => {
    const scripts = scriptsOf(page);
    for (const path of ["/", "/catalogo"]) {
      await page.goto(path);
      await waitForHydration(page);
      await page.waitForLoadState("networkidle");
    }
    expect(scripts.length, "the public pages load JavaScript").toBeGreaterThan(0);
    expect(await loadedSdk(scripts)).toEqual([]);

    // The same check sees the SDK where it belongs, so it can fail.
    const staff = await staffPage(newClient);
    const staffScripts = scriptsOf(staff);
    await openLive(staff, "/admin/formularios", ["solicitudes/*"]);
    expect(await loadedSdk(staffScripts)).toHaveLength(1);
  });

  test("the first visit to / stays within 128 KB of JavaScript (gzip), as the bench measures it", async ({ request }) => {
    const html = await (await request.get("/")).text();
    const sources = new Set<string>();
    for (const match of html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="([^"]+\.js)"/g)) sources.add(match[1]!);
    for (const match of html.matchAll(/import\(?\s*"([^"]+\.js)"/g)) sources.add(match[1]!);
    expect(sources.size).toBeGreaterThan(0);
    let gzip = 0;
    for (const source of sources) {
      const body = await (await request.get(new URL(source, baseUrl()).pathname)).body();
      expect(body.toString("utf8"), `${source} is not the realtime client`).not.toContain(SDK_MARK);
      gzip += gzipSync(body, { level: 9 }).length;
    }
    expect(gzip, `${sources.size} files, ${(gzip / 1024).toFixed(1)} KB gzip`).toBeLessThanOrEqual(128 * 1024);
  });
});
