import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { RichTextDocument, RichTextNode } from "./document";
import { htmlToRichText, markdownToRichText } from "./from-markdown.server";
import { plainText } from "./plain-text";
import { renderRichText } from "./render.server";

const fixture = (name: string) => readFileSync(path.join(import.meta.dirname, "fixtures", name), "utf8");

type Outline = string | { text: string; format: number } | Outline[];

/** A document as a compact tree: ["h2", "words"], ["a <url>", …], { text, format } for formatted text. */
function outline(node: RichTextNode): Outline {
  if (node.type === "text") return node.format ? { text: String(node.text), format: Number(node.format) } : String(node.text);
  if (node.type === "linebreak") return "br";
  const label =
    node.type === "heading" ? String(node.tag)
    : node.type === "paragraph" ? "p"
    : node.type === "list" ? (node.listType === "number" ? `ol${node.start !== 1 ? ` start=${node.start}` : ""}` : "ul")
    : node.type === "listitem" ? "li"
    : node.type === "link" ? `a ${node.url}`
    : node.type === "tablecell" ? (node.headerState ? "th" : "td")
    : node.type === "image" ? `img ${node.mediaId} ${node.alt}`
    : node.type;
  return [label, ...(node.children ?? []).map(outline)];
}

const outlineOf = (document: RichTextDocument) => document.root.children.map(outline);

/** Every property name used anywhere in the document, to prove nothing else (style, class…) rides along. */
function keysOf(node: RichTextNode, keys = new Set<string>()): string[] {
  for (const key of Object.keys(node)) keys.add(key);
  for (const child of node.children ?? []) keysOf(child, keys);
  return [...keys].sort();
}

function textNodes(node: RichTextNode): RichTextNode[] {
  return node.type === "text" ? [node] : (node.children ?? []).flatMap(textNodes);
}

const EXPECTED_DOCUMENT_KEYS = ["checked", "children", "detail", "direction", "format", "indent", "listType", "mode", "rel", "start", "style", "tag", "target", "text", "textFormat", "textStyle", "title", "type", "url", "value", "version"];

