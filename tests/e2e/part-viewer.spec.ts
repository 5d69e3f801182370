import fs from "node:fs";
import path from "node:path";
import { CUBE_OBJ, modelXml, threeMf } from "../../app/features/solicitudes/mesh-test-files";
import { binaryStlFile } from "../support/minimal-files";
import { axeViolations } from "./support/axe";
import { expect, test } from "./support/fixtures";
import { PROJECT_ROOT } from "./support/server";
import { waitForHydration } from "./support/site";
import { expectDrawn, openViewer, pixels, SWIFTSHADER } from "./support/viewer";
import { fetchFormToken, findSolicitudes, openStaffClient, quoteForm, quoteMultipart, quoteValues, signInStaffContext } from "./support/solicitudes";

// Issue 12 §1–2: the 3D part viewer. On /cotiza, beside the estimate of a STEP cube (tessellated by
// the CAD worker), of a 3MF cube (read by the same worker without the kernel) and of an STL; for
// staff, on a stored request's files. The scene (three.js) is a
// chunk of its own, fetched only when a viewer opens. Pixels are read back from screenshots of the
// canvas: headless Chromium draws WebGL with SwiftShader (software), which this file asks for
// explicitly so it keeps working where the automatic fallback is switched off.

test.use({ launchOptions: SWIFTSHADER });

const CUBE = "browser-cube-10mm.step";
const cubeFile = () => ({ name: CUBE, mimeType: "application/step", buffer: fs.readFileSync(path.join(PROJECT_ROOT, "tests/fixtures/cad", CUBE)) });
const CAD_REGION = "Estimación instantánea de sus archivos STEP, IGES, OBJ y 3MF";
const cube3mf = () => Buffer.from(threeMf(modelXml({ unit: "millimeter", size: 10 })));
const STL_REGION = "Estimación instantánea de sus archivos STL";
const THREE_MARK = "isWebGLRenderer"; // a property three.js's renderer carries, kept by minification

