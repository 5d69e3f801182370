import fs from "node:fs";
import path from "node:path";
import type { Page, Route } from "@playwright/test";
import { CUBE_OBJ, modelXml, threeMf } from "../../app/features/solicitudes/mesh-test-files";
import { axeViolations } from "./support/axe";
import { expect, test } from "./support/fixtures";
import { PROJECT_ROOT } from "./support/server";
import { waitForHydration } from "./support/site";
import { fillQuoteForm, findSolicitudes, openStaffClient, quoteForm, quoteValues, waitFillTime } from "./support/solicitudes";

// Issue 12 §2 (browser half): a STEP file chosen on /cotiza is read in the browser by OpenCascade
// (WebAssembly, in a Web Worker loaded only then) and shown with the instant estimate; the customer
// can say the model is in inches; a file that cannot be read is still sent. OBJ and 3MF meshes are read
// by the same worker without the kernel. Against the production build.

const CAD_DIR = path.join(PROJECT_ROOT, "tests/fixtures/cad");
const cadFile = (name: string) => ({ name, mimeType: "application/step", buffer: fs.readFileSync(path.join(CAD_DIR, name)) });
const REGION = "Estimación instantánea de sus archivos STEP, IGES, OBJ y 3MF";
const UNREADABLE = "No pudimos leer la geometría; la revisaremos al recibir su solicitud.";
const PRICE_RANGE = /Precio indicativo: (\$[\d,]+\.\d\d – \$[\d,]+\.\d\d) MXN, IVA incluido/;

/** Text with Intl's non-breaking spaces made ordinary. */
const plain = (text: string | null) => (text ?? "").replace(/[\u00a0\u202f]/g, " ");

/** Every URL this page (and its workers) requests. */
function trackRequests(page: Page): string[] {
  const urls: string[] = [];
  page.context().on("request", (request) => urls.push(new URL(request.url()).pathname));
  return urls;
}
const isCadAsset = (pathname: string) => /\/assets\/cad-worker-[\w-]+\.js$/.test(pathname) || pathname.endsWith(".wasm");

function card(page: Page, name: string) {
  return page.getByRole("region", { name: REGION }).locator("article").filter({ hasText: name });
}

function figure(within: ReturnType<typeof card>, label: string) {
  return within.locator(`xpath=.//dt[normalize-space()="${label}"]/following-sibling::dd[1]`);
}

async function openCotiza(page: Page): Promise<number> {
  const response = await page.goto("/cotiza");
  expect(response?.status()).toBe(200);
  await waitForHydration(page);
  return Date.now();
}

test("neither / nor /cotiza downloads the CAD worker or the kernel until a STEP file is chosen", async ({ page }) => {
  const urls = trackRequests(page);
  await page.goto("/");
  await waitForHydration(page);
  await page.waitForLoadState("networkidle");
  expect(urls.some((url) => url.startsWith("/assets/"))).toBe(true); // the tracking sees the page's assets
  expect(urls.filter(isCadAsset)).toEqual([]);

  await openCotiza(page);
  await quoteForm(page).files.setInputFiles({ name: "plano.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4\n%%EOF\n") });
  await page.waitForLoadState("networkidle");
  expect(urls.filter(isCadAsset)).toEqual([]);
  await expect(page.getByRole("region", { name: REGION })).toHaveCount(0);

  const worker = page.waitForEvent("worker");
  await quoteForm(page).files.setInputFiles(cadFile("browser-cube-10mm.step"));
  expect(new URL((await worker).url()).pathname).toMatch(/^\/assets\/cad-worker-[\w-]+\.js$/);
  await expect(figure(card(page, "browser-cube-10mm.step"), "Volumen de la pieza")).toHaveText("1 cm³", { timeout: 20_000 });
  const wasm = urls.filter((url) => url.endsWith(".wasm"));
  expect(wasm).toHaveLength(1);
  expect(wasm[0]).toMatch(/^\/assets\/occt-import-js-[\w-]+\.wasm$/);
});

