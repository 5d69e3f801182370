import js from "@eslint/js";
import tseslint from "typescript-eslint";

// Import boundaries (ARCHITECTURE §3): routes → features → db, lib. Nothing imports routes;
// db and lib never import features.
const noRoutes = { group: ["~/routes/*", "**/routes/*"], message: "Nothing imports from routes/." };
const noFeatures = { group: ["~/features/*"], message: "db/ and lib/ must not depend on features/." };

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
    files: ["app/features/**", "app/components/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [noRoutes] }] },
  },
  {
    files: ["app/db/**", "app/lib/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [noRoutes, noFeatures] }] },
  },
  {
    // The database is reached only through feature *.server.ts modules, never from routes or UI.
    files: ["app/routes/**", "app/components/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [noRoutes, { group: ["~/db/*", "drizzle-orm", "drizzle-orm/*"], message: "Routes and components call features, not the database." }] },
      ],
    },
  },
);
