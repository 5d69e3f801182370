import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // Server-rendered on demand; public pages are cached per build by the server (see server/page-cache.ts).
  prerender: false,
  // The whole route manifest ships with the first page, so the navigation guard can import the
  // target's modules before navigating (docs/decisions/0004).
  routeDiscovery: { mode: "initial" },
} satisfies Config;
