import { buildSitemap } from "~/features/site/sitemap.server";
import { getEnv } from "~/lib/env.server";

export async function loader() {
  return new Response(await buildSitemap(getEnv().publicUrl), {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
