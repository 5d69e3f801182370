import fs from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { startServer, type RunningServer } from "./support/server";
import { RELOAD_GUARD_KEY, hasWindowMarker, setWindowMarker, trackDocumentRequests, waitForHydration } from "./support/site";

// Issue 2 §4.6: new build detection. These tests rewrite the running build's version.json, so
// they get a production server of their own (same build, own copy): no other test's pages ever
// see a "new build". The tests of this file run one after the other in one worker.

// Each test waits for page loads and build checks that a busy machine slows down.
test.describe.configure({ mode: "default", timeout: 90_000 });

let server: RunningServer;
let versionFile: string;
let original: string;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  server = await startServer();
  versionFile = path.join(server.buildDir, "client/version.json");
  original = fs.readFileSync(versionFile, "utf8");
});

test.afterAll(async () => {
  await server?.stop();
});

/** Publishes a different build id in the running build, returns it; restore with restoreBuild(). */
function publishNewBuild(): string {
  const id = `e2e-${Date.now().toString(36)}`;
  fs.writeFileSync(versionFile, JSON.stringify({ id, builtAt: new Date().toISOString() }));
  return id;
}

function restoreBuild() {
  fs.writeFileSync(versionFile, original);
}

/**
 * Opens `pathname` and resolves after the app's first build check (about 1 s after hydration) has
 * answered. The wait covers the page's load and hydration too, which on a busy machine (another
 * worker running Lighthouse) can take well over 10 s: it is a wait, not a speed requirement.
 */
async function openAndWaitForBuildCheck(page: Page, pathname: string): Promise<{ id?: string }> {
  const check = page.waitForResponse((response) => new URL(response.url()).pathname === "/version.json", { timeout: 30_000 });
  await page.goto(new URL(pathname, server.url).href);
  await waitForHydration(page);
  const response = await check;
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { id?: string };
  await response.finished();
  // The check compares the ids right after the body arrives; give it a moment to record the result.
  await page.waitForTimeout(200);
  return body;
}

async function clickHeaderLink(page: Page, name: string) {
  await page.getByRole("navigation", { name: "Principal" }).getByRole("link", { name }).click();
}

test("with the same build, navigations stay client-side", async ({ page }) => {
  const running = JSON.parse(original) as { id: string };
  expect((await openAndWaitForBuildCheck(page, "/")).id).toBe(running.id);
  const documents = trackDocumentRequests(page);
  await setWindowMarker(page);
  await clickHeaderLink(page, "Preguntas frecuentes");
  await expect(page.locator("h1")).toHaveText(/Respuestas antes de cotizar/);
  expect(await hasWindowMarker(page)).toBe(true);
  expect(documents).toEqual([]);
});

test("after a new build is published, the next navigation is a full page load, and the guard stops a loop", async ({ page }) => {
  try {
    const id = publishNewBuild();
    expect((await openAndWaitForBuildCheck(page, "/")).id).toBe(id);
    // Nothing happens until the visitor navigates.
    await expect(page).toHaveURL(/\/$/);

    const documents = trackDocumentRequests(page);
    await setWindowMarker(page);
    // The reloaded page runs its own build check; listen from now on so it cannot be missed.
    const nextCheck = page.waitForResponse((response) => new URL(response.url()).pathname === "/version.json", { timeout: 30_000 });
    await clickHeaderLink(page, "Preguntas frecuentes");
    await expect(page).toHaveURL(/\/faqs$/);
    await expect(page.locator("h1")).toHaveText(/Respuestas antes de cotizar/);
    await expect.poll(() => documents).toContainEqual(expect.stringMatching(/\/faqs$/));
    expect(await hasWindowMarker(page), "the window was replaced by a full load").toBe(false);
    const guard = await page.evaluate((key) => Number(sessionStorage.getItem(key)), RELOAD_GUARD_KEY);
    expect(Date.now() - guard).toBeLessThan(10_000);

    // The reloaded page still sees a "different" build (this test never rebuilt the bundle). Within
    // the guard's 10 s the next navigation must stay client-side instead of reloading again.
    await waitForHydration(page);
    expect((await (await nextCheck).json()).id).toBe(id);
    await page.waitForTimeout(200);
    documents.length = 0;
    await setWindowMarker(page);
    await clickHeaderLink(page, "Servicios");
    await expect(page.locator("h1")).toHaveText(/Del concepto a la pieza terminada/);
    expect(await hasWindowMarker(page), "no second reload").toBe(true);
    expect(documents).toEqual([]);
  } finally {
    restoreBuild();
  }
});

test("with the reload guard already set, a new build does not reload the page", async ({ page }) => {
  try {
    publishNewBuild();
    await openAndWaitForBuildCheck(page, "/about");
    await page.evaluate((key) => sessionStorage.setItem(key, String(Date.now())), RELOAD_GUARD_KEY);
    const documents = trackDocumentRequests(page);
    await setWindowMarker(page);
    await clickHeaderLink(page, "Contacto");
    await expect(page).toHaveURL(/\/contact$/);
    await expect(page.locator("h1")).toHaveText(/Hable con un ingeniero de Forja/);
    expect(await hasWindowMarker(page)).toBe(true);
    expect(documents).toEqual([]);
  } finally {
    restoreBuild();
  }
});

test("an expired guard (older than 10 s) no longer blocks the reload", async ({ page }) => {
  try {
    publishNewBuild();
    await openAndWaitForBuildCheck(page, "/about");
    await page.evaluate((key) => sessionStorage.setItem(key, String(Date.now() - 11_000)), RELOAD_GUARD_KEY);
    const documents = trackDocumentRequests(page);
    await setWindowMarker(page);
    await clickHeaderLink(page, "Contacto");
    await expect(page.locator("h1")).toHaveText(/Hable con un ingeniero de Forja/);
    await expect.poll(() => documents).toContainEqual(expect.stringMatching(/\/contact$/));
    expect(await hasWindowMarker(page)).toBe(false);
  } finally {
    restoreBuild();
  }
});
