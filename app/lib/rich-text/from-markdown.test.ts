import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { RichTextDocument } from "./document";
import { headingNode, markdownToRichText, paragraphNode, richTextDocument, textNode } from "./from-markdown";
import { outlineOf, throughLexical } from "./from-markdown.test-support";
import { plainText } from "./plain-text";
import { renderRichText } from "./render.server";

const text = (value: string, format = 0) => ({ detail: 0, format, mode: "normal", style: "", text: value, type: "text", version: 1 });
const base = { direction: null, format: "", indent: 0, version: 1 };

describe("markdownToRichText", () => {
  it("reads the Markdown of today's pages into the same nodes the editor writes", () => {
    const document = markdownToRichText(
      "# Aviso de privacidad\n\n## Datos que recabamos\n\nTexto con **negritas**, *cursivas*, ***ambas***, `código` y [un enlace](https://example.com \"Sitio\").  \nOtra línea &amp; más.\n\n- uno\n  - uno.a\n- dos\n\n3. tres\n4. cuatro\n\n> una cita\n\n| Material | Plazo |\n|---|---|\n| Aluminio | 5 días |\n\n##### Nota menor\n",
    );
    expect(outlineOf(document)).toEqual([
      ["h2", "Aviso de privacidad"],
      ["h2", "Datos que recabamos"],
      ["p", "Texto con ", { text: "negritas", format: 1 }, ", ", { text: "cursivas", format: 2 }, ", ", { text: "ambas", format: 3 }, ", ", { text: "código", format: 16 }, " y ", ["a https://example.com", "un enlace"], ".", "br", "Otra línea & más."],
      ["ul", ["li", "uno"], ["li", ["ul", ["li", "uno.a"]]], ["li", "dos"]],
      ["ol start=3", ["li", "tres"], ["li", "cuatro"]],
      ["quote", "una cita"],
      ["table", ["tablerow", ["th", ["p", "Material"]], ["th", ["p", "Plazo"]]], ["tablerow", ["td", ["p", "Aluminio"]], ["td", ["p", "5 días"]]]],
      ["h4", "Nota menor"],
    ]);
    expect(renderRichText(document)).toBe(
      '<h2>Aviso de privacidad</h2><h2>Datos que recabamos</h2><p>Texto con <strong>negritas</strong>, <em>cursivas</em>, <strong><em>ambas</em></strong>, <code>código</code> y <a href="https://example.com" title="Sitio" rel="noopener noreferrer" target="_blank">un enlace</a>.<br />Otra línea &amp; más.</p><ul><li>uno<ul><li>uno.a</li></ul></li><li>dos</li></ul><ol start="3"><li>tres</li><li>cuatro</li></ol><blockquote>una cita</blockquote><table><thead><tr><th>Material</th><th>Plazo</th></tr></thead><tbody><tr><td>Aluminio</td><td>5 días</td></tr></tbody></table><h4>Nota menor</h4>',
    );
  });

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

  it("makes of the legal pages exactly the documents Lexical built from them (fixtures/from-markdown-legal-pages.json)", () => {
    // The expected documents were written by Lexical's own nodes in a headless editor, from this
    // Markdown; the pages' copy may change, this pair does not.
    const { pages } = JSON.parse(readFileSync(path.join(import.meta.dirname, "fixtures", "from-markdown-legal-pages.json"), "utf8")) as {
      pages: { slug: string; markdown: string; document: RichTextDocument }[];
    };
    expect(pages.map((page) => page.slug)).toEqual(["aviso-de-privacidad", "terminos"]);
    for (const page of pages) {
      const document = markdownToRichText(page.markdown);
      expect(document, page.slug).toEqual(page.document);
      // Key for key and in Lexical's order: the same text stored twice is the same string.
      expect(JSON.stringify(document), page.slug).toBe(JSON.stringify(page.document));
    }
  });

  it("is a document Lexical reads and writes back unchanged, whatever the Markdown holds", () => {
    const documents = [
      markdownToRichText("## Uno\n\nTexto con **negritas**, *cursivas* y [un enlace](https://example.com/a \"Ejemplo\").\n\n### Dos\n\n> Una cita\n\n- a\n  - b\n    - c\n- d\n\n3. tres\n4. cuatro\n"),
      markdownToRichText("**Primero** en negritas\n\n| Material | Plazo |\n|:--|--:|\n| Aluminio | **5** días |\n| | |\n\n```\nG01 X10\nG01 Y5\n```\n\n- uno\n* dos\n  1. a\n\n> cita\n>\n> - con lista\n\n- [ ] tarea\n"),
      richTextDocument([headingNode("h3", "Título"), paragraphNode([textNode("Texto "), textNode("fuerte", 1)])]),
    ];
    for (const document of documents) {
      const json = JSON.stringify(document);
      expect(JSON.stringify(throughLexical(document)), json).toBe(json);
    }
  });

  it("keeps internal, mail and phone links in the same tab", () => {
    const html = renderRichText(markdownToRichText("[cotice](/cotiza) [correo](mailto:ventas@forja.example) [llamar](tel:+524420000000)"));
    expect(html).toBe('<p><a href="/cotiza">cotice</a> <a href="mailto:ventas@forja.example">correo</a> <a href="tel:+524420000000">llamar</a></p>');
  });

  it("joins lists of one kind that follow each other and numbers their items as Lexical does", () => {
    // "-" then "*" (or "1." then "2)") are two lists to Markdown and one to the editor.
    expect(outlineOf(markdownToRichText("- uno\n  - uno.a\n* dos\n  - dos.a\n\n1. a\n2) b\n"))).toEqual([
      ["ul", ["li", "uno"], ["li", ["ul", ["li", "uno.a"]]], ["li", "dos"], ["li", ["ul", ["li", "dos.a"]]]],
      ["ol", ["li", "a"], ["li", "b"]],
    ]);
    const [bullets] = markdownToRichText("- uno\n  - uno.a\n- dos\n").root.children;
    expect(bullets?.children?.map((item) => [item.value, item.indent])).toEqual([[1, 0], [2, 0], [2, 0]]);
  });

  it("keeps the words of a list, code or HTML inside a quote", () => {
    expect(outlineOf(markdownToRichText("> Antes:\n>\n> - uno\n> - dos\n>\n> `G01`\n"))).toEqual([["quote", "Antes:", "br", "br", "uno", "br", "dos", "br", "br", { text: "G01", format: 16 }]]);
  });

  it("reads entities as a browser does", () => {
    expect(plainText(markdownToRichText("Diseño &amp; fabricación &eacute; &#241; &#x41; &#0; &desconocida;"))).toBe("Diseño & fabricación é ñ A \ufffd &desconocida;");
  });

  it("keeps characters as written, and the words of raw HTML and unsafe links without their markup", () => {
    const document = markdownToRichText('Uno & dos < tres «x» <script>alert(1)</script> [clic](javascript:alert(1)) <b onclick="x()">fin</b>\n\n<div>bloque</div>\n');
    const json = JSON.stringify(document);
    expect(json).not.toMatch(/script|javascript|onclick|<b|<div/);
    // A block of HTML keeps its words as a paragraph of its own.
    expect(plainText(document)).toBe("Uno & dos < tres «x» alert(1) clic fin\nbloque");
  });

  describe("payloads in Markdown come out clean", () => {
    it.each([
      ["script block", "hola\n\n<script>alert(1)</script>", "hola"],
      ["style block", "hola\n\n<style>body{display:none}</style>", "hola"],
      ["img onerror", 'hola <img src="x" onerror="alert(1)">', "hola"],
      ["iframe", 'hola\n\n<iframe src="https://evil.example"></iframe>', "hola"],
      ["inline handler on a tag", 'hola <b onclick="alert(1)">tú</b>', "hola tú"],
      ["javascript: link", "[hola](javascript:alert(1))", "hola"],
      ["upper-case scheme", "[hola](JAVASCRIPT:alert(1))", "hola"],
      ["data: link", "[hola](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)", "hola"],
      ["raw javascript: anchor", '<a href="javascript:alert(1)">hola</a>', "hola"],
      ["image with a javascript: source", "hola ![](javascript:alert(1))", "hola"],
      ["a > inside a quoted attribute", '<div title="a > alert(1)">hola</div>', "hola"],
      ["a script that a lookalike tag does not close", "<div>hola<script>alert(1)</scriptx>evil()</script></div>", "hola"],
      ["a script after an empty comment", "<div>hola<!--><script>alert(1)</script><!---></div>", "hola"],
      ["a self-closed script", "<div>hola<script/>alert(1)</script></div>", "hola"],
      ["a script after letters that grow in lower case", "<div>İİİİİİİİ<script>alert(1)</script> y hola</div>", "İİİİİİİİ y hola"],
      ["an unterminated script", "<div>hola<SCRIPT type=x>alert(1)", "hola"],
      ["style, textarea, option and xmp content", "<div>hola<style>p{display:none}</style><textarea>alert(1)</textarea><option>evil</option><xmp><script></xmp></div>", "hola"],
      ["comments, declarations and processing instructions", "<div><!-- alert(1) --><!DOCTYPE evil><?evil ?>hola</ evil></div>", "hola"],
    ])("%s", (_name, markdown, words) => {
      const document = markdownToRichText(markdown);
      expect(JSON.stringify(document)).not.toMatch(/script|alert|onerror|onclick|iframe|evil|javascript|data:|display/i);
      expect(plainText(document)).toBe(words);
      const html = renderRichText(document);
      expect(html).toBe(`<p>${words}</p>`);
    });
  });
});
