// Renders the public site's pictures and drawings (docs/decisions/0026): bundles scripts/site-imagery.ts
// (it reaches the catalogue's CAD models and renderer through the app's `~/` paths) with esbuild and
// runs it, like scripts/build-catalogue-cad.mjs. Run by `npm run build` and `npm run dev`; unchanged scenes are
// read from the CAD cache, so this takes a second when nothing changed.
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { bundle } from "./build-geometry-worker.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const outfile = path.join(root, "node_modules/.cache/forja-site-imagery.mjs");

await bundle("scripts/site-imagery.ts", outfile);
process.chdir(root);
await import(pathToFileURL(outfile).href);
