// `npm test`: lint, type check, unit/integration (Vitest) and browser (Playwright) tests, then one
// closing line "N passed, N failed" summed over every runner (CI reads it). Lint and the type check
// count as one check each. Exit code is non-zero when anything failed.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { databaseTestFiles } from "./database-test-files.mjs";

const only = process.argv.slice(2); // e.g. `node scripts/test-all.mjs unit` runs a subset
const want = (name) => only.length === 0 || only.includes(name);
const reportDir = fs.mkdtempSync(path.join(os.tmpdir(), "forja-test-"));
const bin = (name) => path.resolve("node_modules/.bin", name);
let passed = 0;
let failed = 0;
const failures = []; // names of what failed, printed again at the very end so a log's tail shows them

function run(label, command, args, env = {}) {
  console.log(`\n▶ ${label}`);
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
  return result.status === 0;
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
}

/** The start of a failure's message, indented under its name (a CI log's tail shows only the summary). */
function firstLines(message, count = 6) {
  if (!message) return "";
  const lines = String(message).split("\n").map((line) => line.trimEnd()).filter((line) => line && !line.includes("node_modules")).slice(0, count);
  return lines.map((line) => `\n      ${line.slice(0, 300)}`).join("");
}

function check(label, ok) {
  if (ok) passed += 1;
  else {
    failed += 1;
    failures.push(label);
    console.error(`✗ ${label} falló`);
  }
}

if (want("lint")) check("lint", run("ESLint", bin("eslint"), ["."]));
if (want("typecheck")) check("typecheck", run("Tipos (react-router typegen + tsc)", bin("react-router"), ["typegen"]) && run("tsc", bin("tsc"), []));

// "database": only the Vitest files whose outcome depends on the database (the CI runs them again
// on a PostgreSQL server; scripts/database-test-files.mjs).
if (want("unit") || only.includes("database")) {
  const output = path.join(reportDir, "vitest.json");
  const files = want("unit") ? [] : databaseTestFiles();
  // The database pass runs one file at a time: its two-process files hold time bounds (a scheduled
  // question served within 1 s by both processes) that a second heavy file beside them broke in CI.
  const args = files.length ? ["run", "--maxWorkers=1", ...files] : ["run"];
  const ok = run(files.length ? `Vitest (${files.length} archivos que dependen de la base de datos)` : "Vitest", bin("vitest"), args, { VITEST_JSON_OUTPUT: output });
  const report = readJson(output);
  if (report) {
    passed += report.numPassedTests ?? 0;
    failed += (report.numFailedTests ?? 0) + (ok || report.numFailedTests ? 0 : 1);
    for (const file of report.testResults ?? []) {
      for (const test of file.assertionResults ?? []) {
        if (test.status === "failed") failures.push(`vitest ${path.relative(process.cwd(), file.name)} › ${test.fullName}${firstLines(test.failureMessages?.[0])}`);
      }
      if (file.status === "failed" && !(file.assertionResults ?? []).some((t) => t.status === "failed")) {
        failures.push(`vitest ${path.relative(process.cwd(), file.name)}: ${(file.message ?? "").split("\n")[0]}`);
      }
    }
  } else check("vitest", false);
}

if (want("e2e")) {
  const output = path.join(reportDir, "playwright.json");
  const ok = run("Playwright", bin("playwright"), ["test"], { PLAYWRIGHT_JSON_OUTPUT_NAME: output });
  const report = readJson(output);
  const stats = report?.stats;
  if (stats) {
    passed += (stats.expected ?? 0) + (stats.flaky ?? 0);
    failed += (stats.unexpected ?? 0) + (ok || stats.unexpected ? 0 : 1);
    collectPlaywright(report.suites ?? [], []);
  } else check("playwright", false);
}

function collectPlaywright(suites, titles) {
  for (const suite of suites) {
    const here = suite.title ? [...titles, suite.title] : titles;
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        const results = test.results ?? [];
        const last = results.at(-1);
        const error = firstLines(last?.error?.message);
        if (test.status === "unexpected") failures.push(`playwright [${test.projectName}] ${[...here, spec.title].join(" › ")} ${error}`);
        else if (test.status === "flaky") console.log(`(inestable, pasó al reintentar) ${[...here, spec.title].join(" › ")}`);
      }
    }
    collectPlaywright(suite.suites ?? [], here);
  }
}

fs.rmSync(reportDir, { recursive: true, force: true });
if (failures.length > 0) console.log(`\nFallaron:\n${failures.map((f) => `  ✗ ${f}`).join("\n")}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
