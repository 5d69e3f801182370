// @vitest-environment jsdom
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { cleanPastedHtml } from "./clean-paste";

// The browser's path: cleanPastedHtml with the page's own DOMParser, as the editor's paste handler calls it.

const fixture = (name: string) => readFileSync(path.join(import.meta.dirname, "fixtures", name), "utf8");

const expected = (tolerance: string) =>
  "<h2>Maquinado CNC de precisión</h2>" +
  `<p>Fabricamos piezas en <strong>aluminio 6061</strong> y <em>acero inoxidable 304</em> con tolerancias de ${tolerance}. Consulte nuestras <a href="https://forja.example/servicios/maquinado-cnc">capacidades de maquinado</a>.</p>` +
  "<h2>Procesos disponibles</h2>" +
  "<ul><li>Fresado en 3 y 5 ejes</li><li>Torneado CNC<ul><li>Roscado métrico y NPT</li></ul></li><li>Electroerosión por hilo</li></ul>" +
  "<h2>Cómo trabajamos</h2>" +
  "<ol><li>Envíe su plano en <strong>STEP</strong> o PDF.</li><li>Le respondemos con una cotización en 24 horas.</li><li>Fabricamos e inspeccionamos cada lote.</li></ol>" +
  "<p><em>Precios con IVA incluido.</em></p>";

describe("cleanPastedHtml", () => {
  it("turns Word's list paragraphs, <b> and font-weight spans into plain HTML", () => {
    expect(cleanPastedHtml(fixture("word-365-windows.html"))).toBe(expected("<strong>±0.05 mm</strong>"));
  });

  it("drops Google Docs' bold wrapper and reads its inline styles", () => {
    expect(cleanPastedHtml(fixture("google-docs-chrome.html"))).toBe(expected("±0.05 mm"));
  });

  it("tells Word's numbered lists from bulleted ones by the marker when the styles are missing", () => {
    const html =
      "<p class=MsoListParagraphCxSpFirst style='mso-list:l3 level1 lfo1'><span style='mso-list:Ignore'>a)<span>&nbsp;</span></span>Primero</p>" +
      "<p class=MsoListParagraphCxSpMiddle style='mso-list:l3 level2 lfo1'><span style='mso-list:Ignore'>§<span>&nbsp;</span></span>Detalle</p>" +
      "<p class=MsoListParagraphCxSpLast style='mso-list:l3 level1 lfo1'><span style='mso-list:Ignore'>b)<span>&nbsp;</span></span>Segundo</p>" +
      "<p class=MsoNormal>Después</p>";
    expect(cleanPastedHtml(html)).toBe("<ol><li>Primero<ul><li>Detalle</li></ul></li><li>Segundo</li></ol><p>Después</p>");
  });

  it("wraps loose text in paragraphs and drops empty ones and stray line breaks", () => {
    expect(cleanPastedHtml("texto suelto<br><div><p>&nbsp;</p><br><p>otro</p></div><br>")).toBe("<p>texto suelto</p><p>otro</p>");
  });

  it("puts list items copied without their list into one", () => {
    // The HTML parser keeps a bare <li> in a <div>: a partial copy from a web page.
    expect(cleanPastedHtml("<div><li>uno</li><li>dos</li></div><p>fin</p>")).toBe("<ul><li>uno</li><li>dos</li></ul><p>fin</p>");
  });

  it("keeps underline outside links only, and maps headings to h2–h4", () => {
    expect(cleanPastedHtml('<h1>A</h1><h3>B</h3><h6>C</h6><p><span style="text-decoration:underline">sub</span> <a href="/x"><u>enlace</u></a></p>')).toBe(
      '<h2>A</h2><h3>B</h3><h4>C</h4><p><u>sub</u> <a href="/x">enlace</a></p>',
    );
  });

  it.each([
    ["script", '<p>hola</p><script>alert(1)</script>'],
    ["img onerror", '<p>hola<img src=x onerror="alert(1)"></p>'],
    ["iframe", '<iframe src="https://evil.example"></iframe><p>hola</p>'],
    ["style attribute and element", '<style>p{color:red}</style><p style="color:red" class="x" id="y">hola</p>'],
    ["javascript: link", '<p><a href="javascript:alert(1)">hola</a></p>'],
    ["data: link", '<p><a href="data:text/html,x">hola</a></p>'],
    ["comments and Office markup", "<!--[if gte mso 9]><xml><o:OfficeDocumentSettings/></xml><![endif]--><p class=MsoNormal>hola<o:p></o:p></p><!-- comentario -->"],
    ["font and span", '<p><font face="Comic Sans" color="red"><span lang="es">hola</span></font></p>'],
  ])("removes %s", (_name, html) => {
    expect(cleanPastedHtml(html)).toBe("<p>hola</p>");
  });
});
