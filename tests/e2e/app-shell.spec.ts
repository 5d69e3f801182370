import { expect, test, type Page } from "@playwright/test";
import {
  RELOAD_GUARD_KEY,
  expectFaqsFullLoadWhenChunkFails,
  hasWindowMarker,
  setWindowMarker,
  trackDocumentRequests,
  waitForHydration,
} from "./support/site";

// Issue 2 §4: the page transition, the hydrated state, pending UI and chunk-load errors.

interface PageAnimation {
  pseudo: string;
  name: string;
  delay: number;
  duration: number;
  endTime: number;
}

/**
 * Wraps document.startViewTransition so the test can read, once the transition is ready, the
 * animations of its `page` pseudo-elements. Resolves to null when no transition started.
 */
async function captureNextPageTransition(page: Page): Promise<() => Promise<PageAnimation[] | null>> {
  await page.evaluate(() => {
    const w = window as unknown as { __forjaTransition?: Promise<PageAnimation[]> };
    const original = document.startViewTransition?.bind(document);
    if (!original) return;
    w.__forjaTransition = new Promise((resolve) => {
      document.startViewTransition = ((arg: Parameters<typeof original>[0]) => {
        const transition = original(arg);
        void transition.ready.then(() =>
          resolve(
            document
              .getAnimations()
              .filter((animation) => {
                const pseudo = (animation.effect as KeyframeEffect | null)?.pseudoElement ?? "";
                return pseudo === "::view-transition-old(page)" || pseudo === "::view-transition-new(page)";
              })
              .map((animation) => {
                const effect = animation.effect as KeyframeEffect;
                const timing = effect.getComputedTiming();
                return {
                  pseudo: effect.pseudoElement!,
                  name: (animation as CSSAnimation).animationName ?? "",
                  delay: Number(timing.delay ?? 0),
                  duration: Number(timing.duration ?? 0),
                  endTime: Number(timing.endTime ?? 0),
                };
              }),
          ),
        );
        return transition;
      }) as typeof document.startViewTransition;
    });
  });
  return () =>
    page.evaluate(async () => {
      const w = window as unknown as { __forjaTransition?: Promise<PageAnimation[]> };
      if (!w.__forjaTransition) return null;
      return Promise.race([w.__forjaTransition, new Promise<null>((resolve) => setTimeout(() => resolve(null), 3_000))]);
    });
}

test.describe("page transition (out-in, named page)", () => {
  test("the main element carries view-transition-name: page", async ({ page }) => {
    for (const path of ["/", "/industrias-design/energia", "/esto/no-existe"]) {
      await page.goto(path);
      expect(await page.locator("main").evaluate((main) => getComputedStyle(main).viewTransitionName)).toBe("page");
    }
  });

  test("the old page finishes leaving before the new page starts entering", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    const documents = trackDocumentRequests(page);
    const transition = await captureNextPageTransition(page);

    await page.getByRole("navigation", { name: "Principal" }).getByRole("link", { name: "Preguntas frecuentes" }).click();
    const animations = await transition();
    await expect(page.locator("h1")).toHaveText(/Respuestas antes de cotizar/);
    expect(documents, "a client-side navigation").toEqual([]);

    expect(animations, "a view transition ran for the navigation").not.toBeNull();
    const leave = animations!.find((animation) => animation.pseudo === "::view-transition-old(page)");
    const enter = animations!.find((animation) => animation.pseudo === "::view-transition-new(page)");
    expect(leave, "::view-transition-old(page) is animated").toBeDefined();
    expect(enter, "::view-transition-new(page) is animated").toBeDefined();
    expect(leave!.duration).toBeGreaterThan(0);
    expect(enter!.duration).toBeGreaterThan(0);
    // Out-in: the exit ends no later than the entrance begins.
    expect(leave!.endTime).toBeLessThanOrEqual(enter!.delay);
    expect(leave!.delay + leave!.duration).toBeLessThanOrEqual(enter!.delay);
  });

  test.describe("with prefers-reduced-motion", () => {
    test.use({ reducedMotion: "reduce" });

    test("the navigation runs no page animation at all", async ({ page }) => {
      await page.goto("/");
      await waitForHydration(page);
      expect(await page.evaluate(() => matchMedia("(prefers-reduced-motion: reduce)").matches)).toBe(true);
      const transition = await captureNextPageTransition(page);
      await page.getByRole("navigation", { name: "Principal" }).getByRole("link", { name: "Nosotros" }).click();
      const animations = await transition();
      await expect(page.locator("h1")).toHaveText(/Ingeniería y manufactura bajo un mismo techo/);
      // Either no transition at all, or one whose page pseudo-elements do not animate.
      const moving = (animations ?? []).filter((animation) => animation.endTime > 0);
      expect(moving).toEqual([]);
    });
  });
});

