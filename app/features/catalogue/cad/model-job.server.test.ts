import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, describe, expect, it, vi } from "vitest";

// The product model job on a real database, file store and worker thread (docs/decisions/0025): it
// builds a demo part into a STEP, an STL, a drawing and an image among the product's photos; the
// STEP it offers re-imports with the same volume; a second build of the same fingerprint comes from
// the cache without the kernel; a staff STEP replaces the model and its image in place; a file that
// is not a solid ends with a Spanish reason.

const dataDir = await vi.hoisted(async () => (await import("../../../../tests/support/test-env")).isolateTestEnv("model-job"));

import { eq } from "drizzle-orm";
// The test seeds products straight into the database, as the catalogue's seed does.
import { getDb } from "~/db/client.server";
import { productImages, productModels, products } from "~/db/schema/catalogue";
import { getFileStore } from "~/services/files/file-store.server";
import { useTestFileDatabase } from "../../../../tests/support/test-file-database";
// @ts-expect-error -- a plain ESM build script without type declarations
import { buildCadWorker } from "../../../../scripts/build-geometry-worker.mjs";
import { getProductBySlug } from "../product-page.server";
import { startModelJob } from "./model-job.server";
import { seedDemoModels, setStepModel, sha256 } from "./model-rows.server";
import { stepVolume } from "../../../../tests/support/step-volume";

const ROOT = path.resolve(import.meta.dirname, "../../../..");
const WORKER = path.join(ROOT, "node_modules/.cache/forja-cad-test", `job-worker-${process.pid}.mjs`);
const CACHE = fs.mkdtempSync(path.join(os.tmpdir(), "forja-cad-cache-"));
process.env.CAD_CACHE_DIR = CACHE;

const ids: Record<string, string> = {};
useTestFileDatabase(dataDir, async () => {
  await (buildCadWorker as (outfile: string) => Promise<void>)(WORKER);
  const rows = await getDb()
    .insert(products)
    .values([
      { slug: "bujes-bronce", sku: "FOR-BUJ-660", name: "Bujes de bronce SAE 660", category: "Bujes", shortDescription: "Bujes.", priceCentavos: 40_000 },
      { slug: "buje-bridado", sku: "FOR-BUJ-841", name: "Buje bridado de bronce sinterizado", category: "Bujes", shortDescription: "Buje.", priceCentavos: 5_800 },
      { slug: "pieza-propia", sku: "PROPIA-1", name: "Pieza propia", category: "Otros", shortDescription: "Pieza.", priceCentavos: 1_000 },
    ])
    .returning({ id: products.id, sku: products.sku });
  for (const row of rows) ids[row.sku] = row.id;
});

afterAll(() => {
  fs.rmSync(WORKER, { force: true });
  fs.rmSync(CACHE, { recursive: true, force: true });
});

async function modelRow(productId: string) {
  const [row] = await getDb().select().from(productModels).where(eq(productModels.productId, productId));
  return row!;
}

async function until(check: () => Promise<boolean>, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}


