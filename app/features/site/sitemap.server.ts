import { listActiveProductSlugs } from "~/features/catalogue/index.server";
import { industries } from "./content/industries";
import { listPublishedPages } from "./pages.server";

const STATIC_PATHS = ["/", "/servicios", "/industrias", "/catalogo", "/faqs", "/about", "/contact", "/cotiza"];

function escapeXml(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** sitemap.xml: every public page, the ten industries, the published content pages and the catalogue. */
export async function buildSitemap(publicUrl: string): Promise<string> {
  const [contentPages, catalogue] = await Promise.all([listPublishedPages(), listActiveProductSlugs()]);
  const entries = [
    ...STATIC_PATHS.map((path) => ({ path, lastmod: undefined as string | undefined })),
    ...industries.map((industry) => ({ path: `/industrias-design/${industry.slug}`, lastmod: undefined })),
    ...contentPages.map((page) => ({ path: `/${page.slug}`, lastmod: page.updatedAt.toISOString().slice(0, 10) })),
    ...catalogue.map((product) => ({ path: `/catalogo/${product.slug}`, lastmod: product.updatedAt.toISOString().slice(0, 10) })),
  ];
  const urls = entries
    .map(({ path, lastmod }) => `  <url><loc>${escapeXml(publicUrl + path)}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ""}</url>`)
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
}

export function buildRobots(publicUrl: string): string {
  return ["User-agent: *", "Disallow: /admin", "Disallow: /quotes", "Disallow: /checkout", "", `Sitemap: ${publicUrl}/sitemap.xml`, ""].join("\n");
}
