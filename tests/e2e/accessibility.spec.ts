import { expect, test, type Page } from "@playwright/test";
import { axeViolations } from "./support/axe";
import { INDUSTRIES, PUBLIC_PAGES, waitForHydration } from "./support/site";

// Issue 2 §5: axe finds nothing on any public page; everything is reachable by keyboard with a
// visible focus.

const PAGES: { path: string; status: number }[] = [
  ...PUBLIC_PAGES.map(({ path }) => ({ path, status: 200 })),
  ...INDUSTRIES.map(({ slug }) => ({ path: `/industrias-design/${slug}`, status: 200 })),
  { path: "/esto/no-existe", status: 404 },
];

test.describe("axe", () => {
  for (const { path, status } of PAGES) {
    test(`${path} has no WCAG 2.1 A/AA violations`, async ({ page }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(status);
      await waitForHydration(page);
      expect(await axeViolations(page)).toEqual([]);
    });
  }

  test("the open mobile menu has no violations", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/");
    await waitForHydration(page);
    await page.getByTestId("mobile-menu").locator("summary").click();
    await expect(page.getByRole("navigation", { name: "Menú móvil" })).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
  });
});

async function focusedOutline(page: Page) {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element) return null;
    const style = getComputedStyle(element);
    const rect = element.getBoundingClientRect();
    return {
      text: element.textContent?.trim(),
      href: element.getAttribute("href"),
      focusVisible: element.matches(":focus-visible"),
      outlineStyle: style.outlineStyle,
      outlineWidth: parseFloat(style.outlineWidth),
      visible: rect.width > 1 && rect.height > 1 && style.visibility !== "hidden",
    };
  });
}

test.describe("keyboard", () => {
  test("the first Tab reaches the skip link, visibly focused, and it jumps to the content", async ({ page }) => {
    await page.goto("/servicios");
    await waitForHydration(page);
    await page.keyboard.press("Tab");
    const focused = await focusedOutline(page);
    expect(focused).toMatchObject({ text: "Saltar al contenido", href: "#contenido", focusVisible: true, visible: true });
    expect(focused!.outlineStyle).not.toBe("none");
    expect(focused!.outlineWidth).toBeGreaterThanOrEqual(2);
    await expect(page.getByRole("link", { name: "Saltar al contenido" })).toBeInViewport();

    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/#contenido$/);
    await expect(page.locator("main#contenido")).toBeInViewport();
  });

  test("Tab reaches the Cotizar call to action with a visible focus", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    let found = null;
    for (let step = 0; step < 25 && !found; step++) {
      await page.keyboard.press("Tab");
      const focused = await focusedOutline(page);
      if (focused?.href === "/cotiza" && focused.text === "Cotizar") found = focused;
    }
    expect(found, "the header's Cotizar link is in the Tab order").not.toBeNull();
    expect(found).toMatchObject({ focusVisible: true, visible: true });
    expect(found!.outlineStyle).not.toBe("none");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/cotiza$/);
    await expect(page.locator("h1")).toHaveText(/Solicite una cotización/);
  });

  test("on a phone, the menu opens from the keyboard and its links are reachable", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/");
    await waitForHydration(page);
    const summary = page.getByTestId("mobile-menu").locator("summary");
    await summary.focus();
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("mobile-menu")).toHaveAttribute("open", "");
    let reached = false;
    for (let step = 0; step < 12 && !reached; step++) {
      await page.keyboard.press("Tab");
      reached = (await focusedOutline(page))?.text === "Solicite su cotización";
    }
    expect(reached).toBe(true);
  });
});