test.describe("hydration", () => {
  test("the server HTML is not marked hydrated; the browser marks it once React Router runs", async ({ page, request }) => {
    const html = await (await request.get("/")).text();
    expect(html).toMatch(/<html lang="es-MX">/);
    expect(html).not.toContain("data-hydrated");

    await page.goto("/");
    await waitForHydration(page);
    await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
    expect(await page.evaluate(() => typeof (window as unknown as { __reactRouterDataRouter?: unknown }).__reactRouterDataRouter)).toBe(
      "object",
    );
  });

  test("after hydration, in-app links navigate on the client", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    const documents = trackDocumentRequests(page);
    await setWindowMarker(page);
    await page.locator("footer").getByRole("link", { name: "Términos y condiciones" }).click();
    await expect(page).toHaveURL(/\/terminos$/);
    await expect(page.locator("h1")).toHaveText("Términos y condiciones");
    await page.getByRole("navigation", { name: "Principal" }).getByRole("link", { name: "Industrias" }).click();
    await expect(page.locator("h1")).toHaveText(/Conocemos las normas/);
    await page.locator("main").getByRole("link", { name: "Más sobre la minería" }).first().click();
    await expect(page).toHaveURL(/\/industrias-design\/minera$/);
    await expect(page).toHaveTitle("Diseño y manufactura para la minería | Forja");
    expect(await hasWindowMarker(page)).toBe(true);
    expect(documents).toEqual([]);
  });
});

test.describe("pending UI", () => {
  const progress = '[data-testid="navigation-progress"][data-visible="true"]';

  test("a navigation slower than 200 ms shows the progress bar, and it goes away after", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    await expect(page.getByTestId("navigation-progress")).toHaveAttribute("data-visible", "false");
    // A 3 s data request: the bar must show while it is pending (it appears after 200 ms; the
    // generous wait only absorbs a loaded machine, the request is still pending when it is checked).
    await page.route("**/*.data*", async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      await route.continue();
    });
    await page.getByRole("navigation", { name: "Principal" }).getByRole("link", { name: "Servicios" }).click();
    await expect(page.locator(progress)).toBeVisible({ timeout: 2_500 });
    await expect(page.locator(progress)).toHaveAttribute("role", "progressbar");
    await expect(page.locator("h1")).toHaveText(/Del concepto a la pieza terminada/);
    await expect(page.getByTestId("navigation-progress")).toHaveAttribute("data-visible", "false");
    await expect(page.getByTestId("navigation-progress")).toBeHidden();
  });

  test("a fast navigation shows nothing in its first 150 ms", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    // Watch the attribute from inside the page, so not even a one-frame flash goes unseen.
    await page.evaluate(() => {
      const w = window as unknown as { __forjaProgressShownAt?: number; __forjaClickAt?: number };
      const bar = document.querySelector('[data-testid="navigation-progress"]')!;
      document.addEventListener("click", () => (w.__forjaClickAt = performance.now()), { capture: true, once: true });
      new MutationObserver(() => {
        if (bar.getAttribute("data-visible") === "true" && w.__forjaProgressShownAt === undefined) {
          w.__forjaProgressShownAt = performance.now();
        }
      }).observe(bar, { attributes: true });
    });
    await page.getByRole("navigation", { name: "Principal" }).getByRole("link", { name: "Industrias" }).click();
    await expect(page.locator("h1")).toHaveText(/Conocemos las normas/);
    await page.waitForTimeout(150);
    const { shownAt, clickAt } = await page.evaluate(() => {
      const w = window as unknown as { __forjaProgressShownAt?: number; __forjaClickAt?: number };
      return { shownAt: w.__forjaProgressShownAt ?? null, clickAt: w.__forjaClickAt ?? null };
    });
    expect(clickAt).not.toBeNull();
    if (shownAt !== null) expect(shownAt - clickAt!, "the bar never appears before 150 ms").toBeGreaterThanOrEqual(150);
    await expect(page.getByTestId("navigation-progress")).toHaveAttribute("data-visible", "false");
  });
});

test.describe("chunk-load errors", () => {
  const faqsChunk = "**/assets/faqs-*.js";

  async function faqsChunkLoaded(page: Page) {
    return page.evaluate(() =>
      performance.getEntriesByType("resource").some((entry) => /\/assets\/faqs-[^/]*\.js$/.test(new URL(entry.name).pathname)),
    );
  }

  test("a route chunk that fails to load turns the navigation into a full load of the target", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    expect(await faqsChunkLoaded(page), "the FAQs chunk is not loaded yet").toBe(false);
    await expectFaqsFullLoadWhenChunkFails(page, faqsChunk);
    // The reloaded page works: it hydrates and its chunk loaded this time.
    await waitForHydration(page);
    expect(await faqsChunkLoaded(page)).toBe(true);
  });

  test("with the reload guard active, the same failure shows the error page instead", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    await page.route(faqsChunk, (route) => route.abort());
    await page.evaluate((key) => sessionStorage.setItem(key, String(Date.now())), RELOAD_GUARD_KEY);
    const documents = trackDocumentRequests(page);
    await setWindowMarker(page);
    const consoleErrors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") consoleErrors.push(message.text());
    });

    await page.getByRole("navigation", { name: "Principal" }).getByRole("link", { name: "Preguntas frecuentes" }).click();
    await expect(page.getByTestId("error-title")).toHaveText("Internal Server Error");
    await expect(page.getByText("Internal Server Error").first()).toBeVisible();
    await expect(page.locator("h1")).toHaveText("Algo salió mal de nuestro lado");
    // No reload happened (no loop): same document, no document request.
    expect(await hasWindowMarker(page)).toBe(true);
    expect(documents).toEqual([]);
    expect(consoleErrors.join("\n")).toContain("No se pudo cargar el código de la página");
  });
});