describe("product model job", () => {
  it("builds the demo parts into downloads, a drawing and an image, once", { timeout: 180_000 }, async () => {
    expect(await seedDemoModels()).toBe(2);
    expect(await seedDemoModels()).toBe(0);
    const job = startModelJob({ intervalMs: 100, workerFile: WORKER });
    try {
      await until(async () => (await modelRow(ids["FOR-BUJ-660"]!)).status === "ok" && (await modelRow(ids["FOR-BUJ-841"]!)).status === "ok");
    } finally {
      await job.stop();
    }
    const row = await modelRow(ids["FOR-BUJ-660"]!);
    const output = row.output!;
    expect(output.fingerprint).toBe(row.fingerprint);
    const store = getFileStore();
    const step = (await store.readBytes(output.files.step.path, 10_000_000))!;
    expect(step.subarray(0, 12).toString("latin1")).toBe("ISO-10303-21");
    const stl = (await store.readBytes(output.files.stl.path, 10_000_000))!;
    expect(stl.length).toBe(84 + 50 * stl.readUInt32LE(80));
    const svg = (await store.readBytes(output.files.drawing.path, 10_000_000))!.toString("utf8");
    expect(svg).toContain("<svg");
    expect(svg).toContain("FOR-BUJ-660");
    // What the page offers is what the kernel built: the STEP re-imports with the same volume.
    expect((await stepVolume(step)) / output.volumeMm3).toBeCloseTo(1, 2);
    const tube = ((Math.PI / 4) * (31.75 ** 2 - 25.4 ** 2)) * 25.4;
    expect(output.volumeMm3 / tube).toBeGreaterThan(0.95);
    expect(output.size.z).toBeCloseTo(25.4, 2);

    // Its image is the product's photo: cards, Open Graph and JSON-LD take it from there.
    const [image] = await getDb().select().from(productImages).where(eq(productImages.id, row.imageId!));
    expect(image).toMatchObject({ productId: ids["FOR-BUJ-660"], position: 0, alt: "Bujes de bronce SAE 660, modelo 3D" });
    const largest = image!.variants.at(-1)!;
    const webp = await sharp((await store.readBytes(largest.path, 10_000_000))!).metadata();
    expect(webp).toMatchObject({ format: "webp", width: largest.width, height: largest.height });

    const page = await getProductBySlug("bujes-bronce");
    expect(page?.images.map((candidate) => candidate.id)).toEqual([row.imageId]);
    expect(page?.model?.step.url).toBe(`/catalogo/bujes-bronce/cad/${row.fingerprint}/modelo.step`);
    expect(page?.model?.drawing.width).toBeGreaterThan(0);

    // The same fingerprint again (a new database, another server of this checkout): from the cache,
    // with no kernel at all — the worker file does not even exist.
    await getDb().update(productModels).set({ status: "pending", output: null }).where(eq(productModels.productId, ids["FOR-BUJ-660"]!));
    const cachedJob = startModelJob({ intervalMs: 100, workerFile: path.join(CACHE, "no-such-worker.mjs") });
    try {
      await until(async () => (await modelRow(ids["FOR-BUJ-660"]!)).status === "ok");
    } finally {
      await cachedJob.stop();
    }
    const again = await modelRow(ids["FOR-BUJ-660"]!);
    expect(again.output?.volumeMm3).toBe(output.volumeMm3);
    // The rendered image was replaced in place, not added.
    const images = await getDb().select().from(productImages).where(eq(productImages.productId, ids["FOR-BUJ-660"]!));
    expect(images).toHaveLength(1);
    expect(images[0]!.id).toBe(again.imageId);
    expect(images[0]!.position).toBe(0);
  });

  it("builds a staff STEP, and says why a file that is no solid has no model", { timeout: 180_000 }, async () => {
    const product = { id: ids["PROPIA-1"]!, name: "Pieza propia", sku: "PROPIA-1" };
    const cube = new Uint8Array(fs.readFileSync(path.join(ROOT, "tests/fixtures/cad/block-with-hole.step")));
    await getFileStore().putBytes("2026/11/propia.step", cube);
    await setStepModel(product, { path: "2026/11/propia.step", name: "bloque.step", size: cube.length, sha256: sha256(cube) }, "Aluminio 6061", "aluminio");
    const job = startModelJob({ intervalMs: 100, workerFile: WORKER });
    try {
      await until(async () => (await modelRow(product.id)).status === "ok");
      const built = await modelRow(product.id);
      expect(built.output!.volumeMm3 / (await stepVolume(cube))).toBeCloseTo(1, 2);

      const broken = new TextEncoder().encode("ISO-10303-21;\nHEADER;\nENDSEC;\nDATA;\nENDSEC;\nEND-ISO-10303-21;\n");
      await getFileStore().putBytes("2026/11/vacio.step", broken);
      await setStepModel(product, { path: "2026/11/vacio.step", name: "vacio.step", size: broken.length, sha256: sha256(broken) }, "", "acero");
      await until(async () => (await modelRow(product.id)).status === "failed");
    } finally {
      await job.stop();
    }
    const failed = await modelRow(product.id);
    expect(failed.reason).toMatch(/^No pudimos leer el modelo STEP/);
    // The page keeps the model it had until a new one is built.
    expect(failed.output?.volumeMm3).toBeGreaterThan(0);
  });
});
