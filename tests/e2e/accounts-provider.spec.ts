import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { OIDC, baseUrl, createCustomer, currentUser, signInWithForm, uniqueEmail, uniqueToken, useOidcIdentity } from "./support/accounts";
import { waitForHydration } from "./support/site";

// Issue 3 §2, provider sign-in, end to end against the OpenID Connect test server that global-setup
// started (oauth2-mock-server on loopback). Each test picks the identity the provider returns.

function providerButton(page: Page) {
  return page.getByRole("link", { name: `Continuar con ${OIDC.name}` });
}

function providersSection(page: Page) {
  return page.getByRole("region", { name: "Inicio de sesión con proveedores" });
}

function newIdentity(label: string) {
  return { email: uniqueEmail(label), name: `Olga ${label} ${uniqueToken()}` };
}

interface OpenCall {
  url: string;
  features: string;
  opener: { screenX: number; screenY: number; outerWidth: number; outerHeight: number };
}

test.describe("provider sign-in (OpenID Connect)", () => {
  test("with JavaScript: a centred popup of at most 1024×768 signs in and the opener ends signed in", async ({ page, context }) => {
    const identity = newIdentity("popup");
    await useOidcIdentity(context, identity);
    // Record how the page asks for the popup (the call still goes to the real window.open). The record
    // goes straight to the test through a binding: the popup can finish and send the opener on to
    // /cuenta before the test would get to read anything kept in the page.
    const openCalls: OpenCall[] = [];
    await page.exposeFunction("__recordOpen", (call: OpenCall) => {
      openCalls.push(call);
    });
    await page.addInitScript(() => {
      const original = window.open.bind(window);
      window.open = (url?: string | URL, target?: string, features?: string) => {
        void (window as unknown as { __recordOpen: (call: unknown) => Promise<void> }).__recordOpen({
          url: String(url),
          features: features ?? "",
          opener: { screenX: window.screenX, screenY: window.screenY, outerWidth: window.outerWidth, outerHeight: window.outerHeight },
        });
        return original(url, target, features);
      };
    });
    await page.goto("/login");
    await waitForHydration(page);

    const popupEvent = page.waitForEvent("popup");
    await providerButton(page).click();
    const popup = await popupEvent;
    const closed = popup.waitForEvent("close");
    const viewport = popup.viewportSize();
    expect(viewport, "the popup's window size").not.toBeNull();
    expect(viewport!.width).toBeLessThanOrEqual(1024);
    expect(viewport!.height).toBeLessThanOrEqual(768);

    await expect.poll(() => openCalls.length, { message: "window.open was called once" }).toBe(1);
    const [call] = openCalls;
    expect(new URL(call.url).pathname).toBe("/connect/oidc");
    expect(new URL(call.url).searchParams.get("popup")).toBe("1");
    const features = Object.fromEntries(call.features.split(",").map((pair) => pair.split("=").map((part) => part.trim())));
    const width = Number(features.width);
    const height = Number(features.height);
    expect(width).toBeGreaterThan(0);
    expect(width).toBeLessThanOrEqual(1024);
    expect(height).toBeGreaterThan(0);
    expect(height).toBeLessThanOrEqual(768);
    // Centred on the opener window.
    expect(Math.abs(Number(features.left) - Math.max(0, call.opener.screenX + (call.opener.outerWidth - width) / 2))).toBeLessThanOrEqual(1);
    expect(Math.abs(Number(features.top) - Math.max(0, call.opener.screenY + (call.opener.outerHeight - height) / 2))).toBeLessThanOrEqual(1);

    // The popup completes the sign-in, tells the opener and closes itself.
    await closed;
    await expect(page).toHaveURL(`${new URL(baseUrl()).origin}/cuenta`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Hola, ${identity.name}`);
    expect(await currentUser(context.request)).toMatchObject({ email: identity.email, name: identity.name });
    // The link is stored: the account page shows the provider as linked.
    await expect(providersSection(page)).toContainText(OIDC.name);
    await expect(providersSection(page).getByText("Vinculado")).toBeVisible();
    // Provider accounts are confirmed by the provider (email_verified).
    await expect(page.getByRole("region", { name: "Correo electrónico" })).toContainText(`${identity.email} · confirmado`);
  });

  test("with popups blocked, the button falls back to a full-page sign-in", async ({ page, context }) => {
    const identity = newIdentity("sinpopup");
    await useOidcIdentity(context, identity);
    await context.addInitScript(() => {
      window.open = () => null;
    });
    const opened: Page[] = [];
    context.on("page", (extra) => opened.push(extra));

    await page.goto("/login?redirectTo=%2Fquotes");
    await waitForHydration(page);
    await providerButton(page).click();
    await expect(page).toHaveURL(`${new URL(baseUrl()).origin}/quotes`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Mis cotizaciones");
    expect(opened, "no popup window").toHaveLength(0);
    expect(await currentUser(context.request)).toMatchObject({ email: identity.email });
  });

  test("without JavaScript, the plain provider link signs in", async ({ newClient }) => {
    const context = await newClient({ javaScriptEnabled: false });
    const identity = newIdentity("nojs");
    await useOidcIdentity(context, identity);
    const page = await context.newPage();
    await page.goto("/registro");
    await providerButton(page).click();
    await expect(page).toHaveURL(`${new URL(baseUrl()).origin}/cuenta`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Hola, ${identity.name}`);
    await expect(providersSection(page).getByText("Vinculado")).toBeVisible();
  });

  test("an existing password account links the provider from /cuenta and stays the same account", async ({ page, context, request }) => {
    const customer = await createCustomer(request);
    await useOidcIdentity(context, { email: customer.email, name: "Nombre Que Da El Proveedor" });
    await signInWithForm(page, customer.email, customer.password);
    await expect(page).toHaveURL(/\/cuenta$/);
    const link = providersSection(page).getByRole("link", { name: `Vincular ${OIDC.name}` });
    await expect(link).toBeVisible();
    await expect(providersSection(page).getByText("Vinculado")).toHaveCount(0);

    await link.click();
    await expect(page).toHaveURL(/\/cuenta$/);
    await expect(providersSection(page).getByText("Vinculado")).toBeVisible();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Hola, ${customer.name}`);
    expect(await currentUser(context.request)).toMatchObject({ id: customer.id, email: customer.email });
    // The password still works too.
    await expect(page.getByRole("region", { name: "Cambiar contraseña" })).toBeVisible();
  });

  test("/connect/nope answers 400 with 'Missing or invalid provider' inside the Spanish error page", async ({ page }) => {
    const response = await page.goto("/connect/nope?redirectTo=%2Fcuenta");
    expect(response?.status()).toBe(400);
    await expect(page.getByTestId("error-message")).toHaveText("Missing or invalid provider");
    await expect(page.getByTestId("error-title")).toHaveText("Bad Request");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Algo salió mal de nuestro lado");
    await expect(page.getByRole("link", { name: "Ir al inicio" })).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("lang", /^es/);
  });

  test("a callback with a tampered state ends on the error page with 'State parameters don't match.'", async ({ page, context }) => {
    const identity = newIdentity("estado");
    await useOidcIdentity(context, identity);
    // Walk the first two redirects by hand (the state cookie lands in the browser's cookie jar).
    const start = await context.request.get("/connect/oidc?redirectTo=%2Fcuenta", { maxRedirects: 0 });
    expect(start.status()).toBe(302);
    const authorize = new URL(start.headers()["location"]);
    expect(authorize.origin).toBe(OIDC.issuer);
    const state = authorize.searchParams.get("state");
    expect(state).toBeTruthy();
    const provider = await context.request.get(authorize.toString(), { maxRedirects: 0 });
    expect(provider.status()).toBe(302);
    const callback = new URL(provider.headers()["location"]);
    expect(callback.pathname).toBe("/auth/oidc/callback");
    expect(callback.searchParams.get("state")).toBe(state);

    const tampered = new URL(callback);
    tampered.searchParams.set("state", `${state!.slice(0, -2)}xx`);
    const response = await page.goto(tampered.toString());
    expect(response?.status()).toBe(400);
    await expect(page).toHaveURL(/\/auth\/error\?/);
    await expect(page.getByTestId("error-message")).toHaveText("State parameters don't match.");
    await expect(page.getByRole("link", { name: "Iniciar sesión" }).last()).toBeVisible();
    expect(await currentUser(context.request)).toBeNull();
  });
});
