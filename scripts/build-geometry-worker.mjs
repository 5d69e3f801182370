// Bundles the server's geometry worker thread (app/features/solicitudes/geometry-thread.ts) into one
// file, build/geometry-worker.mjs, which the server starts with node:worker_threads. The server build
// bundles the app into build/server/index.js, where a worker's own module cannot live; this file is
// found beside it at run time. occt-import-js stays external: it finds its .wasm in node_modules.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const geometryWorkerFile = path.join(root, "build/geometry-worker.mjs");

/** Bundles the worker to `outfile` (default: the build's); it must sit inside the project, to find node_modules. */
export async function buildGeometryWorker(outfile = geometryWorkerFile) {
  await build({
    entryPoints: [path.join(root, "app/features/solicitudes/geometry-thread.ts")],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node24",
    external: ["occt-import-js"],
    logLevel: "warning",
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await buildGeometryWorker();
