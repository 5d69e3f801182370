import type { APIRequestContext, Page } from "@playwright/test";
import { SESSION_COOKIE, SESSION_HINT_COOKIE, baseUrl, createCustomer, headerAccountLink } from "./support/accounts";
import { expect, test } from "./support/fixtures";
import { waitForHydration } from "./support/site";
import { CURRENT_YEAR, FOLIO, fillQuoteForm, quoteForm, quoteValues, waitFillTime } from "./support/solicitudes";

// Issue 13 §5 and §2 (docs/decisions/0031-cached-forms.md): /cotiza and /contact come from the page
// cache with one signed token for everyone in the hour, each browser adds its own nonce; and the
// header's account link is right in the HTML itself — per variant on cached pages, from the session
// on the others — never with anyone's data in a cached page.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const STALE_COOKIE = `${SESSION_COOKIE}=caducada.firma-falsa`;

const tokenIn = (html: string) => /name="formToken" value="([^"]+)"/.exec(html)?.[1];

/** The header's account links as the server wrote them (desktop and mobile menu). */
function accountLinksIn(html: string): { href: string; text: string }[] {
  return [...html.matchAll(/<a\b([^>]*data-testid="account-link"[^>]*)>([^<]*)<\/a>/g)].map(([, attributes, text]) => ({
    href: /href="([^"]*)"/.exec(attributes!)?.[1] ?? "",
    text: text!,
  }));
}

async function headerOf(request: APIRequestContext, path: string, cookie?: string) {
  const response = await request.get(path, { headers: cookie ? { cookie } : {} });
  expect(response.status(), path).toBe(200);
  const html = await response.text();
  const links = accountLinksIn(html);
  expect(links.length, `${path}: account link in the header`).toBeGreaterThan(0);
  return { html, links: [...new Set(links.map((link) => `${link.text} → ${link.href}`))], etag: response.headers()["etag"] };
}

async function submitQuote(page: Page) {
  await Promise.all([page.waitForURL(/\/cotiza\/enviada\?folio=SOL-/), quoteForm(page).submit.click()]);
  const heading = page.getByRole("heading", { level: 1 });
  await expect(heading).toHaveText(new RegExp(`^Recibimos su solicitud SOL-${CURRENT_YEAR()}-\\d{4,}$`));
  return FOLIO.exec((await heading.textContent()) ?? "")![0];
}

test("/cotiza and /contact come from the page cache: same HTML, ETag and token twice, a CSP with hashes", async ({ request }) => {
  for (const path of ["/cotiza", "/contact"]) {
    const first = await request.get(path);
    const second = await request.get(path);
    expect(first.status(), path).toBe(200);
    const etag = first.headers()["etag"];
    expect(etag, `${path}: ETag of the kept HTML`).toMatch(/^"[\w-]{27}"$/);
    expect(second.headers()["etag"]).toBe(etag);
    const html = await first.text();
    expect(await second.text()).toBe(html);
    expect(tokenIn(html), `${path}: a token in the cached HTML`).toMatch(/^(cotiza|contacto)\.[0-9a-z]+\.[\w-]+\.[\w-]+$/);
    // Inline scripts allowed by hash, as for every cached page; a nonce would differ per request.
    const csp = first.headers()["content-security-policy"] ?? "";
    expect(csp).toMatch(/script-src [^;]*'sha256-[\w+/=]+'/);
    expect(csp).not.toContain("'nonce-");
    expect(first.headers()["vary"]).toMatch(/\bcookie\b/i);
    expect((await request.get(path, { headers: { "if-none-match": etag! } })).status()).toBe(304);
  }
});

