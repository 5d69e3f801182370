// `npm start` serves the production build; build it first when it is missing or older than the sources.
// Test files (*.test.ts, *.spec.ts) never reach the build, so editing one does not rebuild. Several
// processes may ask at once (parallel test files, `npm start` beside a test run): one builds, under
// a lock directory, and the others wait for it and then find the build current.
import { execSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const marker = path.resolve("build/server/index.js");
const lock = path.resolve("build.lock");
// The build's own scripts count too: the worker bundles, the catalogue's models and the site's imagery.
const sources = [
  "app",
  "server",
  "public",
  "vite.config.ts",
  "react-router.config.ts",
  "package-lock.json",
  "scripts/build-geometry-worker.mjs",
  "scripts/build-catalogue-cad.mjs",
  "scripts/build-site-imagery.mjs",
  "scripts/site-imagery.ts",
];
/** A build normally takes about a minute; a lock older than this was left by a killed build. */
const STALE_LOCK_MS = 10 * 60_000;

const isTestFile = (name) => /\.(test|spec)\.tsx?$/.test(name);

function newestMtime(target) {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target)) {
    if (isTestFile(entry)) continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

function needsBuild() {
  const built = fs.existsSync(marker) ? fs.statSync(marker).mtimeMs : 0;
  const changed = Math.max(...sources.map((source) => newestMtime(path.resolve(source))));
  return built === 0 ? "first" : changed > built ? "changed" : null;
}

/** Whether another process is building now (a lock left by a killed build is removed instead). */
function buildInProgress() {
  const stat = fs.statSync(lock, { throwIfNoEntry: false });
  if (!stat) return false;
  if (Date.now() - stat.mtimeMs <= STALE_LOCK_MS) return true;
  fs.rmSync(lock, { recursive: true, force: true });
  return false;
}

function tryLock() {
  try {
    fs.mkdirSync(lock);
    return true;
  } catch (error) {
    if (error.code !== "EEXIST") throw error;
    return false;
  }
}

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

// At most one build of our own: sources edited while it ran are the next caller's to build.
// The build's steps run one after another and its marker comes early (the server bundle, before the
// worker bundles and the catalogue's models): whoever finds a build under way waits for all of it,
// even when the marker already looks current.
let builtHere = false;
while (!builtHere) {
  if (buildInProgress()) {
    sleep(500);
    continue;
  }
  if (!needsBuild()) break;
  if (!tryLock()) continue;
  try {
    const reason = needsBuild();
    if (reason) {
      console.log(reason === "first" ? "Compilando el sitio por primera vez…" : "Hay cambios desde la última compilación; compilando…");
      execSync("npm run build", { stdio: "inherit" });
      builtHere = true;
    }
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}
