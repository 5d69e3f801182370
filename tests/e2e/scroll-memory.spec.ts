import { expect, test, type Page } from "@playwright/test";
import { waitForHydration } from "./support/site";

// The scroll position a reader comes back to (app/lib/app-shell/scroll-memory.tsx, decision 0071):
// the page's inline script restores it on a reload, the router on Back after a client navigation,
// and a page opened anew starts at the top with a history key of its own.

const historyKey = () => (window.history.state as { key?: string; idx?: number } | null)?.key ?? null;

/** An industry page on a phone, hydrated, scrolled down to `y`. */
async function scrolledDown(page: Page, y: number): Promise<void> {
  await page.setViewportSize({ width: 390, height: 700 });
  await page.goto("/industrias-design/energia");
  await waitForHydration(page);
  await page.evaluate((top) => window.scrollTo(0, top), y);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(y);
}

test("a new entry gets its own history key and the router its index, and starts at the top", async ({ page }) => {
  await page.goto("/industrias-design/energia");
  await waitForHydration(page);
  const first = await page.evaluate(historyKey);
  expect(first).toMatch(/^[0-9a-v]+$/);
  expect(await page.evaluate(() => (window.history.state as { idx?: number }).idx)).toBe(0);
  expect(await page.evaluate(() => window.scrollY)).toBe(0);

  // Another document opened anew: another key.
  await page.goto("/about");
  await waitForHydration(page);
  const second = await page.evaluate(historyKey);
  expect(second).toMatch(/^[0-9a-v]+$/);
  expect(second).not.toBe(first);
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
});

test("a reload comes back to where the reader was, restored by the page's inline script alone", async ({ page }) => {
  await scrolledDown(page, 900);
  const key = await page.evaluate(historyKey);

  // Neither the browser's own restoration nor the app (its modules never load) may do it: only the
  // script in the HTML, which reads the position the router saved when the page was left.
  await page.addInitScript(() => {
    window.history.scrollRestoration = "manual";
  });
  await page.route("**/assets/*.js", (route) => route.abort());
  await page.reload();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(900);
  expect(await page.evaluate(historyKey)).toBe(key);
  await expect(page.locator("html")).not.toHaveAttribute("data-hydrated");
});

test("a reload with the app running keeps the position", async ({ page }) => {
  await scrolledDown(page, 700);
  await page.reload();
  await waitForHydration(page);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(700);
});

test("Back after a client navigation comes back to where the reader was; the new page starts at the top", async ({ page }) => {
  await scrolledDown(page, 600);

  await page.evaluate(() => (window as unknown as { __reactRouterDataRouter: { navigate: (to: string) => Promise<void> } }).__reactRouterDataRouter.navigate("/about"));
  await expect(page).toHaveURL(/\/about$/);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  expect(await page.evaluate(() => (window.history.state as { idx?: number }).idx)).toBe(1);

  await page.goBack();
  await expect(page).toHaveURL(/\/industrias-design\/energia$/);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(600);
});
