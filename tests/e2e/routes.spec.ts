import { expect, test } from "@playwright/test";
import { INDUSTRIES, PROTECTED_PAGES, PUBLIC_PAGES } from "./support/site";

// Issue 2 §3 (the route table) and §4.1 (trailing slash and case), from the built server.

test.describe("route table", () => {
  // /checkout is in the table, but with an empty cart it is designed to send the visitor to /carrito (issue 6).
  for (const { path, h1 } of PUBLIC_PAGES.filter((entry) => entry.path !== "/checkout")) {
    test(`${path} answers 200 with its Spanish heading and a canonical link`, async ({ page }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(200);
      expect(new URL(page.url()).pathname).toBe(path);
      await expect(page.locator("html")).toHaveAttribute("lang", "es-MX");
      const heading = page.locator("h1");
      await expect(heading).toHaveCount(1);
      await expect(heading).toHaveText(h1);
      await expect(page).toHaveTitle(/Forja/);
      const canonical = page.locator('head link[rel="canonical"]');
      await expect(canonical).toHaveCount(1);
      expect(new URL((await canonical.getAttribute("href"))!).pathname).toBe(path);
    });
  }

  test("/checkout with an empty cart redirects to /carrito", async ({ page, request }) => {
    const direct = await request.get("/checkout", { maxRedirects: 0 });
    expect([302, 303, 307]).toContain(direct.status());
    expect(new URL(direct.headers().location, "http://x").pathname).toBe("/carrito");

    const response = await page.goto("/checkout");
    expect(response?.status()).toBe(200);
    expect(new URL(page.url()).pathname).toBe("/carrito");
    await expect(page.locator("h1")).toHaveText(/Su carrito/);
  });

  for (const { path, login } of PROTECTED_PAGES) {
    test(`${path} sends a visitor without an account to ${login}`, async ({ page, request }) => {
      const direct = await request.get(path, { maxRedirects: 0 });
      expect([302, 303, 307]).toContain(direct.status());
      const location = new URL(direct.headers().location, "http://x");
      expect(location.pathname).toBe(login);
      expect(location.searchParams.get("redirectTo")).toBe(path);

      const response = await page.goto(path);
      expect(response?.status()).toBe(200);
      expect(new URL(page.url()).pathname).toBe(login);
      await expect(page.locator("h1")).toHaveText(login === "/login" ? /Iniciar sesión/ : /Acceso del personal/);
    });
  }
});

test.describe("industry pages", () => {
  for (const { slug, name, title } of INDUSTRIES) {
    test(`/industrias-design/${slug} shows ${name} and a call to action with the industry`, async ({ page }) => {
      const response = await page.goto(`/industrias-design/${slug}`);
      expect(response?.status()).toBe(200);
      await expect(page).toHaveTitle(`${title} | Forja`);
      const canonical = await page.locator('head link[rel="canonical"]').getAttribute("href");
      expect(new URL(canonical!).pathname).toBe(`/industrias-design/${slug}`);
      await expect(page.locator("h1")).toHaveCount(1);
      await expect(page.locator("h1")).not.toBeEmpty();
      await expect(page.locator("main")).toContainText(name);
      const cta = page.locator(`main a[href="/cotiza?industria=${slug}"]`);
      expect(await cta.count()).toBeGreaterThanOrEqual(1);
      await expect(cta.first()).toBeVisible();
      // The industry layout links to the nine others and not to itself.
      const others = page.getByRole("navigation", { name: "Otras industrias" }).getByRole("link");
      await expect(others).toHaveCount(INDUSTRIES.length - 1);
      await expect(page.locator(`nav a[href="/industrias-design/${slug}"]`)).toHaveCount(0);
    });
  }

  test("an unknown industry is a 404", async ({ page }) => {
    const response = await page.goto("/industrias-design/submarina");
    expect(response?.status()).toBe(404);
    await expect(page.getByText("Page Not Found", { exact: true })).toBeVisible();
    await expect(page.getByText("Page not found: /industrias-design/submarina", { exact: true })).toBeVisible();
  });

  test("the industry CTA opens the quote page with the industry", async ({ page }) => {
    await page.goto("/industrias-design/medica");
    await page.locator('main a[href="/cotiza?industria=medica"]').first().click();
    await expect(page).toHaveURL(/\/cotiza\?industria=medica$/);
    await expect(page.locator("h1")).toHaveText(/Solicite una cotización/);
  });
});

test.describe("trailing slash and case", () => {
  test("/Servicios/ answers 301 to /servicios, keeping the query", async ({ request }) => {
    const response = await request.get("/Servicios/?origen=correo&x=1", { maxRedirects: 0 });
    expect(response.status()).toBe(301);
    expect(response.headers().location).toBe("/servicios?origen=correo&x=1");
  });

  test("/SERVICIOS and /servicios/ reach the same page", async ({ page }) => {
    for (const path of ["/SERVICIOS", "/servicios/"]) {
      const response = await page.goto(path);
      expect(response?.status()).toBe(200);
      expect(new URL(page.url()).pathname).toBe("/servicios");
      await expect(page.locator("h1")).toHaveText(/Del concepto a la pieza terminada/);
    }
  });

  test("/industrias-design/Medica/ ends at /industrias-design/medica", async ({ page, request }) => {
    const first = await request.get("/industrias-design/Medica/", { maxRedirects: 0 });
    expect(first.status()).toBe(301);
    expect(first.headers().location).toBe("/industrias-design/medica");
    // The whole path is case-insensitive: one redirect, straight to the lowercase address.
    const shouting = await request.get("/INDUSTRIAS-DESIGN/Medica/?ref=1", { maxRedirects: 0 });
    expect(shouting.status()).toBe(301);
    expect(shouting.headers().location).toBe("/industrias-design/medica?ref=1");
    const response = await page.goto("/industrias-design/Medica/?ref=1");
    expect(response?.status()).toBe(200);
    const url = new URL(page.url());
    expect(url.pathname).toBe("/industrias-design/medica");
    expect(url.search).toBe("?ref=1");
    await expect(page.locator("main")).toContainText("Médica");
    const canonical = await page.locator('head link[rel="canonical"]').getAttribute("href");
    expect(new URL(canonical!).pathname).toBe("/industrias-design/medica");
  });

  test("a canonical path is not redirected", async ({ request }) => {
    const response = await request.get("/servicios?x=1", { maxRedirects: 0 });
    expect(response.status()).toBe(200);
  });
});