test("/cotiza: the STEP cube's 3D preview opens, draws, turns, zooms, cuts and closes; three.js loads only then", async ({ page }) => {
  // Every script the page (not its workers) loads, with its text.
  const scripts = new Map<string, Promise<string>>();
  page.on("response", (response) => {
    const { pathname } = new URL(response.url());
    if (pathname.startsWith("/assets/") && pathname.endsWith(".js") && response.request().resourceType() === "script") scripts.set(pathname, response.text());
  });
  expect((await page.goto("/cotiza"))?.status()).toBe(200);
  await waitForHydration(page);
  await quoteForm(page).files.setInputFiles(cubeFile());
  const card = page.getByRole("region", { name: CAD_REGION }).locator("article").filter({ hasText: CUBE });
  await expect(card.getByRole("button", { name: `Ver en 3D ${CUBE}` })).toBeVisible({ timeout: 20_000 });
  await page.waitForLoadState("networkidle");

  // Until now: no three.js among the page's scripts, and the viewer's chunk only imports the scene dynamically.
  const firstLoad = [...scripts.keys()];
  expect(firstLoad.length).toBeGreaterThan(0);
  for (const script of firstLoad) expect(await scripts.get(script)!, script).not.toContain(THREE_MARK);
  const viewerChunk = await Promise.all(firstLoad.map(async (script) => ((await scripts.get(script)!).includes("Controles de la vista 3D") ? script : null)));
  const viewerText = await scripts.get(viewerChunk.find(Boolean)!)!;
  expect(viewerText).toMatch(/import\([`'"]\.\/scene-[\w-]+\.js[`'"]\)/);

  const { canvas, controls } = await openViewer(page, card);
  const sceneScripts = [...scripts.keys()].filter((script) => !firstLoad.includes(script));
  expect(sceneScripts.filter((script) => /^\/assets\/scene-[\w-]+\.js$/.test(script))).toHaveLength(1);
  const withThree = await Promise.all(sceneScripts.map(async (script) => ((await scripts.get(script)!).includes(THREE_MARK) ? script : null)));
  expect(withThree.filter(Boolean)).toEqual([expect.stringMatching(/^\/assets\/scene-[\w-]+\.js$/)]);

  // The canvas is focused, labelled, described, and draws the part.
  await expect(canvas).toBeFocused();
  await expect(canvas).toHaveAccessibleName(`Modelo 3D de ${CUBE}`);
  await expect(canvas).toHaveAccessibleDescription(/las flechas giran, \+ y − acercan o alejan/);
  await expect(card.locator("figcaption")).toHaveText(`${CUBE} · 10 × 10 × 10 mm`);
  const solid = await expectDrawn(page, canvas);
  expect(solid.orange, "no section colour before «Corte»").toBe(0);

  // Keyboard: an arrow turns the view (the picture changes), + brings it closer (more pixels of the part).
  const before = await canvas.screenshot();
  await page.keyboard.press("ArrowRight");
  await expect.poll(async () => Buffer.compare(await canvas.screenshot(), before)).not.toBe(0);
  const turned = await pixels(page, canvas);
  await page.keyboard.press("+");
  await page.keyboard.press("+");
  await expect.poll(async () => (await pixels(page, canvas)).drawn).toBeGreaterThan(turned.drawn * 1.3);
  await controls.getByRole("button", { name: "Alejar" }).click();
  await controls.getByRole("button", { name: "Encuadrar" }).click();
  await expect.poll(async () => (await pixels(page, canvas)).drawn / turned.drawn).toBeLessThan(1.1);

  // «Alambre»: only lines are left, far fewer pixels; pressed state announced.
  const wireframe = controls.getByRole("button", { name: "Alambre" });
  await expect(wireframe).toHaveAttribute("aria-pressed", "false");
  await wireframe.click();
  await expect(wireframe).toHaveAttribute("aria-pressed", "true");
  await expect.poll(async () => (await pixels(page, canvas)).drawn).toBeLessThan(turned.drawn * 0.6);
  await wireframe.click();
  await expect(wireframe).toHaveAttribute("aria-pressed", "false");

  // «Corte»: the front half is cut away and the inside shows in orange.
  const section = controls.getByRole("button", { name: "Corte" });
  await expect(section).toHaveAttribute("aria-pressed", "false");
  await section.click();
  await expect(section).toHaveAttribute("aria-pressed", "true");
  await expect.poll(async () => (await pixels(page, canvas)).orange / turned.drawn).toBeGreaterThan(0.1);

  expect(await axeViolations(page)).toEqual([]);

  // «Cerrar»: the canvas goes, the button comes back with the focus.
  await controls.getByRole("button", { name: /^Cerrar/ }).click();
  await expect(card.locator("canvas")).toHaveCount(0);
  await expect(card.getByRole("button", { name: `Ver en 3D ${CUBE}` })).toBeFocused();
});

test("/cotiza: an STL's preview draws from the triangles read for its estimate", async ({ page }) => {
  await page.goto("/cotiza");
  await waitForHydration(page);
  await quoteForm(page).files.setInputFiles({ name: "soporte.stl", mimeType: "model/stl", buffer: Buffer.from(binaryStlFile()) });
  const card = page.getByRole("region", { name: STL_REGION }).locator("article").filter({ hasText: "soporte.stl" });
  const { canvas } = await openViewer(page, card);
  await expect(card.locator("figcaption")).toHaveText("soporte.stl · 10 × 20 × 30 mm");
  await expectDrawn(page, canvas);
});

test("/cotiza: a 3MF cube's preview draws from the triangles the worker read, without the kernel", async ({ page }) => {
  const wasm: string[] = [];
  page.context().on("request", (request) => {
    if (new URL(request.url()).pathname.endsWith(".wasm")) wasm.push(request.url());
  });
  await page.goto("/cotiza");
  await waitForHydration(page);
  await quoteForm(page).files.setInputFiles({ name: "tapa.3mf", mimeType: "model/3mf", buffer: cube3mf() });
  const card = page.getByRole("region", { name: CAD_REGION }).locator("article").filter({ hasText: "tapa.3mf" });
  await expect(card.getByRole("button", { name: "Ver en 3D tapa.3mf" })).toBeVisible({ timeout: 20_000 });
  const { canvas, controls } = await openViewer(page, card);
  await expect(canvas).toHaveAccessibleName("Modelo 3D de tapa.3mf");
  await expect(card.locator("figcaption")).toHaveText("tapa.3mf · 10 × 10 × 10 mm");
  const solid = await expectDrawn(page, canvas);
  expect(solid.orange, "no section colour before «Corte»").toBe(0);
  // A closed mesh cut open shows its inside in orange, as the STEP cube does.
  await controls.getByRole("button", { name: "Corte" }).click();
  await expect.poll(async () => (await pixels(page, canvas)).orange / solid.drawn).toBeGreaterThan(0.1);
  expect(wasm).toEqual([]);
});

test("without a WebGL context the viewer says so and the page stays usable", async ({ page }) => {
  // The browser has WebGL but refuses a context (blocked, or a lost GPU): three.js cannot start.
  await page.addInitScript(() => {
    const original = HTMLCanvasElement.prototype.getContext;
    HTMLCanvasElement.prototype.getContext = function (this: HTMLCanvasElement, type: string, ...rest: unknown[]) {
      return /webgl/.test(type) ? null : (original as (...args: unknown[]) => unknown).call(this, type, ...rest);
    } as typeof original;
  });
  await page.goto("/cotiza");
  await waitForHydration(page);
  await quoteForm(page).files.setInputFiles({ name: "soporte.stl", mimeType: "model/stl", buffer: Buffer.from(binaryStlFile()) });
  const card = page.getByRole("region", { name: STL_REGION }).locator("article").filter({ hasText: "soporte.stl" });
  await card.getByRole("button", { name: /^Ver en 3D/ }).click();
  await expect(card).toContainText("Su navegador no puede mostrar la vista 3D.");
  await expect(card.locator("canvas")).toHaveCount(0);
  await expect(card).toContainText("10 × 20 × 30 mm"); // the estimate is still there
});

test("staff open the stored STEP, STL, OBJ and 3MF of a request in 3D on its detail page", async ({ page, request, playwright }) => {
  // Four models, each parsed in the browser (the STEP one by the OpenCascade kernel in WebAssembly):
  // on a busy two-core machine that alone took past the default 30 s.
  test.setTimeout(120_000);
  const values = quoteValues();
  const token = await fetchFormToken(request, "/cotiza");
  await page.waitForTimeout(3_100); // the form refuses a post sooner than 3 s after it was shown
  const cube = cubeFile();
  const sent = await request.post("/cotiza", {
    multipart: quoteMultipart(values, token, [
      { name: cube.name, bytes: cube.buffer, type: cube.mimeType },
      { name: "soporte.stl", bytes: binaryStlFile(), type: "model/stl" },
      { name: "cubo.obj", bytes: new TextEncoder().encode(CUBE_OBJ), type: "model/obj" },
      { name: "tapa.3mf", bytes: cube3mf(), type: "model/3mf" },
    ]),
    maxRedirects: 0,
  });
  expect(sent.status()).toBe(302);
  const staff = await openStaffClient(playwright);
  let id: string;
  try {
    const found = await findSolicitudes(staff, values.tag);
    expect(found).toHaveLength(1);
    id = found[0].id;
  } finally {
    await staff.dispose();
  }

  await signInStaffContext(page.context());
  expect((await page.goto(`/admin/formularios/${id}`))?.status()).toBe(200);
  await waitForHydration(page);
  const files = page.getByRole("region", { name: "Archivos" }).getByRole("listitem");

  const stl = files.filter({ hasText: "soporte.stl" });
  const stlView = await openViewer(page, stl);
  await expectDrawn(page, stlView.canvas);
  await stlView.controls.getByRole("button", { name: /^Cerrar/ }).click();

  // STEP: the browser fetches the stored file and tessellates it with the CAD worker.
  const step = files.filter({ hasText: CUBE });
  const worker = page.waitForEvent("worker");
  const stepView = await openViewer(page, step);
  expect(new URL((await worker).url()).pathname).toMatch(/^\/assets\/cad-worker-[\w-]+\.js$/);
  await expectDrawn(page, stepView.canvas);
  await stepView.controls.getByRole("button", { name: "Corte" }).click();
  await expect(stepView.controls.getByRole("button", { name: "Corte" })).toHaveAttribute("aria-pressed", "true");
  expect(await axeViolations(page)).toEqual([]);
  await stepView.controls.getByRole("button", { name: /^Cerrar/ }).click();

  // OBJ and 3MF: fetched from the store and read by the same worker, without the kernel.
  for (const name of ["cubo.obj", "tapa.3mf"]) {
    const view = await openViewer(page, files.filter({ hasText: name }));
    await expectDrawn(page, view.canvas);
    await view.controls.getByRole("button", { name: /^Cerrar/ }).click();
  }
});
