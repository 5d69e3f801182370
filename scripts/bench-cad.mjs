// CAD figures of `npm run bench` (issue 12 §4), on a generated 5 MB STEP of blocks with a hole
// (scripts/make-step.mjs), both against what the same run can measure around them:
// - the server's recompute: the geometry worker thread (build/geometry-worker.mjs) in seconds per MB,
//   fresh for the file as the background job starts it after a while without files, and then the
//   same file again in that thread, as the job measures the files after it (docs/decisions/0070);
//   the floor is reading the same file from disk and hashing it (SHA-256), measured right before and
//   right after the fresh thread's figure (docs/decisions/0019);
// - the time to the first estimate in the browser: Chromium on /cotiza of the production server,
//   from choosing the file to the estimate's volume on screen, once with an empty browser cache
//   (the kernel is downloaded and compiled) and once more with the kernel in the cache.
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { chromium } from "@playwright/test";
import { startSeededServer } from "./bench-support.mjs";
import { manyBlocksStep } from "./make-step.mjs";

const MB = 1024 * 1024;

/** About `megabytes` MB of STEP: blocks with a hole (3 cm³ each), side by side. */
export function benchStep(megabytes) {
  const { text, count } = manyBlocksStep(megabytes * MB);
  return { text, solids: count };
}

/** A geometry thread as the job starts it. */
const geometryWorker = (workerFile) => new Worker(workerFile, { resourceLimits: { maxOldGenerationSizeMb: 512 } });

/** One file through `worker` (its kernel loaded by the first file it gets); seconds, with the answer. */
function recompute(worker, bytes) {
  const started = performance.now();
  const copy = new Uint8Array(bytes).buffer;
  return new Promise((resolve, reject) => {
    worker.once("message", (answer) => {
      const seconds = (performance.now() - started) / 1000;
      if (!answer.ok) reject(new Error(`el hilo de geometría no midió el archivo: ${answer.reason}`));
      else resolve({ seconds, answer });
    });
    worker.once("error", reject);
    worker.postMessage({ format: "step", bytes: copy }, [copy]);
  });
}

/** One file through a fresh geometry thread, ended afterwards; seconds, with the answer. */
async function recomputeFresh(workerFile, bytes) {
  const worker = geometryWorker(workerFile);
  try {
    return await recompute(worker, bytes);
  } finally {
    await worker.terminate();
  }
}

/** Reads the file from disk and hashes it, `rounds` times; seconds per round (the floor). */
function readAndHash(file, rounds = 20) {
  const started = performance.now();
  for (let i = 0; i < rounds; i++) createHash("sha256").update(fs.readFileSync(file)).digest();
  return (performance.now() - started) / 1000 / rounds;
}

export async function benchGeometryPerMb() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "forja-bench-cad-"));
  try {
    const { text, solids } = benchStep(5);
    const file = path.join(dir, "muchas-piezas.step");
    fs.writeFileSync(file, text);
    const bytes = new Uint8Array(fs.readFileSync(file));
    const mb = bytes.length / MB;
    const workerFile = path.resolve("build/geometry-worker.mjs");
    // Warm-up (the figure, then the floor), then floor → figure → floor.
    await recomputeFresh(workerFile, bytes);
    readAndHash(file);
    const floorBefore = readAndHash(file) / mb;
    const { seconds, answer } = await recomputeFresh(workerFile, bytes);
    const floorAfter = readAndHash(file) / mb;
    const expected = solids * 3000;
    const check = (measured) => {
      if (measured.figures.volumeMm3 !== expected) throw new Error(`volumen ${measured.figures.volumeMm3} mm³, se esperaban ${expected}`);
    };
    check(answer);
    // The kept thread: the second file a thread measures (its kernel loaded by the first).
    const kept = geometryWorker(workerFile);
    let keptSeconds;
    try {
      await recompute(kept, bytes);
      const again = await recompute(kept, bytes);
      check(again.answer);
      keptSeconds = again.seconds;
    } finally {
      await kept.terminate();
    }
    const value = seconds / mb;
    return { mb, solids, seconds, keptSeconds, value, floorBefore, floorAfter, ratio: value / ((floorBefore + floorAfter) / 2) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

function chromiumPath() {
  const candidates = [process.env.CHROME_PATH, "/usr/bin/chromium"].filter(Boolean);
  const found = candidates.find((candidate) => fs.existsSync(candidate));
  if (!found) throw new Error("No se encontró Chromium: instálelo (apt-get install -y chromium) o indique CHROME_PATH.");
  return found;
}

/** Choose the file on /cotiza and wait for the estimate's volume; ms and the volume shown. */
async function timeToEstimate(context, base, file) {
  const page = await context.newPage();
  try {
    await page.goto(`${base}/cotiza`);
    await page.locator("html[data-hydrated=true]").waitFor({ state: "attached" });
    const volume = page.locator('xpath=//dt[normalize-space()="Volumen de la pieza"]/following-sibling::dd[1]').first();
    const started = performance.now();
    await page.locator('input[type="file"][name="files"]').setInputFiles(file);
    await volume.filter({ hasText: "cm³" }).waitFor({ timeout: 120_000 });
    return { ms: performance.now() - started, volume: (await volume.textContent())?.replace(/[\u00a0\u202f]/g, " ") };
  } finally {
    await page.close();
  }
}

export async function benchBrowserEstimate() {
  const { text, solids } = benchStep(5);
  const file = { name: "muchas-piezas.step", mimeType: "application/step", buffer: Buffer.from(text) };
  // Chromium is looked for before anything starts, and launched inside the try: a machine without it
  // gets the error and no server left running.
  const executablePath = chromiumPath();
  const server = await startSeededServer();
  let browser;
  try {
    browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
    const context = await browser.newContext();
    const cold = await timeToEstimate(context, server.url, file);
    const cached = await timeToEstimate(context, server.url, file);
    await context.close();
    return { mb: file.buffer.length / MB, solids, cold, cached };
  } finally {
    await browser?.close();
    await server.stop();
  }
}
