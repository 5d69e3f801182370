import { listActiveProductSlugs } from "~/features/catalogue/index.server";
import { publishedRecord, publishedRecords } from "~/services/content/published.server";
import { industrias, industryPath, type Industria } from "./content-collections/industrias";
import { ABOUT_SLUG, paginas, type Pagina } from "./content-collections/paginas";
import { listPublishedPages } from "./pages.server";

const STATIC_PATHS = ["/", "/servicios", "/industrias", "/catalogo", "/faqs", "/contact", "/cotiza"];

const day = (date: Date) => date.toISOString().slice(0, 10);

function escapeXml(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/**
 * sitemap.xml: every public page, the published industries and content pages (about included, at its
 * own route) and the catalogue. What staff unpublished is not listed; services live in /servicios.
 */
export async function buildSitemap(publicUrl: string): Promise<string> {
  const [about, industries, contentPages, catalogue] = await Promise.all([
    publishedRecord<Pagina>(paginas, ABOUT_SLUG),
    publishedRecords<Industria>(industrias),
    listPublishedPages(),
    listActiveProductSlugs(),
  ]);
  const entries = [
    ...STATIC_PATHS.map((path) => ({ path, lastmod: undefined as string | undefined })),
    ...(about ? [{ path: `/${ABOUT_SLUG}`, lastmod: day(about.updated) }] : []),
    ...industries.map((industry) => ({ path: industryPath(industry.data.slug), lastmod: day(industry.updated) })),
    ...contentPages.map((page) => ({ path: `/${page.slug}`, lastmod: day(page.updatedAt) })),
    ...catalogue.map((product) => ({ path: `/catalogo/${product.slug}`, lastmod: day(product.updatedAt) })),
  ];
  const urls = entries
    .map(({ path, lastmod }) => `  <url><loc>${escapeXml(publicUrl + path)}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ""}</url>`)
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
}

export function buildRobots(publicUrl: string): string {
  return ["User-agent: *", "Disallow: /admin", "Disallow: /quotes", "Disallow: /checkout", "", `Sitemap: ${publicUrl}/sitemap.xml`, ""].join("\n");
}
