import js from "@eslint/js";
import tseslint from "typescript-eslint";
import forja from "./eslint/layers.js";

// Import boundaries (ARCHITECTURE §3, docs/decisions/0013): routes → features → services → db, lib,
// checked by the project's own rule (eslint/layers.js). The database packages are kept out of routes
// and components here as well.

export default tseslint.config(
  { ignores: ["build/**", "node_modules/**", ".react-router/**", "data/**", "test-results/**", "playwright-report/**", "coverage/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
    },
  },
  {
    files: ["**/*.{js,mjs}"],
    languageOptions: {
      globals: { process: "readonly", console: "readonly", URL: "readonly", setTimeout: "readonly", clearTimeout: "readonly", fetch: "readonly", Buffer: "readonly", URLSearchParams: "readonly", performance: "readonly" },
    },
  },
  {
    files: ["app/**/*.{ts,tsx}", "server/**/*.ts"],
    plugins: { forja },
    rules: { "forja/layers": "error" },
  },
  {
    // Posted forms are read through ~/lib/request-body (readForm, readFormBody): a body that is not
    // the form it claims to be is a 400/415 with a Spanish message, never a parser error (a 500).
    files: ["app/**/*.{ts,tsx}", "server/**/*.ts"],
    ignores: ["app/lib/request-body.ts", "**/*.test.ts", "**/*.test.tsx"],
    rules: {
      "no-restricted-syntax": [
        "error",
        { selector: "CallExpression[callee.property.name='formData'][arguments.length=0]", message: "Read posted forms with readForm/readFormBody from ~/lib/request-body (docs/decisions/0035)." },
      ],
    },
  },
  {
    // The database is reached only through feature *.server.ts modules, never from routes or UI.
    files: ["app/routes/**", "app/components/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["~/db/*", "drizzle-orm", "drizzle-orm/*"], message: "Routes and components call features, not the database." }] },
      ],
    },
  },
);
