import type { Page } from "@playwright/test";
import type * as chromeLauncher from "chrome-launcher";
import sharp from "sharp";
import { baseUrl } from "./support/accounts";
import { expect, test } from "./support/fixtures";
import { waitForHydration } from "./support/site";
import { LIGHTHOUSE_CATEGORIES, LIGHTHOUSE_PAGES, failingAudits, launchLighthouseChrome, runLighthouse } from "./support/lighthouse";

// Issue 12 §3 (and 13): Lighthouse keeps 100 in accessibility, best practices and SEO on the pages a
// buyer lands on — the home page, /cotiza, an industry page, the catalogue and a product page — on
// the production build. Lighthouse drives its own Chromium (the same binary as the other browser
// tests) through the DevTools protocol; a failing audit is named in the message.
//
// Issue 13 §5: first paint needs one round trip (docs/decisions/0030). The performance score
// depends on how busy this shared machine is, so it is measured by `npm run lighthouse:scores`;
// here the parts that do not depend on timing are checked: the HTML carries its critical CSS, no
// stylesheet blocks rendering, the modules start only after the page has painted, and Lighthouse's
// own render-blocking and LCP-discovery audits pass.

const SCORED = ["accessibility", "best-practices", "seo"] as const;
/** Performance audits that read the page's structure, not the machine's speed. */
const STRUCTURAL_AUDITS = ["render-blocking-insight", "lcp-discovery-insight"];

test.describe.configure({ mode: "serial" });
test.setTimeout(300_000);

let chrome: chromeLauncher.LaunchedChrome | undefined;

test.beforeAll(async () => {
  // The browser the project's config resolved (CHROME_PATH, Debian's chromium, or Playwright's own).
  chrome = await launchLighthouseChrome(test.info().project.use.launchOptions?.executablePath);
});

test.afterAll(async () => {
  await chrome?.kill();
});

