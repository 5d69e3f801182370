// Fills the model cache with the demo catalogue's parts at build time (docs/decisions/0025), so a
// fresh database — a new installation, every test server — gets its drawings, downloads and images
// from the cache at once instead of waiting for the kernel. Bundled and run by
// scripts/build-catalogue-cad.mjs; a part whose fingerprint is cached already is skipped.
import * as r from "replicad";
import { loadCadKernel } from "~/lib/cad-kernel";
import { DEMO_PRODUCTS } from "../demo-products.server";
import { partArtifacts } from "./artifacts";
import { DEMO_MODELS } from "./demo-models";
import { fromThreadResult, modelFingerprint, readCache, writeCache } from "./model-cache";
import { buildPart } from "./models";

export async function prebuildDemoModels(log: (line: string) => void = () => {}): Promise<{ built: number; cached: number }> {
  let loaded = false;
  let built = 0;
  let cached = 0;
  for (const product of DEMO_PRODUCTS) {
    const model = DEMO_MODELS[product.sku];
    if (!model) continue;
    const meta = { title: product.name, sku: product.sku, material: model.material, notes: model.notes, finish: model.finish };
    const fingerprint = modelFingerprint({ spec: model.spec }, meta);
    if (await readCache(fingerprint)) {
      cached += 1;
      continue;
    }
    if (!loaded) {
      await loadCadKernel();
      loaded = true;
    }
    const started = performance.now();
    const artifacts = await partArtifacts(r, buildPart(r, model.spec), meta);
    await writeCache(fingerprint, await fromThreadResult(artifacts));
    built += 1;
    log(`  ${product.sku}: ${Math.round(performance.now() - started)} ms`);
  }
  return { built, cached };
}