test("two visitors with the same cached token and their own nonces each get their request; without JavaScript too", async ({ newClient }) => {
  const visitors = await Promise.all([newClient(), newClient()]);
  const pages = await Promise.all(visitors.map((context) => context.newPage()));
  const tokens: string[] = [];
  const nonces: string[] = [];
  for (const page of pages) {
    expect((await page.goto("/cotiza"))?.status()).toBe(200);
    await waitForHydration(page);
    tokens.push(await page.locator('form#cotiza input[name="formToken"]').inputValue());
    const nonce = page.locator('form#cotiza input[name="formNonce"]');
    await expect(nonce).toHaveValue(UUID);
    nonces.push(await nonce.inputValue());
  }
  // The HTML is the cached one for both (same token); the nonce is each browser's own.
  expect(tokens[1]).toBe(tokens[0]);
  expect(nonces[1]).not.toBe(nonces[0]);
  // Kept for this form in this tab: a reload gives the same nonce.
  await pages[0]!.reload();
  await waitForHydration(pages[0]!);
  await expect(pages[0]!.locator('form#cotiza input[name="formNonce"]')).toHaveValue(nonces[0]!);

  const posted: string[] = [];
  pages[0]!.on("request", (request) => {
    if (request.method() === "POST" && new URL(request.url()).pathname === "/api/cotiza") posted.push(request.postData() ?? "");
  });
  const shownAt = Date.now();
  const values = pages.map(() => quoteValues({ nda: false }));
  for (const [index, page] of pages.entries()) await fillQuoteForm(page, values[index]!);
  await waitFillTime(pages[0]!, shownAt);
  const folios = [];
  for (const page of pages) folios.push(await submitQuote(page));
  expect(new Set(folios).size).toBe(2);
  // What the browser added: its nonce, and how long the form was open (past the 3 s a person needs).
  expect(posted).toHaveLength(1);
  expect(posted[0]).toContain(`name="formNonce"\r\n\r\n${nonces[0]}\r\n`);
  expect(Number(/name="formFillMs"\r\n\r\n(\d+)\r\n/.exec(posted[0]!)?.[1])).toBeGreaterThanOrEqual(3_000);
  // Sent: the next form in that tab is a new request, with a new nonce.
  await pages[0]!.goto("/cotiza");
  await waitForHydration(pages[0]!);
  await expect(pages[0]!.locator('form#cotiza input[name="formNonce"]')).toHaveValue(UUID);
  expect(await pages[0]!.locator('form#cotiza input[name="formNonce"]').inputValue()).not.toBe(nonces[0]);

  // A third visitor without JavaScript, with the same cached token and no nonce at all.
  const plain = await newClient({ javaScriptEnabled: false });
  const page = await plain.newPage();
  await page.goto("/cotiza");
  expect(await page.locator('form#cotiza input[name="formToken"]').inputValue()).toBe(tokens[0]);
  await expect(page.locator('form#cotiza input[name="formNonce"]')).toHaveValue("");
  const plainShownAt = Date.now();
  await fillQuoteForm(page, quoteValues({ nda: false }));
  await waitFillTime(page, plainShownAt);
  const plainFolio = await submitQuote(page);
  expect(folios).not.toContain(plainFolio);
});

test("the header says «Iniciar sesión» or «Mi cuenta» in the HTML itself, cached page or not, and never whose account", async ({ playwright, request, newClient }) => {
  const signedIn = await playwright.request.newContext({ baseURL: baseUrl() });
  try {
    const customer = await createCustomer(signedIn, { name: `Leticia Encabezado ${Date.now()}` });
    const state = await signedIn.storageState();
    const session = state.cookies.find((cookie) => cookie.name === SESSION_COOKIE);
    expect(session, "session cookie after sign-up").toBeDefined();
    const cookie = `${SESSION_COOKIE}=${session!.value}`;

    // "/" is cached for everyone (two variants), /cotiza/enviada is rendered per request.
    for (const path of ["/", "/cotiza/enviada"]) {
      const anonymous = await headerOf(request, path);
      expect(anonymous.links, `${path} anonymous`).toEqual(["Iniciar sesión → /login"]);
      const member = await headerOf(request, path, cookie);
      expect(member.links, `${path} signed in`).toEqual(["Mi cuenta → /cuenta"]);
      expect(member.html).not.toContain(customer.email);
      expect(member.html).not.toContain(customer.name);
    }
    // Cached: the two variants are two kept pages, each with its own ETag.
    const [anonymousHome, memberHome] = [await headerOf(request, "/"), await headerOf(request, "/", cookie)];
    expect(anonymousHome.etag).toMatch(/^"[\w-]{27}"$/);
    expect(memberHome.etag).toMatch(/^"[\w-]{27}"$/);
    expect(memberHome.etag).not.toBe(anonymousHome.etag);
    expect((await headerOf(request, "/", "otra=1")).etag).toBe(anonymousHome.etag);

    // A stale session cookie: the page rendered per request knows it at once; the cached one
    // says "Mi cuenta" (the cookie is there) and JavaScript corrects it.
    expect((await headerOf(request, "/cotiza/enviada", STALE_COOKIE)).links).toEqual(["Iniciar sesión → /login"]);
    expect((await headerOf(request, "/", STALE_COOKIE)).links).toEqual(["Mi cuenta → /cuenta"]);
    const stale = await newClient();
    await stale.addCookies([
      { name: SESSION_COOKIE, value: "caducada.firma-falsa", url: baseUrl(), httpOnly: true, sameSite: "Lax" },
      { name: SESSION_HINT_COOKIE, value: "1", url: baseUrl(), sameSite: "Lax" },
    ]);
    const stalePage = await stale.newPage();
    expect((await stalePage.goto("/"))?.status()).toBe(200);
    await waitForHydration(stalePage);
    await expect(headerAccountLink(stalePage)).toHaveText("Iniciar sesión");
    await expect(headerAccountLink(stalePage)).toHaveAttribute("href", "/login");
    await expect(stalePage.locator("h1")).toBeVisible();

    // Signed in, in the browser: "Mi cuenta" from the first paint and after hydration (no width
    // change); the name only in the tooltip.
    const browser = await newClient();
    await browser.addCookies(state.cookies);
    const page = await browser.newPage();
    await page.goto("/servicios");
    await waitForHydration(page);
    await expect(headerAccountLink(page)).toHaveAttribute("data-state", "signed-in");
    await expect(headerAccountLink(page)).toHaveText("Mi cuenta");
    await expect(headerAccountLink(page)).toHaveAttribute("title", `Sesión iniciada como ${customer.name}`);
  } finally {
    await signedIn.dispose();
  }
});