test("the pages paint from their own HTML: critical CSS inline, nothing blocking, modules after the paint", async ({ browser, page, request }) => {
  for (const path of LIGHTHOUSE_PAGES) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(200);
    const html = await response.text();
    const head = html.slice(0, html.indexOf("</head>"));
    const headOutsideNoscript = head.replace(/<noscript>[\s\S]*?<\/noscript>/g, "");

    const inlineCss = [...head.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((match) => match[1]).join("");
    expect(inlineCss.length, `${path}: critical CSS`).toBeGreaterThan(2_000);

    // The stylesheet loads as print media (never render-blocking), with a plain link for browsers without JavaScript.
    const stylesheets = [...headOutsideNoscript.matchAll(/<link[^>]*rel="stylesheet"[^>]*>/g)].map((match) => match[0]);
    expect(stylesheets.length, path).toBeGreaterThan(0);
    for (const link of stylesheets) {
      expect(link, path).toContain('media="print"');
      const href = link.match(/href="([^"]+)"/)?.[1];
      expect(head, `${path}: <noscript> fallback`).toContain(`<noscript><link rel="stylesheet" href="${href}"></noscript>`);
    }
    // No parser-blocking script in the head either.
    expect(headOutsideNoscript.match(/<script(?![^>]*(?:async|defer|type="module"|type="application\/(?:ld\+)?json"))[^>]*\ssrc=[^>]*>/g) ?? [], path).toEqual([]);

    // React Router's module script and its preloads wait, inert, until the page has painted.
    const preloads = [...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*>/g)].map((match) => match[0]);
    expect(preloads.length, path).toBeGreaterThan(0);
    const inertPreloads = html.match(/<template id="forja-modulos">((?:<link rel="modulepreload"[^>]*>)+)<\/template>/)?.[1] ?? "";
    expect(inertPreloads, `${path}: preloads inside the template`).toBe(preloads.join(""));
    expect(html.match(/<script type="module"/g) ?? [], path).toEqual([]);
    expect(html.match(/<script type="text\/forja-module">/g)?.length, path).toBe(1);
    // The page cache renders the whole document before keeping it: every Suspense boundary is
    // resolved in place, none is hidden content that React's script moves after the first paint.
    expect(html.match(/\$RC\(|<template id="B:/g) ?? [], `${path}: Suspense boundaries resolved in the HTML`).toEqual([]);
    // The module start evaluates the shared chunks one task each, React DOM on its own, then the
    // routes' large imported modules, never a route module itself (docs/decisions/0068); the shared
    // chunks carry V8's compile hint on their first line.
    const steps = JSON.parse(html.match(/<script>\(function\(\)\{var w=(\[[^\]]*\]);/)?.[1] ?? "[]") as string[];
    const shared = steps.slice(0, 4);
    expect(shared.map((href) => href.replace(/^\/assets\//, "").replace(/-[\w-]{8}\.js$/, "")), path).toEqual(["react", "react-dom", "router", "shell"]);
    const routeModules = [...html.matchAll(/import \* as route\d+ from "([^"]+)"/g)].map((match) => match[1]);
    expect(routeModules.length, path).toBeGreaterThan(0);
    expect(steps.filter((href) => routeModules.includes(href) || href.includes("entry.client")), path).toEqual([]);
    for (const href of shared) {
      expect((await (await request.get(href)).text()).split("\n")[0], href).toBe("//# allFunctionsCalledOnLoad");
    }
  }

  // Without the stylesheet at all, the page is laid out by its inline CSS alone…
  await page.route("**/assets/*.css", (route) => route.abort());
  for (const path of LIGHTHOUSE_PAGES) {
    await page.goto(path);
    expect(await page.evaluate(() => getComputedStyle(document.body).display), path).toBe("flex");
  }
  await page.unroute("**/assets/*.css");
  // …and with it, the page hydrates with the stylesheet loaded but not applied: the inline CSS
  // already draws the page as the stylesheet would (a test below), so applying it would only
  // restyle the whole page. The reader's first key press applies it. (A first visit, in a context
  // of its own: what an earlier page left in storage may show more, and that applies it.)
  for (const path of LIGHTHOUSE_PAGES) {
    const context = await browser.newContext({ baseURL: baseUrl() });
    const firstVisit = await context.newPage();
    const media = () => firstVisit.evaluate(() => [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].map((link) => `${link.media || "all"} ${Boolean(link.sheet)}`));
    await firstVisit.goto(path);
    await waitForHydration(firstVisit);
    await expect.poll(media, path).toEqual(["print true"]);
    await firstVisit.waitForTimeout(300);
    expect(await media(), `${path}: nothing the page did by itself needed the stylesheet`).toEqual(["print true"]);
    await firstVisit.keyboard.press("Tab");
    await expect.poll(media, path).toEqual(["all true"]);
    await context.close();
  }
});

test("the stylesheet applies as soon as the page may need it: a pointer, or the page adding an element or a class", async ({ page }) => {
  const media = () => page.evaluate(() => [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].map((link) => link.media || "all"));
  await page.goto("/");
  await waitForHydration(page);
  expect(await media()).toEqual(["print"]);
  await page.mouse.move(5, 300);
  await page.mouse.down();
  await page.mouse.up();
  await expect.poll(media).toEqual(["all"]);

  await page.goto("/catalogo");
  await waitForHydration(page);
  expect(await media()).toEqual(["print"]);
  // An element like those the HTML has (its tags and classes all there) needs nothing new…
  await page.evaluate(() => {
    const copy = document.createElement("p");
    copy.className = "sr-only";
    copy.textContent = "Aviso";
    document.body.append(copy);
  });
  await page.waitForTimeout(200);
  expect(await media()).toEqual(["print"]);
  // …but a message with classes the page never had gets the whole stylesheet before it paints.
  const styledOnInsert = await page.evaluate(
    () =>
      new Promise<string>((resolve) => {
        if (document.querySelector(".bg-red-50, .text-red-800")) throw new Error("la página ya usa esas clases");
        const message = document.createElement("p");
        message.setAttribute("role", "alert");
        message.className = "rounded-md bg-red-50 p-3 text-red-800";
        message.textContent = "No se pudo agregar al carrito.";
        document.body.append(message);
        requestAnimationFrame(() => resolve(document.querySelector<HTMLLinkElement>('link[rel="stylesheet"]')!.media));
      }),
  );
  expect(styledOnInsert).toBe("all");

  await page.goto("/industrias-design/energia");
  await waitForHydration(page);
  expect(await media()).toEqual(["print"]);
  // A class the page already uses somewhere brings no rule it lacks; one it never used does.
  await page.evaluate(() => document.querySelector("main")!.classList.add("sr-only"));
  await page.waitForTimeout(200);
  expect(await media()).toEqual(["print"]);
  await page.evaluate(() => {
    document.querySelector("main")!.classList.remove("sr-only");
    if (document.querySelector(".text-red-800")) throw new Error("la página ya usa esa clase");
    document.querySelector("main")!.classList.add("text-red-800");
  });
  await expect.poll(media).toEqual(["all"]);
});

/** The page as drawn, every lazy image loaded first, so two screenshots differ only by their styles. */
async function fullPageShot(page: Page): Promise<Buffer> {
  await page.evaluate(async () => {
    const images = [...document.images];
    for (const image of images) image.loading = "eager";
    await Promise.all(images.map((image) => image.decode().catch(() => undefined)));
  });
  return page.screenshot({ fullPage: true, animations: "disabled", caret: "hide" });
}

/** The page's markup, what the screenshots are of (the stylesheet link the test adds is in the head). */
function bodyMarkup(page: Page): Promise<string> {
  return page.evaluate(() => document.body.outerHTML);
}

/**
 * How far two screenshots are apart: their sizes, the number of pixels off by more than rounding,
 * and the box those pixels lie in (where to look when they are too many).
 */
async function pixelsApart(before: Buffer, after: Buffer): Promise<{ sizes: string; pixels: number; region: string }> {
  const [a, b] = await Promise.all([before, after].map((png) => sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true })));
  const sizes = `${a!.info.width}×${a!.info.height} / ${b!.info.width}×${b!.info.height}`;
  if (a!.info.width !== b!.info.width || a!.info.height !== b!.info.height) return { sizes, pixels: Number.POSITIVE_INFINITY, region: "tamaños distintos" };
  const width = a!.info.width;
  let pixels = 0;
  let [left, top, right, bottom] = [width, a!.info.height, -1, -1];
  for (let index = 0; index < a!.data.length; index += 3) {
    // Anti-aliased edges may land one or two levels apart between two paints.
    if (Math.max(Math.abs(a!.data[index]! - b!.data[index]!), Math.abs(a!.data[index + 1]! - b!.data[index + 1]!), Math.abs(a!.data[index + 2]! - b!.data[index + 2]!)) <= 2) continue;
    pixels++;
    const x = (index / 3) % width;
    const y = Math.floor(index / 3 / width);
    [left, top, right, bottom] = [Math.min(left, x), Math.min(top, y), Math.max(right, x), Math.max(bottom, y)];
  }
  return { sizes, pixels, region: pixels === 0 ? "ninguna región" : `en x ${left}–${right}, y ${top}–${bottom}` };
}

/**
 * Every image the page has asked for is loaded and decoded: the comparison is about CSS, and on a
 * clean, busy machine the first shot of `/` once caught its picture still arriving (CI).
 */
async function imagesSettled(page: Page): Promise<void> {
  await page.waitForLoadState("networkidle");
  await page.evaluate(() =>
    Promise.all(
      Array.from(document.images)
        .filter((image) => image.complete && image.naturalWidth > 0)
        .map((image) => image.decode().catch(() => {})),
    ),
  );
}

test("the inline CSS draws each public page exactly as the whole stylesheet does, on a phone and a desktop", async ({ page }) => {
  test.setTimeout(600_000);
  // The pages served with critical CSS: every public page kept in the page cache.
  const paths = [...LIGHTHOUSE_PAGES, "/servicios", "/industrias", "/faqs", "/contact", "/about", "/aviso-de-privacidad", "/pagina-que-no-existe"];
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    for (const path of paths) {
      const name = `${path.replace(/\W+/g, "-")}-${width}`;
      let shots = await shotsWithAndWithoutStylesheet(page, path);
      // A missing rule draws the page differently every time. Twice in CI (never here, in hundreds
      // of runs) one pair of shots at 1280 px was a whole region apart at the same size, with no
      // rule to blame: such a pair is noted with where it differed, and taken once more from a
      // fresh load. The assertions below hold the second pair to the same standard.
      if (shots.apart.pixels >= 100) {
        test.info().annotations.push({ type: "captura repetida", description: `${path} a ${width} px: ${shots.apart.pixels} píxeles distintos ${shots.apart.region}` });
        await attachShots(`${name}-primera`, shots);
        shots = await shotsWithAndWithoutStylesheet(page, path);
      }
      const { apart } = shots;
      expect(shots.markupAfter, `${path} a ${width} px: la página cambió entre las dos capturas`).toBe(shots.markupBefore);
      // Same size to the pixel; a few scattered pixels may differ between two paints of an image
      // or an anti-aliased edge, while a missing rule changes a whole box, line or colour.
      expect(apart.sizes, `${path} a ${width} px`).toBe(`${apart.sizes.split(" / ")[0]} / ${apart.sizes.split(" / ")[0]}`);
      if (apart.pixels >= 100) await attachShots(name, shots);
      expect(apart.pixels, `${path} a ${width} px: píxeles distintos, ${apart.region}`).toBeLessThan(100);
    }
  }
});

interface ShotPair {
  inlineOnly: Buffer;
  whole: Buffer;
  markupBefore: string;
  markupAfter: string;
  apart: Awaited<ReturnType<typeof pixelsApart>>;
}

/** The page drawn by its inline CSS alone (the stylesheet refused), then with the whole stylesheet added. */
async function shotsWithAndWithoutStylesheet(page: Page, path: string): Promise<ShotPair> {
  await page.route("**/assets/*.css", (route) => route.abort());
  await page.goto(path);
  await waitForHydration(page);
  await imagesSettled(page);
  const inlineOnly = await fullPageShot(page);
  const markupBefore = await bodyMarkup(page);
  await page.unroute("**/assets/*.css");
  await page.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const link = document.createElement("link");
        link.rel = "stylesheet";
        link.href = `${document.querySelector<HTMLLinkElement>('link[rel="stylesheet"]')!.href}?entera`;
        link.onload = () => resolve();
        link.onerror = () => reject(new Error("la hoja de estilos no cargó"));
        document.head.append(link);
      }),
  );
  await imagesSettled(page);
  const whole = await fullPageShot(page);
  return { inlineOnly, whole, markupBefore, markupAfter: await bodyMarkup(page), apart: await pixelsApart(inlineOnly, whole) };
}

async function attachShots(name: string, shots: ShotPair): Promise<void> {
  await test.info().attach(`${name}-solo-en-linea.png`, { body: shots.inlineOnly, contentType: "image/png" });
  await test.info().attach(`${name}-hoja-entera.png`, { body: shots.whole, contentType: "image/png" });
}

for (const path of LIGHTHOUSE_PAGES) {
  test(`Lighthouse 100 on ${path}`, async () => {
    const lhr = await runLighthouse(`${baseUrl()}${path}`, chrome!.port, LIGHTHOUSE_CATEGORIES);
    const failing = failingAudits(lhr);
    for (const category of SCORED) expect(lhr.categories[category]?.score, `${path} ${category} — ${failing.join("; ")}`).toBe(1);
    for (const id of STRUCTURAL_AUDITS) {
      const audit = lhr.audits[id];
      expect(audit?.scoreDisplayMode === "notApplicable" || audit?.score === 1, `${path} ${id}: ${JSON.stringify(audit?.details ?? audit?.errorMessage ?? null).slice(0, 600)}`).toBe(true);
    }
  });
}
