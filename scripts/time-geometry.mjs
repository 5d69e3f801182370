// Times the server's geometry worker (build/geometry-worker.mjs, from `npm run build`) on one CAD
// file, as the background job runs it: a fresh thread with a 512 MB old-generation limit.
// GEOMETRY_WORKER_FILE names another bundle, as for the server.
//   node scripts/make-step.mjs --large 50 /tmp/large.step && node scripts/time-geometry.mjs /tmp/large.step
import fs from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";

const file = process.argv[2];
if (!file) throw new Error("uso: node scripts/time-geometry.mjs <archivo.step|.iges|.stl|.obj|.3mf>");
const format = /\.(iges|igs)$/i.test(file) ? "iges" : /\.(stl|obj|3mf)$/i.exec(file)?.[1].toLowerCase() ?? "step";
const bytes = new Uint8Array(fs.readFileSync(file));
const started = performance.now();
const worker = new Worker(path.resolve(process.env.GEOMETRY_WORKER_FILE ?? "build/geometry-worker.mjs"), { resourceLimits: { maxOldGenerationSizeMb: 512 } });
const answer = await new Promise((resolve, reject) => {
  worker.once("message", resolve);
  worker.once("error", reject);
  worker.postMessage({ format, bytes: bytes.buffer }, [bytes.buffer]);
});
const seconds = (performance.now() - started) / 1000;
await worker.terminate();
const mb = fs.statSync(file).size / 1024 / 1024;
console.log(JSON.stringify({ file, mb: Number(mb.toFixed(1)), seconds: Number(seconds.toFixed(2)), secondsPerMb: Number((seconds / mb).toFixed(3)), answer }));
