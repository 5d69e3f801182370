import { beforeAll, describe, expect, it } from "vitest";
import { setupTestDatabase } from "../../../tests/support/test-database";
import { seedContent } from "~/services/content/seed.server";
import { industries } from "./content/industries";
import { publishTestPage } from "../../../tests/support/content-pages";
import { buildRobots, buildSitemap } from "./sitemap.server";

const PUBLIC_URL = "https://forja.example";
const PUBLIC_PATHS = ["/", "/servicios", "/industrias", "/catalogo", "/faqs", "/about", "/contact", "/cotiza"];

setupTestDatabase();

function locs(xml: string): string[] {
  return [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]);
}

describe("buildSitemap", () => {
  let xml: string;

  beforeAll(async () => {
    await seedContent();
    await publishTestPage({ slug: "garantias", titulo: "Garantías" });
    await publishTestPage({ slug: "borrador-secreto", titulo: "Borrador", publicado: false });
    xml = await buildSitemap(PUBLIC_URL);
  });

  it("is a sitemaps.org urlset", () => {
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">')).toBe(true);
    expect(xml.trimEnd().endsWith("</urlset>")).toBe(true);
    expect(xml.match(/<url>/g)).toHaveLength(locs(xml).length);
  });

  it("lists the home page and every public page", () => {
    const listed = locs(xml);
    for (const path of PUBLIC_PATHS) expect(listed).toContain(`${PUBLIC_URL}${path}`);
  });

  it("lists all ten industries", () => {
    expect(industries).toHaveLength(10);
    const listed = locs(xml).filter((loc) => loc.startsWith(`${PUBLIC_URL}/industrias-design/`));
    expect(listed).toHaveLength(10);
    for (const industry of industries) expect(listed).toContain(`${PUBLIC_URL}/industrias-design/${industry.slug}`);
  });

  it("lists published content pages with their last modification date, and no unpublished ones", () => {
    for (const slug of ["aviso-de-privacidad", "terminos", "garantias"]) {
      expect(xml).toMatch(new RegExp(`<url><loc>${PUBLIC_URL}/${slug}</loc><lastmod>\\d{4}-\\d{2}-\\d{2}</lastmod></url>`));
    }
    expect(xml).not.toContain("borrador-secreto");
  });

  it("escapes XML special characters", async () => {
    const escaped = await buildSitemap("https://forja.example/sitio?a=1&b=<2>");
    expect(locs(escaped)[0]).toBe("https://forja.example/sitio?a=1&amp;b=&lt;2&gt;/");
    expect(escaped).not.toMatch(/&(?!amp;|lt;|gt;|quot;|apos;)/);
  });

  it("leaves out the about page's record (its own route is listed once)", () => {
    expect(locs(xml).filter((loc) => loc === `${PUBLIC_URL}/about`)).toHaveLength(1);
  });

  it("has no duplicate URLs and nothing private", () => {
    const listed = locs(xml);
    expect(new Set(listed).size).toBe(listed.length);
    for (const loc of listed) {
      expect(loc.startsWith(`${PUBLIC_URL}/`)).toBe(true);
      expect(loc).not.toMatch(/\/(admin|quotes|checkout|login|api)(\/|$)/);
    }
  });

  it("uses the public URL it is given", async () => {
    const other = await buildSitemap("http://127.0.0.1:3000");
    expect(locs(other)[0]).toBe("http://127.0.0.1:3000/");
    expect(other).not.toContain(PUBLIC_URL);
  });
});

describe("buildRobots", () => {
  const robots = buildRobots(PUBLIC_URL);
  const lines = robots.split("\n");

  it("disallows the private areas for every crawler", () => {
    expect(lines[0]).toBe("User-agent: *");
    for (const path of ["/admin", "/quotes", "/checkout"]) expect(lines).toContain(`Disallow: ${path}`);
  });

  it("does not disallow the public site", () => {
    expect(lines).not.toContain("Disallow: /");
    expect(lines).not.toContain("Disallow:");
  });

  it("points at the sitemap", () => {
    expect(lines).toContain(`Sitemap: ${PUBLIC_URL}/sitemap.xml`);
    expect(robots.endsWith("\n")).toBe(true);
  });
});
