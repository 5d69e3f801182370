import { expect, test, type APIRequestContext } from "@playwright/test";
import { expectFaqsFullLoadWhenChunkFails, hasWindowMarker, setWindowMarker, trackDocumentRequests, waitForHydration } from "./support/site";

// Lazy route discovery (docs/decisions/0064): a page carries only the routes it matched, the rest
// come from /__manifest (immutable per build, never through the page cache), and the navigation
// guard (docs/decisions/0004) still imports a target's modules before navigating, even to a route
// React Router has not discovered yet.

interface PartialManifest {
  version: string;
  routes: Record<string, { id: string; module: string }>;
}

async function documentManifest(request: APIRequestContext, path: string): Promise<PartialManifest> {
  const html = await (await request.get(path)).text();
  const text = /window\.__reactRouterManifest = (\{[\s\S]*?\});\n/.exec(html)?.[1];
  expect(text, `${path} carries its routes in the document`).toBeDefined();
  return JSON.parse(text!) as PartialManifest;
}

test("a page carries only the routes it matched, and no module with the whole manifest", async ({ request }) => {
  const manifest = await documentManifest(request, "/");
  expect(Object.keys(manifest.routes).sort()).toEqual(["root", "routes/site/home", "routes/site/layout"]);
  const html = await (await request.get("/")).text();
  // The whole manifest's module is named (as `url`) but neither preloaded nor imported.
  expect(html).not.toMatch(/(href="|import ")\/assets\/manifest-/);
  const product = await documentManifest(request, "/catalogo/brida-slip-on-acero-2-in-clase-150");
  expect(Object.keys(product.routes)).toContain("routes/catalogo/producto");
  expect(Object.keys(product.routes)).not.toContain("routes/admin/layout");
});

test("/__manifest answers a path's routes for the page's build, immutable, and asks for a new document after a deploy", async ({ request }) => {
  const { version } = await documentManifest(request, "/");
  const answer = await request.get(`/__manifest?${new URLSearchParams({ paths: "/faqs", version })}`);
  expect(answer.status()).toBe(200);
  expect(answer.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
  const routes = (await answer.json()) as PartialManifest["routes"];
  expect(routes["routes/site/faqs"]?.module).toMatch(/^\/assets\/faqs-[^/]+\.js$/);
  const stale = await request.get(`/__manifest?${new URLSearchParams({ paths: "/faqs", version: "otra-compilacion" })}`);
  expect(stale.status()).toBe(204);
  expect(stale.headers()["x-remix-reload-document"]).toBe("true");
});

test("the navigation guard loads an undiscovered route's chunk first: a failure becomes a full load of the target", async ({ page }) => {
  // React Router's own discovery of the page's links asks for many paths at once: refused here,
  // so /faqs is unknown to the browser when its link is clicked. The guard asks for /faqs alone.
  await page.route("**/__manifest?*", (route) => {
    const paths = new URL(route.request().url()).searchParams.get("paths") ?? "";
    return paths === "/faqs" ? route.continue() : route.abort();
  });
  await page.goto("/");
  await waitForHydration(page);
  expect(await page.evaluate(() => Object.keys(window.__reactRouterManifest?.routes ?? {}))).not.toContain("routes/site/faqs");
  await expectFaqsFullLoadWhenChunkFails(page, "**/assets/faqs-*.js");
});

test("a link the page shows navigates on the client once its routes are discovered", async ({ page }) => {
  await page.goto("/");
  await waitForHydration(page);
  await expect.poll(() => page.evaluate(() => Object.keys(window.__reactRouterManifest?.routes ?? {}))).toContain("routes/site/faqs");
  const documents = trackDocumentRequests(page);
  await setWindowMarker(page);
  await page.getByRole("navigation", { name: "Principal" }).getByRole("link", { name: "Preguntas frecuentes" }).click();
  await expect(page.locator("h1")).toHaveText(/Respuestas antes de cotizar/);
  expect(await hasWindowMarker(page), "no new document").toBe(true);
  expect(documents).toEqual([]);
});
