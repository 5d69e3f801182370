import { beforeAll, describe, expect, it } from "vitest";
import { plainBody, publishTestPage } from "../../../tests/support/content-pages";
import { setupTestDatabase } from "../../../tests/support/test-database";
import { richTextDocument, paragraphNode, textNode } from "~/lib/rich-text/from-markdown";
import type { RichTextNode } from "~/lib/rich-text/document";
import { seedContent } from "~/services/content/seed.server";
import { legalPages } from "./content/legal";
import { getPublishedPage, listPublishedPages, movedTo } from "./pages.server";

// The content pages at /{slug} come from the content store's `paginas` (issue 16): the legal pages
// seeded once from today's texts, and whatever staff publish.

setupTestDatabase();

beforeAll(async () => {
  await seedContent();
});

describe("getPublishedPage", () => {
  it("serves the seeded legal pages with their title, description and rendered body", async () => {
    for (const legal of legalPages) {
      const page = await getPublishedPage(legal.slug);
      expect(page).toMatchObject({ slug: legal.slug, title: legal.title, description: legal.description });
      expect(page!.html).toMatch(/^<h2>/);
      expect(page!.updatedAt).toBeInstanceOf(Date);
    }
  });

  it("finds a page whatever the case of the slug", async () => {
    expect((await getPublishedPage("TERMINOS"))?.slug).toBe("terminos");
  });

  it("returns null for an unpublished, unknown or about page (about has its own route)", async () => {
    await publishTestPage({ slug: "oculta", titulo: "Oculta", publicado: false });
    expect(await getPublishedPage("oculta")).toBeNull();
    expect(await getPublishedPage("no-existe")).toBeNull();
    expect(await getPublishedPage("about")).toBeNull();
  });

  it("does not treat the slug as a pattern", async () => {
    expect(await getPublishedPage("t%")).toBeNull();
    expect(await getPublishedPage("_erminos")).toBeNull();
  });

  it("renders what staff wrote as sanitized HTML", async () => {
    const link = (url: string, text: string): RichTextNode => ({ type: "link", url, version: 1, children: [textNode(text)] }) as RichTextNode;
    const cuerpo = richTextDocument([
      paragraphNode([textNode("<script>alert(1)</script> texto")]),
      paragraphNode([link("javascript:alert(1)", "peligro"), link("https://proveedor.example/ficha", "ficha")]),
    ]);
    await publishTestPage({ slug: "garantias", titulo: "Garantías", cuerpo });
    const { html } = (await getPublishedPage("garantias"))!;
    expect(html).not.toContain("<script");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt; texto");
    expect(html).not.toContain("javascript:");
    expect(html).toMatch(/<a href="https:\/\/proveedor\.example\/ficha"[^>]*rel="noopener noreferrer"/);
  });
});

describe("listPublishedPages", () => {
  it("lists published pages by slug and omits unpublished ones and the about page", async () => {
    await publishTestPage({ slug: "entregas", titulo: "Entregas", cuerpo: plainBody("Entregamos en todo el país.") });
    const slugs = (await listPublishedPages()).map((page) => page.slug);
    expect(slugs).toEqual([...slugs].sort());
    expect(slugs).toEqual(expect.arrayContaining(["aviso-de-privacidad", "entregas", "terminos"]));
    expect(slugs).not.toContain("oculta");
    expect(slugs).not.toContain("about");
  });
});

describe("movedTo", () => {
  it("answers the new address of a page whose slug staff changed", async () => {
    const id = await publishTestPage({ slug: "politica-de-envios", titulo: "Envíos" });
    await publishTestPage({ slug: "envios", titulo: "Envíos" }, id);
    expect(await movedTo("/politica-de-envios")).toBe("/envios");
    expect(await getPublishedPage("politica-de-envios")).toBeNull();
    expect(await movedTo("/nunca-existio")).toBeNull();
  });
});
