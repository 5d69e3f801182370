import { expect, test, type Page } from "@playwright/test";
import { INDUSTRIES } from "./support/site";

// Issue 12 §3: the public pages are illustrated with parts rendered from our CAD models. The hero
// loads first with its size, the rest waits until scrolled to, every industry shows its example's
// drawing, no picture is missing and no page grows sideways on a phone or a laptop.

const INDUSTRY_PAGES = INDUSTRIES.map(({ slug }) => `/industrias-design/${slug}`);
const PAGES = ["/", "/servicios", "/industrias", ...INDUSTRY_PAGES];

/** Every image response that failed, as "status url". */
function failedImages(page: Page): string[] {
  const failures: string[] = [];
  page.on("response", (response) => {
    if (response.request().resourceType() === "image" && response.status() >= 400) failures.push(`${response.status()} ${response.url()}`);
  });
  page.on("requestfailed", (request) => {
    if (request.resourceType() === "image") failures.push(`${request.failure()?.errorText ?? "failed"} ${request.url()}`);
  });
  return failures;
}

/** Scrolls to the bottom in screen-sized steps, so lazy pictures start loading, then waits for all. */
async function loadAllImages(page: Page): Promise<void> {
  await page.evaluate(async () => {
    for (let y = 0; y < document.documentElement.scrollHeight; y += window.innerHeight / 2) {
      window.scrollTo(0, y);
      await new Promise((resolve) => setTimeout(resolve, 40));
    }
    window.scrollTo(0, document.documentElement.scrollHeight);
  });
  await expect
    .poll(() => page.evaluate(() => Array.from(document.images).filter((image) => !image.complete).length), { timeout: 15_000 })
    .toBe(0);
}

test("the home hero picture comes first, with its size, in AVIF or WebP", async ({ page }) => {
  const failures = failedImages(page);
  await page.goto("/");
  const hero = page.getByRole("img", { name: /^Piezas modeladas en CAD por Forja/ });
  await expect(hero).toHaveAttribute("width", "1600");
  await expect(hero).toHaveAttribute("height", "900");
  await expect(hero).toHaveAttribute("loading", "eager");
  await expect(hero).toHaveAttribute("fetchpriority", "high");
  await expect.poll(() => hero.evaluate((image: HTMLImageElement) => (image.complete ? image.naturalWidth : 0))).toBeGreaterThan(0);
  const chosen = await hero.evaluate((image: HTMLImageElement) => image.currentSrc);
  expect(chosen).toMatch(/\/assets\/inicio-\d+-[\w-]+\.(avif|webp)$/);
  // Content-hashed names: cached for a year.
  const response = await page.request.get(chosen);
  expect(response.headers()["cache-control"]).toMatch(/max-age=31536000.*immutable|immutable.*max-age=31536000/);
  const sources = hero.locator("xpath=..").locator("source");
  await expect(sources).toHaveCount(2);
  await expect(sources.first()).toHaveAttribute("type", "image/avif");
  for (const variant of ["800w", "1600w"]) await expect(sources.first()).toHaveAttribute("srcset", new RegExp(`\\.avif ${variant}`));
  // The picture keeps its place before it has loaded: its box follows its width and height.
  const box = await hero.boundingBox();
  expect(box!.width / box!.height).toBeCloseTo(16 / 9, 1);
  expect(failures).toEqual([]);
});

test("pictures below the first screen load only when scrolled to", async ({ page }) => {
  await page.goto("/");
  const cards = page.locator("#servicios ~ ul img");
  await expect(cards).toHaveCount(8);
  for (const card of await cards.all()) {
    await expect(card).toHaveAttribute("loading", "lazy");
    await expect(card).toHaveAttribute("width", "800");
    await expect(card).toHaveAttribute("height", "600");
    await expect(card).toHaveAttribute("alt", /\w{4,}/);
  }

  await page.goto("/industrias");
  const industries = page.locator("main li img");
  await expect(industries).toHaveCount(INDUSTRIES.length);
  for (const [index, picture] of (await industries.all()).entries()) {
    await expect(picture).toHaveAttribute("loading", index < 3 ? "eager" : "lazy");
  }

  await page.goto("/servicios");
  const services = page.locator("main section img");
  await expect(services).toHaveCount(8);
  for (const picture of (await services.all()).slice(1)) await expect(picture).toHaveAttribute("loading", "lazy");
});

test("every industry page shows its example part's technical drawing", async ({ page }) => {
  const failures = failedImages(page);
  for (const path of INDUSTRY_PAGES) {
    await page.goto(path);
    const hero = page.locator("main section").first().locator("img");
    await expect(hero, path).toHaveAttribute("fetchpriority", "high");
    const drawing = page.locator('section[aria-labelledby="ejemplo"] img');
    await expect(drawing, path).toHaveAttribute("alt", /^Dibujo técnico: .+ Vistas frontal, superior, lateral derecha e isométrica/);
    await expect(drawing, path).toHaveAttribute("loading", "lazy");
    const [width, height] = [Number(await drawing.getAttribute("width")), Number(await drawing.getAttribute("height"))];
    expect(width / height, path).toBeCloseTo(420 / 297, 2);
    await drawing.scrollIntoViewIfNeeded();
    await expect.poll(() => drawing.evaluate((image: HTMLImageElement) => (image.complete ? image.naturalWidth : 0)), { message: path }).toBeGreaterThan(0);
    const src = await drawing.getAttribute("src");
    const response = await page.request.get(src!);
    expect(response.status(), path).toBe(200);
    expect(response.headers()["content-type"], path).toContain("image/svg+xml");
    expect(response.headers()["cache-control"], path).toContain("immutable");
    expect(await response.text(), path).toContain("Dibujo técnico");
  }
  expect(failures).toEqual([]);
});

test("no picture on the illustrated pages fails to load", async ({ page }) => {
  test.setTimeout(90_000);
  const failures = failedImages(page);
  for (const path of PAGES) {
    await page.goto(path);
    await loadAllImages(page);
    const broken = await page.evaluate(() =>
      Array.from(document.images)
        .filter((image) => image.naturalWidth === 0 || !image.getAttribute("width") || !image.getAttribute("height"))
        .map((image) => image.currentSrc || image.src),
    );
    expect(broken, path).toEqual([]);
  }
  expect(failures).toEqual([]);
});

for (const width of [360, 1280]) {
  test(`no illustrated page scrolls sideways at ${width} px`, async ({ page }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width, height: 800 });
    for (const path of PAGES) {
      await page.goto(path);
      await loadAllImages(page);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, path).toBeLessThanOrEqual(0);
    }
  });
}
