import fs from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { axeViolations } from "./support/axe";
import { expect, test } from "./support/fixtures";
import { PROJECT_ROOT } from "./support/server";
import { createProduct, openStaffApi, signInStaffBrowser } from "./support/shop";
import { waitForHydration } from "./support/site";
import { expectDrawn, openViewer, SWIFTSHADER } from "./support/viewer";
import { stepVolume } from "../support/step-volume";

// Issue 12 §1 and §4: a catalogue part's page shows its technical drawing, its 3D viewer opens and
// draws, and its STEP and STL downloads are valid files (the STEP re-imports with the volume the page
// states); the catalogue's cards show the rendered parts; staff give a product a STEP of their own and
// its page then shows the same drawing, viewer and downloads (docs/decisions/0025).

test.use({ launchOptions: SWIFTSHADER });

const FLANGE = { slug: "brida-slip-on-acero-2-in-clase-150", name: "Brida slip-on de acero al carbón 2 in clase 150, maquinada", sku: "FOR-BRD-150" };

/** Opens a product page, reloading until its model is built (the job takes it from the build's cache within seconds). */
async function openWithModel(page: Page, slug: string): Promise<void> {
  await expect
    .poll(
      async () => {
        await page.goto(`/catalogo/${slug}`);
        return page.getByRole("heading", { name: "Dibujo y modelo CAD" }).count();
      },
      { timeout: 90_000, intervals: [500] },
    )
    .toBe(1);
}


/** "Volumen: 263 cm³." on the page → mm³. */
async function statedVolume(page: Page): Promise<number> {
  const text = await page.getByRole("region", { name: "Dibujo y modelo CAD" }).locator("p").first().textContent();
  const cm3 = /Volumen: ([\d,.]+) cm³/.exec(text ?? "")?.[1];
  expect(cm3, text ?? "").toBeTruthy();
  return Number(cm3!.replace(/,/g, "")) * 1000;
}

test("a demo part's page: drawing, 3D view and downloads that are the part", async ({ page }) => {
  await openWithModel(page, FLANGE.slug);
  const section = page.getByRole("region", { name: "Dibujo y modelo CAD" });
  const drawing = section.getByRole("img", { name: new RegExp(`^Dibujo técnico de ${FLANGE.name.replace(/[()]/g, ".")}`) });
  await expect(drawing).toBeVisible();
  // The drawing's SVG is in the page (decision 0071), drawn at the column's width in its own proportions.
  const drawn = await drawing.locator("svg").evaluate((svg: SVGSVGElement) => {
    const box = svg.getBoundingClientRect();
    return { width: box.width, height: box.height, ratio: svg.viewBox.baseVal.width / svg.viewBox.baseVal.height, views: svg.querySelectorAll("[data-view]").length };
  });
  expect(drawn.width).toBeGreaterThan(200);
  expect(drawn.width / drawn.height).toBeCloseTo(drawn.ratio, 1);
  expect(drawn.views).toBeGreaterThanOrEqual(4);
  await expect(section).toContainText("Medidas generales: 152.4 × 152.4 × 26.1 mm");

  // The downloads are the part: the STEP re-imports with the volume the page states.
  const stepLink = section.getByRole("link", { name: /^STEP/ });
  const [download] = await Promise.all([page.waitForEvent("download"), stepLink.click()]);
  expect(download.suggestedFilename()).toBe(`${FLANGE.sku}.step`);
  const step = new Uint8Array(fs.readFileSync(await download.path()));
  expect(new TextDecoder().decode(step.subarray(0, 12))).toBe("ISO-10303-21");
  expect((await stepVolume(step)) / (await statedVolume(page))).toBeCloseTo(1, 2);
  const stl = await page.request.get((await section.getByRole("link", { name: /^STL/ }).getAttribute("href"))!);
  expect(stl.headers()["content-disposition"]).toBe(`attachment; filename="${FLANGE.sku}.stl"; filename*=UTF-8''${FLANGE.sku}.stl`);
  const stlBytes = await stl.body();
  expect(stlBytes.length).toBe(84 + 50 * stlBytes.readUInt32LE(80));

  // The viewer opens over the drawing and draws the part.
  await waitForHydration(page);
  const { canvas, controls } = await openViewer(page, section);
  await expectDrawn(page, canvas);
  await controls.getByRole("button", { name: "Alambre" }).click();
  await expect(controls.getByRole("button", { name: "Alambre" })).toHaveAttribute("aria-pressed", "true");
  expect(await axeViolations(page)).toEqual([]);
});

