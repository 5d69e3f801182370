// Builds the demo catalogue's CAD models into the model cache (docs/decisions/0025), run by
// `npm run build`: bundles app/features/catalogue/cad/prebuild.ts with esbuild (the app's modules
// are TypeScript) and runs it. Parts already cached (same fingerprint) are skipped, so a rebuild
// with unchanged models takes a moment.
import path from "node:path";
import { pathToFileURL, fileURLToPath } from "node:url";
import { bundle } from "./build-geometry-worker.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const outfile = path.join(root, "node_modules/.cache/forja-cad-prebuild.mjs");

await bundle("app/features/catalogue/cad/prebuild.ts", outfile);
const { prebuildDemoModels } = await import(pathToFileURL(outfile).href);
const started = Date.now();
const { built, cached } = await prebuildDemoModels((line) => console.log(line));
console.log(`Modelos CAD del catálogo: ${built} construidos, ${cached} ya en caché (${((Date.now() - started) / 1000).toFixed(1)} s).`);
