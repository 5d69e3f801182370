import { execFileSync } from "node:child_process";
import path from "node:path";
import type { FullConfig } from "@playwright/test";
import { PROJECT_ROOT, nodeBinary, startServer } from "./support/server";

// Builds when the sources are newer than the build, starts one production server for the whole
// run (PORT=0, its own temporary DATA_DIR, FORJA_ERROR_ROUTE=1) and stops it afterwards.
export default async function globalSetup(_config: FullConfig) {
  execFileSync(nodeBinary(), [path.join(PROJECT_ROOT, "scripts/ensure-build.mjs")], {
    cwd: PROJECT_ROOT,
    stdio: "inherit",
    timeout: 300_000,
  });

  const server = await startServer();
  // Workers start after this and inherit the environment; playwright.config.ts reads it for baseURL.
  process.env.E2E_BASE_URL = server.url;
  process.env.E2E_BUILD_DIR = server.buildDir;
  console.log(`Servidor de pruebas en ${server.url} (PID ${server.pid})`);

  return async () => {
    await server.stop();
  };
}