test("a 10 mm STEP cube: reading, figures in mm, the estimate, and the switch to inches by keyboard", async ({ page }) => {
  // Hold the kernel back until "Leyendo geometría…" has been seen, then let it through.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.context().route("**/*.wasm", async (route: Route) => {
    await held;
    await route.continue();
  });
  await openCotiza(page);
  await quoteForm(page).service.selectOption("prototipado-rapido");
  await quoteForm(page).files.setInputFiles(cadFile("browser-cube-10mm.step"));

  const cube = card(page, "browser-cube-10mm.step");
  await expect(cube).toContainText("Leyendo geometría…");
  await expect(page.getByRole("region", { name: REGION }).locator("[aria-live=polite]")).toHaveAttribute("aria-busy", "true");
  release();

  await expect(cube).toContainText("Unidades detectadas: milímetros.", { timeout: 20_000 });
  await expect(figure(cube, "Volumen de la pieza")).toHaveText("1 cm³");
  await expect(figure(cube, "Área de superficie")).toHaveText("6 cm²");
  await expect(figure(cube, "Dimensiones (caja envolvente)")).toHaveText("10 × 10 × 10 mm");
  await expect(cube).not.toContainText("sólido cerrado");
  await expect(cube).toContainText("Es una estimación automática; la cotización formal la envía nuestro equipo.");
  // 1 cm³ of 3D printing is below the minimum order: the range is the minimum charge with IVA ($350 and $1,200 + 16 %).
  expect(PRICE_RANGE.exec(plain(await cube.textContent()))?.[1]).toBe("$406.00 – $1,392.00");

  const units = cube.getByRole("group", { name: "Unidades del modelo" });
  const mm = units.getByRole("radio", { name: "Milímetros" });
  const inches = units.getByRole("radio", { name: "Pulgadas" });
  await expect(mm).toBeChecked();
  await mm.focus();
  await page.keyboard.press("ArrowRight");
  await expect(inches).toBeChecked();
  await expect(inches).toBeFocused();
  await expect(figure(cube, "Volumen de la pieza")).toHaveText("16,387.06 cm³");
  await expect(figure(cube, "Área de superficie")).toHaveText("3,870.96 cm²");
  await expect(figure(cube, "Dimensiones (caja envolvente)")).toHaveText("254 × 254 × 254 mm");
  // 16,387.064 cm³ × $5.00–$22.00 per cm³, plus IVA.
  expect(PRICE_RANGE.exec(plain(await cube.textContent()))?.[1]).toBe("$95,044.97 – $418,197.88");
  await expect(cube).toContainText("Unidades detectadas: milímetros.");

  // Back to millimetres with the other arrow key.
  await page.keyboard.press("ArrowLeft");
  await expect(figure(cube, "Volumen de la pieza")).toHaveText("1 cm³");
  expect(await axeViolations(page)).toEqual([]);
});

test("an inch STEP cube is detected as inches and can be read as millimetres", async ({ page }) => {
  await openCotiza(page);
  await quoteForm(page).files.setInputFiles(cadFile("browser-cube-1in.step"));
  const cube = card(page, "browser-cube-1in.step");
  await expect(cube).toContainText("Unidades detectadas: pulgadas.", { timeout: 20_000 });
  await expect(cube.getByRole("radio", { name: "Pulgadas" })).toBeChecked();
  await expect(figure(cube, "Volumen de la pieza")).toHaveText("16.39 cm³");
  await expect(figure(cube, "Dimensiones (caja envolvente)")).toHaveText("25.4 × 25.4 × 25.4 mm");
  await cube.getByRole("radio", { name: "Milímetros" }).check();
  await expect(figure(cube, "Volumen de la pieza")).toHaveText("0.001 cm³");
  await expect(figure(cube, "Dimensiones (caja envolvente)")).toHaveText("1 × 1 × 1 mm");
});

test("IGES cubes (trimmed surfaces, scripts/make-iges.mjs) are read in the browser: 10 mm in mm, 1 in in inches", async ({ page }) => {
  await openCotiza(page);
  const iges = (name: string) => ({ ...cadFile(name), mimeType: "model/iges" });
  await quoteForm(page).files.setInputFiles([iges("cube-10mm.igs"), iges("cube-1in.igs")]);

  const mm = card(page, "cube-10mm.igs");
  await expect(mm).toContainText("Unidades detectadas: milímetros.", { timeout: 20_000 });
  await expect(figure(mm, "Volumen de la pieza")).toHaveText("1 cm³");
  await expect(figure(mm, "Área de superficie")).toHaveText("6 cm²");
  await expect(figure(mm, "Dimensiones (caja envolvente)")).toHaveText("10 × 10 × 10 mm");

  const inch = card(page, "cube-1in.igs");
  await expect(inch).toContainText("Unidades detectadas: pulgadas.", { timeout: 20_000 });
  await expect(figure(inch, "Volumen de la pieza")).toHaveText("16.39 cm³");
  await expect(figure(inch, "Dimensiones (caja envolvente)")).toHaveText("25.4 × 25.4 × 25.4 mm");
});