test("a signed-in customer finds their details filled in on the cached /cotiza and /contact, never over what they typed; a visitor finds the fields empty", async ({ newClient }) => {
  const browser = await newClient();
  const customer = await createCustomer(browser.request, { name: `Rosa Prellenado ${Date.now()}`, company: "Moldes del Bajío", phone: "4427654321" });
  const page = await browser.newPage();

  // The HTML is the cached one (nobody's data in it); the browser fills the fields after hydration.
  const response = await page.goto("/cotiza");
  expect(response?.status()).toBe(200);
  expect(await response!.text()).not.toContain(customer.email);
  await waitForHydration(page);
  const quote = quoteForm(page);
  await expect(quote.name).toHaveValue(customer.name);
  await expect(quote.email).toHaveValue(customer.email);
  await expect(quote.company).toHaveValue(customer.company!);
  await expect(quote.phone).toHaveValue(customer.phone!);

  await page.goto("/contact");
  await waitForHydration(page);
  const contact = page.locator("form#contacto");
  await expect(contact.getByLabel("Nombre", { exact: true })).toHaveValue(customer.name);
  await expect(contact.getByLabel("Correo electrónico")).toHaveValue(customer.email);
  await expect(contact.getByLabel("Teléfono")).toHaveValue(customer.phone!);

  // What the visitor writes before the details arrive stays: hold the answer until they typed.
  const typing = await browser.newPage();
  let release!: () => void;
  const typed = new Promise<void>((resolve) => (release = resolve));
  let asked = 0;
  await typing.route(/\/api\/users\/me(\?|$)/, async (route) => {
    asked += 1;
    await typed;
    await route.continue();
  });
  await typing.goto("/cotiza");
  await waitForHydration(typing);
  const held = quoteForm(typing);
  await held.name.fill("Ingeniero Que Escribe Primero");
  await held.phone.fill("4420001122");
  expect(asked, "the details were asked for and are still on their way").toBe(1);
  release();
  await expect(held.email).toHaveValue(customer.email);
  await expect(held.company).toHaveValue(customer.company!);
  await expect(held.name).toHaveValue("Ingeniero Que Escribe Primero");
  await expect(held.phone).toHaveValue("4420001122");

  // A visitor without an account: nothing to ask, nothing filled.
  const visitor = await (await newClient()).newPage();
  const calls: string[] = [];
  visitor.on("request", (request) => {
    if (new URL(request.url()).pathname === "/api/users/me") calls.push(request.url());
  });
  await visitor.goto("/cotiza");
  await waitForHydration(visitor);
  await visitor.waitForLoadState("networkidle");
  const empty = quoteForm(visitor);
  for (const field of [empty.name, empty.email, empty.company, empty.phone]) await expect(field).toHaveValue("");
  expect(calls).toEqual([]);
});
