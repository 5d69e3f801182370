import { buildRobots } from "~/features/site/sitemap.server";
import { getEnv } from "~/lib/env.server";

export function loader() {
  return new Response(buildRobots(getEnv().publicUrl), {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
