import { describe, expect, it } from "vitest";
import { legalPages } from "~/features/site/content/legal";
import type { RichTextDocument } from "~/lib/rich-text/document";
import { markdownToRichText } from "~/lib/rich-text/from-markdown";
import { throughLexical } from "~/lib/rich-text/from-markdown.test-support";
import { siteContentCollections } from "./all-collections";
import { paragraphsDocument } from "./seed-rich-text";

// The Markdown import itself is tested in app/lib/rich-text/from-markdown.test.ts.

describe("paragraphsDocument", () => {
  it("is one paragraph per string, a document Lexical reads and writes back unchanged", () => {
    const document = paragraphsDocument(["Primer párrafo.", "Segundo párrafo con «comillas»."]);
    expect(document.root.children.map((block) => [block.type, block.children?.map((child) => child.text)])).toEqual([
      ["paragraph", ["Primer párrafo."]],
      ["paragraph", ["Segundo párrafo con «comillas»."]],
    ]);
    expect(throughLexical(document)).toEqual(document);
  });
});

describe("the seeds' rich text", () => {
  it("is, in every richtext field of every collection, a document Lexical reads and writes back unchanged", () => {
    let checked = 0;
    for (const collection of siteContentCollections) {
      const fields = collection.fields.filter((field) => field.kind === "richtext").map((field) => field.name);
      for (const record of collection.seed()) {
        for (const name of fields) {
          const document = record[name] as RichTextDocument;
          expect(throughLexical(document), `${collection.name}.${name}`).toEqual(document);
          checked += 1;
        }
      }
    }
    // 8 services, 10 industries, every FAQ, 3 pages.
    expect(checked).toBeGreaterThanOrEqual(8 + 10 + 20 + 3);
  });

  it("gives the legal pages their Markdown as the one importer reads it", () => {
    const pages = siteContentCollections.find((collection) => collection.name === "paginas")?.seed() ?? [];
    for (const page of legalPages) expect(pages.find((record) => record.slug === page.slug)?.cuerpo, page.slug).toEqual(markdownToRichText(page.body));
  });
});
