import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // Server-rendered on demand; public pages are cached per build by the server (see server/page-cache.ts).
  prerender: false,
  // The first page carries only the routes it matched; the others are asked of /__manifest (an
  // immutable answer per build) for the page's links once it has hydrated, and by the navigation
  // guard before it imports a target's modules (docs/decisions/0004, 0064): ranking every route of
  // the site while hydrating was the largest part of the first page's longest task.
  routeDiscovery: { mode: "lazy" },
} satisfies Config;
