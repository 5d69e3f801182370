// Bundles the server's worker threads into files of their own, which the server starts with
// node:worker_threads: the geometry of attachments (app/features/solicitudes/geometry-thread.ts →
// build/geometry-worker.mjs) and the catalogue's CAD models (app/features/catalogue/cad/cad-thread.ts
// → build/cad-worker.mjs) and the per-byte work of uploads (app/services/files/upload-thread.ts →
// build/upload-worker.mjs). The server build bundles the app into build/server/index.js, where a
// worker's own module cannot live; these files are found beside it at run time. The OpenCascade
// packages stay external: they find their .wasm in node_modules.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const geometryWorkerFile = path.join(root, "build/geometry-worker.mjs");
export const cadWorkerFile = path.join(root, "build/cad-worker.mjs");
export const uploadWorkerFile = path.join(root, "build/upload-worker.mjs");

const EXTERNAL = ["occt-import-js", "replicad-opencascadejs", "replicad", "sharp"];

/**
 * Bundles a TypeScript entry of the app (relative to the project) into one ESM file for Node, the
 * OpenCascade packages (they find their .wasm in node_modules) and sharp (native) left external.
 * The build's other scripts use it too (build-catalogue-cad.mjs, build-site-imagery.mjs).
 */
export function bundle(entry, outfile) {
  return build({ entryPoints: [path.join(root, entry)], outfile, bundle: true, platform: "node", format: "esm", target: "node24", external: EXTERNAL, logLevel: "warning" });
}

/** Bundles the catalogue's CAD worker to `outfile` (default: the build's). */
export async function buildCadWorker(outfile = cadWorkerFile) {
  await bundle("app/features/catalogue/cad/cad-thread.ts", outfile);
}

/** Bundles the worker to `outfile` (default: the build's); it must sit inside the project, to find node_modules. */
export async function buildGeometryWorker(outfile = geometryWorkerFile) {
  await bundle("app/features/solicitudes/geometry-thread.ts", outfile);
}

/** Bundles the upload worker to `outfile` (default: the build's). */
export async function buildUploadWorker(outfile = uploadWorkerFile) {
  await bundle("app/services/files/upload-thread.ts", outfile);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await Promise.all([buildGeometryWorker(), buildCadWorker(), buildUploadWorker()]);
