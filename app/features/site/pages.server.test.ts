import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { setupTestDatabase } from "../../../tests/support/test-database";
import { getDb } from "~/db/client.server";
import { pages } from "~/db/schema/pages";
import { legalPages } from "./content/legal";
import { getPublishedPage, listPublishedPages, seedContentPages } from "./pages.server";

setupTestDatabase();

beforeEach(async () => {
  await getDb().delete(pages);
});

async function insertPage(values: { slug: string; title?: string; body?: string; published?: boolean; description?: string }) {
  await getDb()
    .insert(pages)
    .values({ title: values.slug, body: "Contenido.", ...values });
}

describe("seedContentPages", () => {
  it("inserts the two legal pages on an empty database, then nothing", async () => {
    expect(await seedContentPages()).toBe(2);
    const rows = await getDb().select().from(pages);
    expect(rows.map((r) => r.slug).sort()).toEqual(["aviso-de-privacidad", "terminos"]);
    for (const row of rows) {
      const source = legalPages.find((p) => p.slug === row.slug)!;
      expect(row.title).toBe(source.title);
      expect(row.body).toBe(source.body);
      expect(row.description.length).toBeGreaterThan(20);
      expect(row.published).toBe(true);
    }
    expect(await seedContentPages()).toBe(0);
    expect(await getDb().select().from(pages)).toHaveLength(2);
  });

  it("never overwrites a page staff edited or unpublished", async () => {
    await seedContentPages();
    await getDb()
      .update(pages)
      .set({ title: "Términos editados", body: "Texto nuevo.", published: false })
      .where(eq(pages.slug, "terminos"));
    expect(await seedContentPages()).toBe(0);
    const [row] = await getDb().select().from(pages).where(eq(pages.slug, "terminos"));
    expect(row).toMatchObject({ title: "Términos editados", body: "Texto nuevo.", published: false });
  });

  it("keeps other pages and only adds the legal pages that are missing", async () => {
    await insertPage({ slug: "aviso-de-privacidad", title: "Mi aviso", body: "Propio." });
    await insertPage({ slug: "garantias" });
    expect(await seedContentPages()).toBe(1);
    const rows = await getDb().select().from(pages);
    expect(rows.map((r) => r.slug).sort()).toEqual(["aviso-de-privacidad", "garantias", "terminos"]);
    expect(rows.find((r) => r.slug === "aviso-de-privacidad")!.title).toBe("Mi aviso");
  });
});

describe("getPublishedPage", () => {
  it("finds a published page whatever the case of the slug", async () => {
    await seedContentPages();
    for (const slug of ["terminos", "TERMINOS", "Terminos", "tErMiNoS"]) {
      const page = await getPublishedPage(slug);
      expect(page?.slug).toBe("terminos");
      expect(page?.title).toBe("Términos y condiciones");
    }
    await insertPage({ slug: "Mayusculas-En-BD" });
    expect((await getPublishedPage("mayusculas-en-bd"))?.slug).toBe("Mayusculas-En-BD");
  });

  it("returns the page rendered to HTML with its metadata", async () => {
    await seedContentPages();
    const page = await getPublishedPage("aviso-de-privacidad");
    expect(page).not.toBeNull();
    expect(page!.description).toContain("ARCO");
    expect(page!.html).toContain("<h2>Derechos ARCO</h2>");
    expect(page!.html).toContain("<strong>");
    expect(page!.updatedAt).toBeInstanceOf(Date);
  });

  it("returns null for an unpublished or unknown page", async () => {
    await insertPage({ slug: "borrador", published: false });
    expect(await getPublishedPage("borrador")).toBeNull();
    expect(await getPublishedPage("BORRADOR")).toBeNull();
    expect(await getPublishedPage("no-existe")).toBeNull();
    expect(await getPublishedPage("")).toBeNull();
  });

  it("does not treat the slug as a pattern", async () => {
    await insertPage({ slug: "terminos" });
    expect(await getPublishedPage("termin%")).toBeNull();
    expect(await getPublishedPage("termino_")).toBeNull();
    expect(await getPublishedPage("' or '1'='1")).toBeNull();
  });

  it("sanitizes what staff wrote in markdown", async () => {
    await insertPage({
      slug: "peligrosa",
      body: [
        "# Título de sección",
        "",
        "Texto <script>alert('xss')</script> normal.",
        "",
        '<img src="x" onerror="alert(1)">',
        "",
        '<p onclick="alert(2)">Párrafo con manejador</p>',
        "",
        "[enlace malo](javascript:alert(3)) y [otro](JAVASCRIPT:alert(4))",
        "",
        '<a href="javascript:alert(5)">crudo</a> <iframe src="https://evil.example"></iframe>',
        "",
        "[externo](https://example.com/x) y [interno](/cotiza)",
      ].join("\n"),
    });
    const page = await getPublishedPage("peligrosa");
    expect(page).not.toBeNull();
    const html = page!.html;
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/onerror|onclick/i);
    expect(html).not.toMatch(/javascript:/i);
    expect(html).not.toMatch(/alert\(/);
    expect(html).not.toMatch(/<img|<iframe/i);
    expect(html).not.toMatch(/<h1/i);
    expect(html).toContain("<h2>Título de sección</h2>");
    expect(html).toContain("Párrafo con manejador");
    expect(html).toContain('<a href="https://example.com/x" rel="noopener noreferrer" target="_blank">externo</a>');
    expect(html).toContain('<a href="/cotiza">interno</a>');
  });
});

describe("listPublishedPages", () => {
  it("lists published pages by slug and omits unpublished ones", async () => {
    await seedContentPages();
    await insertPage({ slug: "borrador", published: false });
    await insertPage({ slug: "garantias" });
    const list = await listPublishedPages();
    expect(list.map((p) => p.slug)).toEqual(["aviso-de-privacidad", "garantias", "terminos"]);
    for (const page of list) {
      expect(Object.keys(page).sort()).toEqual(["slug", "updatedAt"]);
      expect(page.updatedAt).toBeInstanceOf(Date);
    }
  });

  it("is empty on an empty table", async () => {
    expect(await listPublishedPages()).toEqual([]);
  });
});
