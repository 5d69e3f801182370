import fs from "node:fs";
import { chromium, defineConfig, devices, type ReporterDescription } from "@playwright/test";

// Browser tests run on Chromium only, against the real production server started by
// tests/e2e/global-setup.ts. The browser comes from the system (no downloads are possible here).

const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

const INSTALL_HINT = [
  "Instálelo con: sudo apt-get update && sudo apt-get install -y chromium",
  "o indique otro navegador Chromium/Chrome con la variable CHROME_PATH=/ruta/al/ejecutable.",
].join("\n");

/** CHROME_PATH, else Debian's /usr/bin/chromium, else a browser Playwright installed itself. */
function resolveChromium(): string {
  const fromEnv = process.env.CHROME_PATH;
  if (fromEnv) {
    if (fs.existsSync(fromEnv)) return fromEnv;
    throw new Error(`CHROME_PATH apunta a "${fromEnv}", pero ese archivo no existe.\n${INSTALL_HINT}`);
  }
  if (fs.existsSync("/usr/bin/chromium")) return "/usr/bin/chromium";
  let bundled: string | undefined;
  try {
    bundled = chromium.executablePath();
  } catch {
    bundled = undefined;
  }
  if (bundled && fs.existsSync(bundled)) return bundled;
  throw new Error(`No se encontró Chromium para las pruebas de navegador.\n${INSTALL_HINT}`);
}

const reporter: ReporterDescription[] = [["list"]];
// Another script counts passed/failed from this file; the json reporter reads the variable itself.
if (process.env.PLAYWRIGHT_JSON_OUTPUT_NAME) reporter.push(["json"]);

export default defineConfig({
  testDir: "./tests/e2e",
  testMatch: "**/*.spec.ts",
  outputDir: "./test-results/e2e",
  globalSetup: "./tests/e2e/global-setup.ts",
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  workers: 2,
  retries: 0,
  reporter,
  timeout: 30_000,
  // The whole run takes about 10 minutes on a quiet machine; on a slow one it took 29 and the
  // 30-minute limit cut off its last 5 tests. The CI run as a whole has its own limit.
  globalTimeout: 45 * 60_000,
  // Sign-ins hash passwords (scrypt): on a busy 2-core machine a redirect after one can take seconds.
  expect: { timeout: 10_000 },
  use: {
    baseURL: process.env.E2E_BASE_URL,
    locale: "es-MX",
    timezoneId: "America/Mexico_City",
    actionTimeout: 10_000,
    navigationTimeout: 15_000,
    trace: "off",
    screenshot: "off",
    video: "off",
  },
  projects: [
    {
      name: "chromium",
      use: {
        ...devices["Desktop Chrome"],
        launchOptions: { executablePath: resolveChromium(), args: CHROMIUM_ARGS },
      },
    },
  ],
});
