import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";
import { buildVersionPlugin, getBuildId } from "./scripts/build-version.ts";

// The first visit's JavaScript in few files (docs/decisions/0043-hydration-cost.md). Left to
// itself the bundler makes one chunk per set of routes that share a module: 21–26 files for a
// public page, most under 1 KB, each one more preload, request and module to link before the page
// hydrates. Two groups that every site page loads in full anyway:

/**
 * React, React DOM and React Router: six chunks otherwise, and one chunk when grouped whole, whose
 * evaluation was one task of 20–30 ms. Three chunks (React with its scheduler, React DOM, React
 * Router), which the page's module start evaluates one task each (server/critical-css.ts,
 * docs/decisions/0068). React DOM stays out of the client entry's chunk, where it would go by
 * itself: the entry's own task then only starts hydrating.
 */
const FRAMEWORK_GROUPS = [
  { name: "react", test: /[\\/]node_modules[\\/](react|scheduler)[\\/]/ },
  { name: "react-dom", test: /[\\/]node_modules[\\/]react-dom[\\/]|[\\/]app[\\/]lib[\\/]app-shell[\\/]react-dom-client\.ts$/ },
  { name: "router", test: /[\\/]node_modules[\\/](react-router|cookie-es|@remix-run[\\/]route-pattern)[\\/]/ },
];

/**
 * Chunks whose functions nearly all run while a page starts: marked with V8's explicit compile hint,
 * so Chromium compiles them eagerly on a background thread as they stream in, instead of on the main
 * thread at their first call (React DOM's body alone was 20–40 ms of main-thread compilation here).
 */
const EAGER_CHUNKS = new Set(["react", "react-dom", "router", "shell"]);

/** The root route and the site layout: what every public page runs with its own route. */
const SHELL_ROOTS = ["/app/root.tsx", "/app/routes/site/layout.tsx"];

/**
 * The shell group: the app's modules that the shell roots import statically, found in the client
 * build's own module graph, so a module joins only when the shell already needs it (a dynamic
 * import stays a chunk of its own, a route's own modules stay with the route, packages stay with
 * the framework or the automatic split). The route modules themselves stay separate: React Router
 * loads each by its own file.
 */
function shellChunk(): { plugin: Plugin; test: (id: string) => boolean } {
  let shell = new Set<string>();
  const plugin: Plugin = {
    name: "forja:shell-chunk",
    apply: "build",
    applyToEnvironment: (environment) => environment.name === "client",
    buildEnd() {
      const path = (id: string) => id.split("?")[0] ?? id;
      const stack = [...this.getModuleIds()].filter((id) => SHELL_ROOTS.some((root) => path(id).endsWith(root)));
      const seen = new Set<string>();
      while (stack.length > 0) {
        const id = stack.pop()!;
        if (seen.has(id)) continue;
        seen.add(id);
        stack.push(...(this.getModuleInfo(id)?.importedIds ?? []));
      }
      const own = (id: string) => !id.includes("?") && !id.includes("node_modules") && !/[\\/]app[\\/](routes[\\/]|root\.tsx)/.test(id);
      shell = new Set([...seen].filter(own));
    },
  };
  return { plugin, test: (id) => shell.has(id) };
}

export default defineConfig(() => {
  const shell = shellChunk();
  return {
    resolve: { tsconfigPaths: true },
    define: {
      // Same id in the client and server builds of one `react-router build` (see scripts/build-version.ts).
      "import.meta.env.VITE_BUILD_ID": JSON.stringify(getBuildId()),
    },
    environments: {
      client: {
        build: {
          rolldownOptions: {
            output: {
              // Compiled whole, off the main thread, while they download (docs/decisions/0068).
              postBanner: (chunk) => (EAGER_CHUNKS.has(chunk.name) ? "//# allFunctionsCalledOnLoad\n" : ""),
              codeSplitting: {
                groups: [
                  ...FRAMEWORK_GROUPS.map((group) => ({ ...group, priority: 2 })),
                  { name: "shell", test: shell.test, priority: 1 },
                ],
              },
            },
          },
        },
      },
      // The server build's entry is our Express app, so everything server-side is bundled once.
      ssr: { build: { rolldownOptions: { input: "./server/app.ts" } } },
    },
    // Vitest runs plain modules; the React Router plugin is for the app build and dev server only.
    plugins: process.env.VITEST ? [] : [tailwindcss(), reactRouter(), buildVersionPlugin(), shell.plugin],
  };
});