test("OBJ and 3MF cubes are read in the browser without the kernel: 1 cm³, 10 × 10 × 10 mm, their units, a 3MF in µm", async ({ page }) => {
  const urls = trackRequests(page);
  await openCotiza(page);
  await quoteForm(page).service.selectOption("prototipado-rapido");
  const worker = page.waitForEvent("worker");
  await quoteForm(page).files.setInputFiles([
    { name: "cubo.obj", mimeType: "model/obj", buffer: Buffer.from(CUBE_OBJ) },
    { name: "cubo.3mf", mimeType: "model/3mf", buffer: Buffer.from(threeMf(modelXml({ unit: "millimeter", size: 10 }))) },
    { name: "cubo-micras.3mf", mimeType: "model/3mf", buffer: Buffer.from(threeMf(modelXml({ unit: "micron", size: 10_000 }))) },
  ]);
  expect(new URL((await worker).url()).pathname).toMatch(/^\/assets\/cad-worker-[\w-]+\.js$/);

  const obj = card(page, "cubo.obj");
  await expect(obj).toContainText("El archivo no indica sus unidades; suponemos milímetros.", { timeout: 20_000 });
  await expect(obj.getByRole("radio", { name: "Milímetros" })).toBeChecked();
  for (const name of ["cubo.obj", "cubo.3mf", "cubo-micras.3mf"]) {
    const cube = card(page, name);
    await expect(figure(cube, "Volumen de la pieza"), name).toHaveText("1 cm³", { timeout: 20_000 });
    await expect(figure(cube, "Área de superficie"), name).toHaveText("6 cm²");
    await expect(figure(cube, "Dimensiones (caja envolvente)"), name).toHaveText("10 × 10 × 10 mm");
    await expect(cube).not.toContainText("sólido cerrado");
    expect(PRICE_RANGE.exec(plain(await cube.textContent()))?.[1], name).toBe("$406.00 – $1,392.00");
  }
  await expect(card(page, "cubo.3mf")).toContainText("Unidades detectadas: milímetros.");
  const micrometres = card(page, "cubo-micras.3mf");
  await expect(micrometres).toContainText("Unidades detectadas: micrómetros.");
  await expect(micrometres.getByRole("radio", { name: "Micrómetros" })).toBeChecked();
  // The customer says the numbers were millimetres after all: 1000 times larger on each side.
  await micrometres.getByRole("radio", { name: "Milímetros" }).check();
  await expect(figure(micrometres, "Dimensiones (caja envolvente)")).toHaveText("10,000 × 10,000 × 10,000 mm");

  // No STEP or IGES among them: the kernel's .wasm was never fetched.
  await page.waitForLoadState("networkidle");
  expect(urls.filter((url) => url.endsWith(".wasm"))).toEqual([]);
  expect(await axeViolations(page)).toEqual([]);
});

test("an open OBJ is still measured and priced, with the note; an OBJ that cannot be read gets the note", async ({ page }) => {
  await openCotiza(page);
  await quoteForm(page).service.selectOption("prototipado-rapido");
  await quoteForm(page).files.setInputFiles([
    { name: "sin-tapa.obj", mimeType: "model/obj", buffer: Buffer.from(CUBE_OBJ.replace("f 5//1 6//1 7//1 8//1\n", "")) },
    { name: "roto.obj", mimeType: "model/obj", buffer: Buffer.from("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n") },
  ]);
  const open = card(page, "sin-tapa.obj");
  await expect(open).toContainText("El modelo no forma un sólido cerrado: el volumen es aproximado.", { timeout: 20_000 });
  await expect(figure(open, "Área de superficie")).toHaveText("5 cm²");
  expect(PRICE_RANGE.exec(plain(await open.textContent()))?.[1]).toBe("$406.00 – $1,392.00");
  const broken = card(page, "roto.obj");
  await expect(broken).toContainText(UNREADABLE, { timeout: 20_000 });
  await expect(broken.getByRole("radio")).toHaveCount(0);
});

test("a STEP file that cannot be read gets the note, and the request is sent and stored with it", async ({ page, playwright }) => {
  const shownAt = await openCotiza(page);
  const values = quoteValues();
  await fillQuoteForm(page, values);
  const broken = cadFile("browser-corrupt-cut-off.step");
  await quoteForm(page).files.setInputFiles(broken);
  const note = card(page, broken.name);
  await expect(note).toContainText(UNREADABLE, { timeout: 20_000 });
  await expect(note.getByRole("radio")).toHaveCount(0);

  await waitFillTime(page, shownAt);
  await quoteForm(page).submit.click();
  await page.waitForURL(/\/cotiza\/enviada\?folio=SOL-\d{4}-\d{4,}$/);
  const number = new URL(page.url()).searchParams.get("folio");

  // Staff find the request with the file, byte for byte.
  const staff = await openStaffClient(playwright);
  try {
    const found = await findSolicitudes(staff, values.tag);
    expect(found).toEqual([{ id: expect.any(String), number }]);
    const html = await (await staff.get(`/admin/formularios/${found[0].id}`)).text();
    const links = [...html.matchAll(/href="(\/admin\/formularios\/[0-9a-f-]{36}\/archivos\/[0-9a-f-]{36})"[^>]*download="([^"]+)"/g)].map((match) => ({ href: match[1], name: match[2] }));
    expect(links.map((link) => link.name)).toEqual([broken.name]);
    const stored = await staff.get(links[0].href);
    expect(stored.status()).toBe(200);
    expect(Buffer.compare(await stored.body(), broken.buffer)).toBe(0);
  } finally {
    await staff.dispose();
  }
});
