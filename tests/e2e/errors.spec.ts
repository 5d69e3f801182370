import { expect, test, type Page } from "@playwright/test";
import { setWindowMarker, hasWindowMarker, trackDocumentRequests, waitForHydration } from "./support/site";

// Issue 2 §4.2 and §4.3: the one error page, for a 404 (server and client side) and a 500.

async function expectNotFoundPage(page: Page, path: string) {
  await expect(page.getByTestId("error-title")).toHaveText("Page Not Found");
  await expect(page.getByTestId("error-message")).toHaveText(`Page not found: ${path}`);
  await expect(page.getByText("Page Not Found", { exact: true })).toBeVisible();
  await expect(page.getByText(`Page not found: ${path}`, { exact: true })).toBeVisible();
  await expect(page.locator("h1")).toHaveText("No encontramos esta página");
  await expect(page).toHaveTitle(/no encontrada/i);
  const main = page.locator("main");
  await expect(main.locator('a[href="/"]')).toBeVisible();
  await expect(main.locator('a[href="/cotiza"]')).toBeVisible();
  await expect(main.locator('a[href="/contact"]')).toBeVisible();
}

test.describe("404", () => {
  test("an unmatched path answers HTTP 404 with the error page", async ({ page }) => {
    const response = await page.goto("/esto/no-existe");
    expect(response?.status()).toBe(404);
    await expectNotFoundPage(page, "/esto/no-existe");
    // The site frame stays around the error: header navigation and footer.
    await expect(page.getByRole("navigation", { name: "Principal" })).toBeAttached();
    await expect(page.locator("footer")).toBeVisible();
  });

  test("an unknown one-segment path (no published content page) is a 404", async ({ page }) => {
    const response = await page.goto("/pagina-que-no-existe");
    expect(response?.status()).toBe(404);
    await expectNotFoundPage(page, "/pagina-que-no-existe");
  });

  test("the error page's links work", async ({ page }) => {
    await page.goto("/esto/no-existe");
    await waitForHydration(page);
    await page.locator("main").getByRole("link", { name: "Solicitar una cotización" }).click();
    await expect(page).toHaveURL(/\/cotiza$/);
    await expect(page.locator("h1")).toHaveText(/Solicite una cotización/);
  });

  test("the same page appears on a client-side navigation", async ({ page }) => {
    // No in-app link points to a missing page, so reach one the way a visitor does: open it,
    // follow the error page's in-app link home, then go Back. Back is a client-side (popstate)
    // navigation that React Router handles itself, loading /esto/no-existe's data with fetch.
    await page.goto("/esto/no-existe");
    await waitForHydration(page);
    const documents = trackDocumentRequests(page);
    await page.locator("main").getByRole("link", { name: "Ir al inicio" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.locator("h1")).toHaveText(/Diseñamos y fabricamos sus piezas/);
    await setWindowMarker(page);

    const data = page.waitForResponse((response) => new URL(response.url()).pathname.startsWith("/esto/no-existe"));
    await page.goBack();
    expect((await data).status()).toBe(404);
    await expect(page).toHaveURL(/\/esto\/no-existe$/);
    await expectNotFoundPage(page, "/esto/no-existe");
    expect(await hasWindowMarker(page), "the 404 rendered without a full page load").toBe(true);
    expect(documents).toEqual([]);
  });

  test("a client-side navigation to an unknown industry shows the 404 page", async ({ page }) => {
    await page.goto("/industrias-design/submarina");
    await waitForHydration(page);
    await page.locator("main").getByRole("link", { name: "Ir al inicio" }).click();
    await expect(page.locator("h1")).toHaveText(/Diseñamos y fabricamos sus piezas/);
    await setWindowMarker(page);
    await page.goBack();
    await expectNotFoundPage(page, "/industrias-design/submarina");
    expect(await hasWindowMarker(page)).toBe(true);
  });
});

test.describe("500", () => {
  test("/__error answers 500 with the error page and no stack trace", async ({ page, request }) => {
    const raw = await request.get("/__error");
    expect(raw.status()).toBe(500);
    const html = await raw.text();
    expect(html).toContain("Internal Server Error");
    // Neither the thrown message nor any stack frame reaches the visitor outside development.
    expect(html).not.toContain("Falla provocada");
    expect(html).not.toMatch(/\bat [\w.<>$]+ \(|\.(ts|tsx|js):\d+:\d+|node:internal|<pre/);

    const response = await page.goto("/__error");
    expect(response?.status()).toBe(500);
    await expect(page.getByTestId("error-title")).toHaveText("Internal Server Error");
    await expect(page.getByText("Internal Server Error").first()).toBeVisible();
    await expect(page.locator("h1")).toHaveText("Algo salió mal de nuestro lado");
    await expect(page.locator("pre")).toHaveCount(0);
    const main = page.locator("main");
    await expect(main.locator('a[href="/"]')).toBeVisible();
    await expect(main.locator('a[href="/cotiza"]')).toBeVisible();
    await expect(main.locator('a[href="/contact"]')).toBeVisible();
  });
});