describe("htmlToRichText: clipboard HTML from Word and Google Docs", () => {
  const common = (bold: boolean): Outline[] => [
    ["h2", "Maquinado CNC de precisión"],
    [
      "p",
      "Fabricamos piezas en ",
      { text: "aluminio 6061", format: 1 },
      " y ",
      { text: "acero inoxidable 304", format: 2 },
      ...(bold ? [" con tolerancias de ", { text: "±0.05 mm", format: 1 }, ". Consulte nuestras "] : [" con tolerancias de ±0.05 mm. Consulte nuestras "]),
      ["a https://forja.example/servicios/maquinado-cnc", "capacidades de maquinado"],
      ".",
    ],
    ["h2", "Procesos disponibles"],
    ["ul", ["li", "Fresado en 3 y 5 ejes"], ["li", "Torneado CNC"], ["li", ["ul", ["li", "Roscado métrico y NPT"]]], ["li", "Electroerosión por hilo"]],
    ["h2", "Cómo trabajamos"],
    ["ol", ["li", "Envíe su plano en ", { text: "STEP", format: 1 }, " o PDF."], ["li", "Le respondemos con una cotización en 24 horas."], ["li", "Fabricamos e inspeccionamos cada lote."]],
    ["p", { text: "Precios con IVA incluido.", format: 2 }],
  ];

  it("imports Word (Microsoft 365, Windows) as headings, nested lists, bold, italic and links", async () => {
    const document = await htmlToRichText(fixture("word-365-windows.html"));
    expect(outlineOf(document)).toEqual(common(true));
    expect(keysOf(document.root)).toEqual(EXPECTED_DOCUMENT_KEYS);
    expect(textNodes(document.root).every((node) => node.style === "")).toBe(true);
    expect(JSON.stringify(document)).not.toMatch(/mso|Mso|font|color|Symbol|Times New Roman|class|lang|StartFragment|\u00a0|·/);
  });

  it("imports Google Docs (Chrome) the same way, without its bold wrapper or styles", async () => {
    const document = await htmlToRichText(fixture("google-docs-chrome.html"));
    expect(outlineOf(document)).toEqual(common(false));
    expect(keysOf(document.root)).toEqual(EXPECTED_DOCUMENT_KEYS);
    expect(textNodes(document.root).every((node) => node.style === "")).toBe(true);
    expect(JSON.stringify(document)).not.toMatch(/docs-internal|font|color|white-space|presentation|aria|dir=|ltr|1155cc/);
  });

  it("keeps tables and makes a document the renderer writes back cleanly", async () => {
    const document = await htmlToRichText('<table style="border:1px solid"><tr><th>Material</th><th>Plazo</th></tr><tr><td class="x">Aluminio</td><td colspan="2"><b>5</b> días</td></tr></table>');
    expect(outlineOf(document)).toEqual([
      ["table", ["tablerow", ["th", ["p", "Material"]], ["th", ["p", "Plazo"]]], ["tablerow", ["td", ["p", "Aluminio"]], ["td", ["p", { text: "5", format: 1 }, " días"]]]],
    ]);
    expect(renderRichText(document)).toBe('<table><thead><tr><th>Material</th><th>Plazo</th></tr></thead><tbody><tr><td>Aluminio</td><td colspan="2"><strong>5</strong> días</td></tr></tbody></table>');
  });

  it("keeps images of the media library and drops pasted pictures", async () => {
    const document = await htmlToRichText('<p>Antes <img data-media-id="m-42" alt="Brida maquinada"> y <img src="https://example.com/x.png" alt="foto"> después</p>');
    // Lexical's HTML import trims the spaces beside an image.
    expect(outlineOf(document)).toEqual([["p", "Antes", ["img m-42 Brida maquinada"], "y después"]]);
  });

  describe("payloads in HTML come out clean", () => {
    it.each([
      ["script", "<p>hola</p><script>alert(1)</script>", "hola"],
      ["img onerror", '<p>hola<img src=x onerror="alert(1)"></p>', "hola"],
      ["svg onload", '<svg onload="alert(1)"><text>x</text></svg><p>hola</p>', "hola"],
      ["iframe", '<iframe src="https://evil.example"></iframe><p>hola</p>', "hola"],
      ["style element and attribute", '<style>p{display:none}</style><p style="color:red;background:url(javascript:alert(1))">hola</p>', "hola"],
      ["event handler on an allowed tag", '<p onclick="alert(1)" onmouseover="alert(2)">hola</p>', "hola"],
      ["javascript: link", '<p><a href="javascript:alert(1)">hola</a></p>', "hola"],
      ["entity-encoded javascript: link", '<p><a href="jav&#x61;script:alert(1)">hola</a></p>', "hola"],
      ["data: link", '<p><a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">hola</a></p>', "hola"],
      ["form and inputs", '<form action="https://evil.example"><input name="x" value="y"><p>hola</p></form>', "hola"],
      ["object and embed", '<object data="x.swf"></object><embed src="x.swf"><p>hola</p>', "hola"],
    ])("%s", async (_name, html, words) => {
      const document = await htmlToRichText(html);
      const json = JSON.stringify(document);
      expect(json).not.toMatch(/script|alert|onerror|onclick|onload|iframe|evil|javascript|data:|style=|display|color|swf/i);
      expect(plainText(document)).toBe(words);
      expect(renderRichText(document)).toBe(`<p>${words}</p>`);
    });
  });
});

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

  it("keeps internal, mail and phone links in the same tab", () => {
    const html = renderRichText(markdownToRichText("[cotice](/cotiza) [correo](mailto:ventas@forja.example) [llamar](tel:+524420000000)"));
    expect(html).toBe('<p><a href="/cotiza">cotice</a> <a href="mailto:ventas@forja.example">correo</a> <a href="tel:+524420000000">llamar</a></p>');
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
    ])("%s", (_name, markdown, words) => {
      const document = markdownToRichText(markdown);
      expect(JSON.stringify(document)).not.toMatch(/script|alert|onerror|onclick|iframe|evil|javascript|data:|display/i);
      expect(plainText(document)).toBe(words);
      const html = renderRichText(document);
      expect(html).toBe(`<p>${words}</p>`);
    });
  });
});