test("the catalogue's cards show rendered parts, not grey tiles", async ({ page }) => {
  await openWithModel(page, "placa-montaje-aluminio-6061-300x200");
  await page.goto("/catalogo");
  const card = page.getByRole("list", { name: "Productos" }).getByRole("article").filter({ hasText: "Placa de montaje de aluminio 6061-T6" });
  // The card's image is decorative (the name is the card's heading): it is found by its address.
  const image = card.locator("img");
  await expect(image).toBeVisible();
  expect(await image.getAttribute("src")).toMatch(/^\/imagenes\/productos\/[0-9a-f-]{36}\/640\.webp$/);
  expect(await image.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBeGreaterThan(0);
});

test("staff give a product a STEP of its own, and its page shows its drawing and downloads", async ({ page, context, playwright }) => {
  const staff = await openStaffApi(playwright);
  const product = await createProduct(staff, { label: "Bloque barrenado" });
  await staff.dispose();
  await signInStaffBrowser(context);
  await page.goto(`/admin/productos/${product.id}`);
  await waitForHydration(page);
  const panel = page.getByRole("region", { name: "Modelo CAD" });
  await expect(panel.getByTestId("estado-modelo")).toHaveText("Sin modelo: la página del producto muestra solo sus fotos.");
  await panel.getByLabel("Subir un archivo STEP").setInputFiles(path.join(PROJECT_ROOT, "tests/fixtures/cad/block-with-hole.step"));
  await panel.getByLabel("Material (para el dibujo)").fill("Aluminio 6061-T6");
  await panel.getByLabel("Acabado de la imagen").selectOption("aluminio");
  await panel.getByRole("button", { name: "Subir modelo" }).click();
  await expect(page.getByText("Modelo recibido: estamos construyendo su dibujo, imagen y descargas.")).toBeVisible();
  await expect
    .poll(
      async () => {
        await page.reload();
        return page.getByTestId("estado-modelo").textContent();
      },
      { timeout: 90_000, intervals: [500] },
    )
    .toContain("Modelo del archivo «block-with-hole.step»: la página del producto muestra su dibujo");

  // A file that is not a STEP is refused with the reason, and the model stays.
  await panel.getByLabel("Reemplazar con un archivo STEP").setInputFiles({ name: "plano.step", mimeType: "application/step", buffer: Buffer.from("%PDF-1.4 no es un STEP") });
  await panel.getByRole("button", { name: "Subir modelo" }).click();
  await expect(panel.getByText("«plano.step» no es un archivo STEP válido")).toBeVisible();

  await page.goto(`/catalogo/${product.slug}`);
  const section = page.getByRole("region", { name: "Dibujo y modelo CAD" });
  await expect(section.getByRole("img", { name: `Dibujo técnico de ${product.name}: vista isométrica y vistas frontal, superior y lateral con sus medidas en milímetros.` })).toBeVisible();
  const href = await section.getByRole("link", { name: /^STEP/ }).getAttribute("href");
  const step = await page.request.get(href!);
  expect(step.status()).toBe(200);
  const original = new Uint8Array(fs.readFileSync(path.join(PROJECT_ROOT, "tests/fixtures/cad/block-with-hole.step")));
  expect((await stepVolume(new Uint8Array(await step.body()))) / (await stepVolume(original))).toBeCloseTo(1, 2);
});
