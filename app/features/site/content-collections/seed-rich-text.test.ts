import { createHeadlessEditor } from "@lexical/headless";
import { LinkNode } from "@lexical/link";
import { ListItemNode, ListNode } from "@lexical/list";
import { HeadingNode, QuoteNode } from "@lexical/rich-text";
import { describe, expect, it } from "vitest";
import { legalPages } from "~/features/site/content/legal";
import type { RichTextDocument } from "~/lib/rich-text/document";
import { markdownToRichText as importMarkdown } from "~/lib/rich-text/from-markdown.server";
import { plainText } from "~/lib/rich-text/plain-text";
import { siteContentCollections } from "./all-collections";
import { markdownToRichText, paragraphsDocument } from "./seed-rich-text";

/** What Lexical itself makes of a document: parsed into an editor state and serialized again. */
function throughLexical(document: RichTextDocument): unknown {
  const editor = createHeadlessEditor({
    nodes: [HeadingNode, QuoteNode, ListNode, ListItemNode, LinkNode],
    onError: (error) => {
      throw error;
    },
  });
  return editor.parseEditorState(JSON.stringify(document)).toJSON();
}

const text = (value: string, format = 0) => ({ detail: 0, format, mode: "normal", style: "", text: value, type: "text", version: 1 });
const base = { direction: null, format: "", indent: 0, version: 1 };

describe("markdownToRichText", () => {
  it("turns headings, paragraphs with bold and links, and both kinds of list into the editor's nodes", () => {
    const document = markdownToRichText(
      "## Datos que recabamos\n\nEscríbanos a [ventas](mailto:ventas@forja.example) con **su RFC** y *fecha*.\n\n- **Datos fiscales:** RFC y razón social.\n- Archivos\n  - Modelos 3D\n\n1. Cotizar.\n2. Fabricar.\n",
    );
    expect(document).toEqual({
      root: {
        ...base,
        type: "root",
        children: [
          { ...base, type: "heading", tag: "h2", children: [text("Datos que recabamos")] },
          {
            ...base,
            type: "paragraph",
            textFormat: 0,
            textStyle: "",
            children: [
              text("Escríbanos a "),
              { ...base, type: "link", rel: null, target: null, title: null, url: "mailto:ventas@forja.example", children: [text("ventas")] },
              text(" con "),
              text("su RFC", 1),
              text(" y "),
              text("fecha", 2),
              text("."),
            ],
          },
          {
            ...base,
            type: "list",
            listType: "bullet",
            start: 1,
            tag: "ul",
            children: [
              { ...base, type: "listitem", value: 1, children: [text("Datos fiscales:", 1), text(" RFC y razón social.")] },
              { ...base, type: "listitem", value: 2, children: [text("Archivos")] },
              {
                ...base,
                type: "listitem",
                value: 3,
                children: [{ ...base, type: "list", listType: "bullet", start: 1, tag: "ul", children: [{ ...base, type: "listitem", indent: 1, value: 1, children: [text("Modelos 3D")] }] }],
              },
            ],
          },
          {
            ...base,
            type: "list",
            listType: "number",
            start: 1,
            tag: "ol",
            children: [
              { ...base, type: "listitem", value: 1, children: [text("Cotizar.")] },
              { ...base, type: "listitem", value: 2, children: [text("Fabricar.")] },
            ],
          },
        ],
      },
    });
  });

  it("is a document Lexical reads and writes back unchanged", () => {
    const documents = [
      markdownToRichText("## Uno\n\nTexto con **negritas**, *cursivas* y [un enlace](https://example.com/a \"Ejemplo\").\n\n### Dos\n\n> Una cita\n\n- a\n  - b\n    - c\n- d\n\n3. tres\n4. cuatro\n"),
      paragraphsDocument(["Primer párrafo.", "Segundo párrafo con «comillas»."]),
    ];
    for (const document of documents) expect(JSON.parse(JSON.stringify(throughLexical(document)))).toEqual(document);
  });

  it("makes of the legal pages exactly what the server's Markdown import makes (one result, two places it runs)", () => {
    for (const page of legalPages) expect(markdownToRichText(page.body), page.slug).toEqual(JSON.parse(JSON.stringify(importMarkdown(page.body))));
  });

  it("keeps characters as written, and the words of raw HTML and unsafe links without their markup", () => {
    const document = markdownToRichText('Uno & dos < tres «x» <script>alert(1)</script> [clic](javascript:alert(1)) <b onclick="x()">fin</b>\n\n<div>bloque</div>\n');
    const json = JSON.stringify(document);
    expect(json).not.toMatch(/script|javascript|onclick|<b|<div/);
    expect(plainText(document)).toBe("Uno & dos < tres «x» alert(1) clic fin");
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
          expect(JSON.parse(JSON.stringify(throughLexical(document))), `${collection.name}.${name}`).toEqual(document);
          checked += 1;
        }
      }
    }
    // 8 services, 10 industries, every FAQ, 3 pages.
    expect(checked).toBeGreaterThanOrEqual(8 + 10 + 20 + 3);
  });
});
