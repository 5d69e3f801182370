import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { buildVersionPlugin, getBuildId } from "./scripts/build-version.ts";

export default defineConfig(() => ({
  resolve: { tsconfigPaths: true },
  define: {
    // Same id in the client and server builds of one `react-router build` (see scripts/build-version.ts).
    "import.meta.env.VITE_BUILD_ID": JSON.stringify(getBuildId()),
  },
  environments: {
    // The server build's entry is our Express app, so everything server-side is bundled once.
    ssr: { build: { rolldownOptions: { input: "./server/app.ts" } } },
  },
  // Vitest runs plain modules; the React Router plugin is for the app build and dev server only.
  plugins: process.env.VITEST ? [] : [tailwindcss(), reactRouter(), buildVersionPlugin()],
}));
