import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { RichTextNode } from "./document";
import { htmlToRichText } from "./from-markdown.server";
import { outlineOf, type Outline } from "./from-markdown.test-support";
import { plainText } from "./plain-text";
import { renderRichText } from "./render.server";

const fixture = (name: string) => readFileSync(path.join(import.meta.dirname, "fixtures", name), "utf8");

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
