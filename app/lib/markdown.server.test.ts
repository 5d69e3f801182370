import { describe, expect, it } from "vitest";
import { renderMarkdown } from "./markdown.server";

describe("renderMarkdown", () => {
  it("renders ordinary markdown", () => {
    const html = renderMarkdown("## Pagos\n\nTexto con **negritas** y *cursivas*.\n\n- uno\n- dos\n\n1. primero\n\n> cita\n\n`código`");
    expect(html).toContain("<h2>Pagos</h2>");
    expect(html).toContain("<strong>negritas</strong>");
    expect(html).toContain("<em>cursivas</em>");
    expect(html).toContain("<ul>\n<li>uno</li>");
    expect(html).toContain("<ol>");
    expect(html).toContain("<blockquote>");
    expect(html).toContain("<code>código</code>");
  });

  it("renders GFM tables", () => {
    const html = renderMarkdown("| Material | Plazo |\n|---|---|\n| Aluminio | 5 días |");
    expect(html).toMatch(/<table>\s*<thead>\s*<tr>\s*<th>Material<\/th>/);
    expect(html).toContain("<td>Aluminio</td>");
  });

  it("turns h1 into h2 so the page title stays the only h1", () => {
    const html = renderMarkdown("# Sección\n\n<h1>Crudo</h1>");
    expect(html).not.toMatch(/<h1/i);
    expect(html).toContain("<h2>Sección</h2>");
    expect(html).toContain("<h2>Crudo</h2>");
  });

  it("drops headings below h4 but keeps their text", () => {
    const html = renderMarkdown("##### Nota menor");
    expect(html).not.toMatch(/<h5/);
    expect(html).toContain("Nota menor");
  });

  it.each([
    ["script", "<script>alert(1)</script>", /<script|alert/i],
    ["style", "<style>body{display:none}</style>", /<style|display:none/i],
    ["img onerror", '<img src="x" onerror="alert(1)">', /<img|onerror|alert/i],
    ["svg onload", '<svg onload="alert(1)"></svg>', /<svg|onload|alert/i],
    ["iframe", '<iframe src="https://evil.example"></iframe>', /<iframe|evil/i],
    ["form", '<form action="https://evil.example"><input name="x"></form>', /<form|<input/i],
    ["handler on allowed tag", '<p onclick="alert(1)" style="color:red">hola</p>', /onclick|style=|alert/i],
    ["markdown javascript link", "[clic](javascript:alert(1))", /javascript:|alert/i],
    ["upper-case scheme", "[clic](JAVASCRIPT:alert(1))", /javascript:|alert/i],
    ["raw javascript link", '<a href="javascript:alert(1)">clic</a>', /javascript:|alert/i],
    ["entity-encoded scheme", '<a href="jav&#x61;script:alert(1)">clic</a>', /javascript|alert/i],
    ["data link", "[clic](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)", /data:/i],
    ["vbscript link", '<a href="vbscript:msgbox(1)">clic</a>', /vbscript/i],
  ])("removes %s", (_name, markdown, forbidden) => {
    expect(renderMarkdown(markdown)).not.toMatch(forbidden);
  });

  it("keeps the text of a link whose href it removed", () => {
    expect(renderMarkdown("[clic aquí](javascript:alert(1))")).toContain("clic aquí");
  });

  it("opens external links in a new tab without an opener", () => {
    expect(renderMarkdown("[sitio](https://example.com/a)")).toContain('<a href="https://example.com/a" rel="noopener noreferrer" target="_blank">sitio</a>');
    expect(renderMarkdown("[sitio](http://example.com)")).toContain('rel="noopener noreferrer" target="_blank"');
  });

  it("leaves internal, mail and phone links in the same tab", () => {
    expect(renderMarkdown("[cotice](/cotiza)")).toContain('<a href="/cotiza">cotice</a>');
    expect(renderMarkdown("[correo](mailto:ventas@forja.example)")).toContain('<a href="mailto:ventas@forja.example">correo</a>');
    expect(renderMarkdown("[llamar](tel:+524420000000)")).toContain('<a href="tel:+524420000000">llamar</a>');
  });

  it("overrides the rel and target staff wrote on an external link", () => {
    const html = renderMarkdown('<a href="https://example.com" rel="opener" target="_self">x</a>');
    expect(html).toContain('<a href="https://example.com" rel="noopener noreferrer" target="_blank">x</a>');
  });

  it("escapes text so it cannot become markup", () => {
    expect(renderMarkdown("5 < 6 & 7 > 3")).toContain("5 &lt; 6 &amp; 7 &gt; 3");
  });
});
