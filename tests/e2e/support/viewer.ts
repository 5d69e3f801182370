import type { Locator, Page, PlaywrightWorkerOptions } from "@playwright/test";
import { expect } from "./fixtures";

// The 3D part viewer in browser tests (docs/decisions/0024): headless Chromium draws WebGL with
// SwiftShader (software), asked for explicitly so it keeps working where the automatic fallback is
// switched off; pixels are read back from screenshots of the canvas.

/** `test.use({ launchOptions: SWIFTSHADER })` in a spec that opens the viewer. */
export const SWIFTSHADER: [
  (args: { launchOptions: PlaywrightWorkerOptions["launchOptions"] }, use: (options: PlaywrightWorkerOptions["launchOptions"]) => Promise<void>) => Promise<void>,
  { scope: "worker" },
] = [
  async ({ launchOptions }, use) => {
    await use({ ...launchOptions, args: [...(launchOptions.args ?? []), "--enable-unsafe-swiftshader", "--use-angle=swiftshader"] });
  },
  { scope: "worker" },
];

export interface Pixels {
  total: number;
  /** Pixels clearly unlike the background (the corner pixel). */
  drawn: number;
  /** Pixels of the section's orange (#c2410c and its shades). */
  orange: number;
}

/** Counts what a screenshot of the canvas shows (decoded in the page: no image library needed). */
export async function pixels(page: Page, canvas: Locator): Promise<Pixels> {
  const png = (await canvas.screenshot()).toString("base64");
  return page.evaluate(async (data) => {
    const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
    const bitmap = await createImageBitmap(new Blob([bytes], { type: "image/png" }));
    const surface = new OffscreenCanvas(bitmap.width, bitmap.height);
    const context = surface.getContext("2d")!;
    context.drawImage(bitmap, 0, 0);
    const { data: rgba, width, height } = context.getImageData(0, 0, bitmap.width, bitmap.height);
    const [br, bg, bb] = [rgba[0], rgba[1], rgba[2]];
    let drawn = 0;
    let orange = 0;
    for (let i = 0; i < rgba.length; i += 4) {
      const [r, g, b] = [rgba[i], rgba[i + 1], rgba[i + 2]];
      if (Math.abs(r - br) + Math.abs(g - bg) + Math.abs(b - bb) > 40) drawn++;
      if (r > 140 && r - b > 90 && r - g > 50) orange++;
    }
    return { total: width * height, drawn, orange };
  }, png);
}

/** Opens the viewer inside `within` and waits until it has drawn (the controls are enabled). */
export async function openViewer(page: Page, within: Locator): Promise<{ canvas: Locator; controls: Locator }> {
  await within.getByRole("button", { name: /^Ver en 3D/ }).click();
  const canvas = within.locator("canvas");
  await expect(canvas).toBeVisible();
  const controls = within.getByRole("group", { name: "Controles de la vista 3D" });
  await expect(controls.getByRole("button", { name: "Encuadrar" })).toBeEnabled({ timeout: 20_000 });
  await expect(within.getByText("Cargando la vista 3D…")).toHaveCount(0);
  return { canvas, controls };
}

/** Waits until the canvas shows a part: a good share of its pixels unlike the background. */
export async function expectDrawn(page: Page, canvas: Locator): Promise<Pixels> {
  let last: Pixels | undefined;
  await expect
    .poll(async () => {
      last = await pixels(page, canvas);
      return last.drawn / last.total;
    })
    .toBeGreaterThan(0.05);
  return last!;
}

