import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // Server-rendered on demand; public pages are cached per build by the server (see server/page-cache.ts).
  prerender: false,
} satisfies Config;
