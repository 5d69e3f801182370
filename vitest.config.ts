import path from "node:path";
import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig, mergeConfig } from "vitest/config";
import viteConfig from "./vite.config.ts";

// Unit and integration tests (Vitest). Browser tests live in tests/e2e and run under Playwright.
// The app's Vite config is reused for the `~/` alias and defines; it drops the React Router
// plugin itself when process.env.VITEST is set.

const root = path.dirname(fileURLToPath(import.meta.url));
// scripts/test-all.mjs reads this report to count passed and failed tests.
const jsonOutput = process.env.VITEST_JSON_OUTPUT;

export default defineConfig((configEnv) =>
  mergeConfig(viteConfig(configEnv), {
    resolve: { tsconfigPaths: true },
    test: {
      root,
      include: ["app/**/*.test.{ts,tsx}", "server/**/*.test.ts", "scripts/**/*.test.ts", "eslint/**/*.test.ts"],
      exclude: [...configDefaults.exclude, "tests/e2e/**", "build/**", "data/**"],
      environment: "node",
      // Each test file runs in its own process with its own in-memory PGlite (or its own PostgreSQL
      // database when TEST_DATABASE_URL is set; see tests/support/test-database.ts).
      pool: "forks",
      // Two test files at a time: most of a file's time is spent waiting on a server process, a
      // socket or a timer, and Vitest's default on a two-core machine is one file at a time.
      maxWorkers: 2,
      // One migrated database for the whole run, copied by every test file and test server.
      globalSetup: ["tests/support/database-template.ts"],
      testTimeout: 20_000,
      hookTimeout: 60_000,
      env: {
        // Migrations are found from the project root whatever the working directory.
        MIGRATIONS_DIR: process.env.MIGRATIONS_DIR ?? path.join(root, "drizzle"),
      },
      reporters: jsonOutput ? ["default", "json"] : ["default"],
      ...(jsonOutput ? { outputFile: { json: path.resolve(jsonOutput) } } : {}),
    },
  }),
);
