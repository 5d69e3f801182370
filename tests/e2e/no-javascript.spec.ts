import { expect, test } from "@playwright/test";

// Issue 2 §3 and §4.5: the responsive menu, the FAQ accordion and plain links work without
// JavaScript (a phone-sized browser with scripts off).

test.use({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });

test("the mobile menu opens and its links work without JavaScript", async ({ page }) => {
  await page.goto("/");
  // Scripts really are off: the app never hydrates.
  await expect(page.locator("html")).not.toHaveAttribute("data-hydrated");

  const menu = page.getByTestId("mobile-menu");
  const mobileNav = page.getByRole("navigation", { name: "Menú móvil" });
  // The desktop navigation is hidden at this width; the menu starts closed.
  await expect(page.getByRole("navigation", { name: "Principal" })).toBeHidden();
  await expect(menu).toBeVisible();
  await expect(mobileNav).toBeHidden();

  await menu.locator("summary").click();
  await expect(menu).toHaveAttribute("open", "");
  await expect(mobileNav).toBeVisible();
  // An anonymous visitor: the server renders "Iniciar sesión" itself (no script to correct it).
  for (const name of ["Servicios", "Industrias", "Catálogo", "Preguntas frecuentes", "Nosotros", "Contacto", "Iniciar sesión", "Solicite su cotización"]) {
    await expect(mobileNav.getByRole("link", { name, exact: true })).toBeVisible();
  }

  const navigation = page.waitForEvent("framenavigated");
  await mobileNav.getByRole("link", { name: "Preguntas frecuentes", exact: true }).click();
  await navigation;
  await expect(page).toHaveURL(/\/faqs$/);
  await expect(page.locator("h1")).toHaveText(/Respuestas antes de cotizar/);
  // A fresh document: the menu is closed again, and the current page is marked.
  await expect(page.getByTestId("mobile-menu")).not.toHaveAttribute("open", "");
  await page.getByTestId("mobile-menu").locator("summary").click();
  await expect(page.getByRole("navigation", { name: "Menú móvil" }).getByRole("link", { name: "Preguntas frecuentes", exact: true })).toHaveAttribute(
    "aria-current",
    "page",
  );

  // And it closes again.
  await page.getByTestId("mobile-menu").locator("summary").click();
  await expect(page.getByRole("navigation", { name: "Menú móvil" })).toBeHidden();
});

test("the FAQ accordion opens and closes without JavaScript", async ({ page }) => {
  await page.goto("/faqs");
  const items = page.locator("main details");
  expect(await items.count()).toBeGreaterThan(3);
  const first = items.first();
  const answer = first.locator("div").first();
  await expect(answer).toBeHidden();
  await first.locator("summary").click();
  await expect(first).toHaveAttribute("open", "");
  await expect(answer).toBeVisible();
  await expect(answer).not.toBeEmpty();
  // Opening one does not need or change the others.
  await expect(items.nth(1)).not.toHaveAttribute("open", "");
  await first.locator("summary").click();
  await expect(answer).toBeHidden();
});

test("header and footer links are plain links that load the next page", async ({ page }) => {
  await page.goto("/about");
  await page.locator("footer").getByRole("link", { name: "Aviso de privacidad" }).click();
  await expect(page).toHaveURL(/\/aviso-de-privacidad$/);
  await expect(page.locator("h1")).toHaveText("Aviso de privacidad");
  await page.locator("header").getByRole("link", { name: /inicio/ }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.locator("h1")).toHaveText(/Diseñamos y fabricamos sus piezas/);
  // Never hydrated: the marker from useHydrated() only appears when JavaScript runs.
  await expect(page.locator("html")).not.toHaveAttribute("data-hydrated");
});
