// `npm run lighthouse:scores [-- --runs=N]`: Lighthouse (mobile, default simulated throttling) on
// the pages a buyer lands on, against the production build served on 127.0.0.1 with its demo
// content. Builds first when the sources are newer than the build, starts the server the browser
// tests use (a private copy of the build, a temporary DATA_DIR), prints the four scores and the
// paint metrics per page, stops that server, and exits with 1 when any score is below 100.
// With --runs=N each page is audited N times and the run with the median performance score counts
// (the machine is shared and its timings are noisy).
import { execFileSync } from "node:child_process";
import path from "node:path";
import playwrightConfig from "../playwright.config.ts";
import { LIGHTHOUSE_CATEGORIES, LIGHTHOUSE_PAGES, failingAudits, launchLighthouseChrome, runLighthouse } from "../tests/e2e/support/lighthouse.ts";
import { MEDIA_SEED_LOG, PROJECT_ROOT, nodeBinary, startServer } from "../tests/e2e/support/server.ts";

const runsArgument = process.argv.find((argument) => argument.startsWith("--runs="));
const runs = runsArgument ? Number(runsArgument.slice("--runs=".length)) : 1;
if (!Number.isInteger(runs) || runs < 1 || runs > 9) {
  console.error("--runs debe ser un entero de 1 a 9.");
  process.exit(2);
}

execFileSync(nodeBinary(), [path.join(PROJECT_ROOT, "scripts/ensure-build.mjs")], { cwd: PROJECT_ROOT, stdio: "inherit", timeout: 300_000 });

// The browser the browser tests resolve (CHROME_PATH, Debian's chromium, or Playwright's own).
const chromePath = playwrightConfig.projects?.[0]?.use?.launchOptions?.executablePath;
// Measured once the start-up's background work (the site's pictures into the library) is over.
const server = await startServer({ readyLog: MEDIA_SEED_LOG });
let chrome;
const stopAll = async () => {
  await chrome?.kill();
  await server.stop();
};
process.once("SIGINT", () => void stopAll().then(() => process.exit(130)));

const SHORT = { performance: "rend.", accessibility: "acces.", "best-practices": "práct.", seo: "SEO" };
const ms = (value) => `${(value / 1000).toFixed(2)} s`;
const rows = [];
let belowFull = false;
try {
  chrome = await launchLighthouseChrome(chromePath);
  for (const page of LIGHTHOUSE_PAGES) {
    const url = `${server.url}${page}`;
    // Public pages are rendered once per build and then served from memory: audit that, not the first render.
    const warm = await fetch(url);
    await warm.arrayBuffer();
    const results = [];
    for (let run = 0; run < runs; run++) results.push(await runLighthouse(url, chrome.port, LIGHTHOUSE_CATEGORIES));
    results.sort((a, b) => (a.categories.performance?.score ?? 0) - (b.categories.performance?.score ?? 0));
    const lhr = results[Math.floor((results.length - 1) / 2)];
    const scores = LIGHTHOUSE_CATEGORIES.map((category) => Math.round((lhr.categories[category]?.score ?? 0) * 100));
    const failing = scores.some((score) => score < 100) ? [...(lhr.runtimeError ? [`error de Lighthouse: ${lhr.runtimeError.message}`] : []), ...failingAudits(lhr)] : [];
    belowFull ||= failing.length > 0 || scores.some((score) => score < 100);
    const metric = (id) => lhr.audits[id]?.numericValue ?? Number.NaN;
    rows.push({
      page,
      scores,
      fcp: ms(metric("first-contentful-paint")),
      lcp: ms(metric("largest-contentful-paint")),
      tbt: `${Math.round(metric("total-blocking-time"))} ms`,
      cls: metric("cumulative-layout-shift").toFixed(3),
      all: runs > 1 ? results.map((result) => Math.round((result.categories.performance?.score ?? 0) * 100)).join("/") : "",
      failing,
    });
    console.error(`${page}: ${scores.join(" / ")}`);
  }
} finally {
  await stopAll();
}

const header = ["página", ...LIGHTHOUSE_CATEGORIES.map((category) => SHORT[category]), "FCP", "LCP", "TBT", "CLS", ...(runs > 1 ? [`rend. (${runs} corridas)`] : [])];
const lines = rows.map((row) => [`\`${row.page}\``, ...row.scores.map(String), row.fcp, row.lcp, row.tbt, row.cls, ...(runs > 1 ? [row.all] : [])]);
console.log(`\nLighthouse ${LIGHTHOUSE_CATEGORIES.length} categorías, móvil, ${server.url.replace(/:\d+$/, "")}${runs > 1 ? `, mediana de ${runs} corridas` : ""}\n`);
console.log(`| ${header.join(" | ")} |`);
console.log(`|${header.map(() => "---").join("|")}|`);
for (const line of lines) console.log(`| ${line.join(" | ")} |`);
for (const row of rows) for (const audit of row.failing) console.log(`  ${row.page} — ${audit}`);
if (belowFull) {
  console.log("\nAlguna puntuación es menor que 100.");
  process.exitCode = 1;
}
