import { describe, expect, it } from "vitest";
import type { RichTextDocument, RichTextNode } from "./document";
import { renderRichText } from "./render.server";

const text = (value: string, format = 0): RichTextNode => ({ type: "text", text: value, format, detail: 0, mode: "normal", style: "", version: 1 });
const paragraph = (...children: RichTextNode[]): RichTextNode => ({ type: "paragraph", children, version: 1 });
const item = (...children: RichTextNode[]): RichTextNode => ({ type: "listitem", children, version: 1 });
const list = (listType: "bullet" | "number", ...children: RichTextNode[]): RichTextNode => ({ type: "list", listType, start: 1, children, version: 1 });
const link = (url: string, ...children: RichTextNode[]): RichTextNode => ({ type: "link", url, children, version: 1 });
const cell = (value: string, headerState = 0): RichTextNode => ({ type: "tablecell", headerState, colSpan: 1, children: [paragraph(text(value))] });
const doc = (...children: RichTextNode[]): RichTextDocument => ({ root: { type: "root", children } });
const render = (...children: RichTextNode[]) => renderRichText(doc(...children));

describe("renderRichText", () => {
  it("renders headings h2–h4, keeping the page's h1 for its title", () => {
    expect(render({ type: "heading", tag: "h1", children: [text("Uno")] }, { type: "heading", tag: "h3", children: [text("Tres")] }, { type: "heading", tag: "h4", children: [text("Cuatro")] }, { type: "heading", tag: "h6", children: [text("Seis")] })).toBe(
      "<h2>Uno</h2><h3>Tres</h3><h4>Cuatro</h4><h4>Seis</h4>",
    );
  });

  it("renders the format bits of text", () => {
    expect(render(paragraph(text("n", 1), text("c", 2), text("s", 8), text("x", 16), text("ni", 3), text("todo", 1 | 2 | 8), text("t", 4)))).toBe(
      "<p><strong>n</strong><em>c</em><u>s</u><code>x</code><strong><em>ni</em></strong><strong><em><u>todo</u></em></strong><s>t</s></p>",
    );
  });

  it("renders line breaks, quotes and leaves empty paragraphs out", () => {
    expect(render(paragraph(text("uno"), { type: "linebreak" }, text("dos")), paragraph(), { type: "quote", children: [text("cita")] })).toBe("<p>uno<br />dos</p><blockquote>cita</blockquote>");
  });

  it("renders nested lists inside the item they belong to", () => {
    const deepest = list("bullet", item(text("hondo")));
    const inner = list("number", item(text("uno.a")), item(deepest));
    const html = render(list("bullet", item(text("uno")), item(inner), item(text("dos"))), { type: "list", listType: "number", start: 3, children: [item(text("tres"))] });
    expect(html).toBe('<ul><li>uno<ol><li>uno.a<ul><li>hondo</li></ul></li></ol></li><li>dos</li></ul><ol start="3"><li>tres</li></ol>');
  });

  it("renders tables with a header row, spans and one paragraph per cell unwrapped", () => {
    const table: RichTextNode = {
      type: "table",
      children: [
        { type: "tablerow", children: [cell("Material", 1), cell("Plazo", 1)] },
        { type: "tablerow", children: [cell("Aluminio", 2), { type: "tablecell", headerState: 0, colSpan: 1, rowSpan: 2, children: [paragraph(text("5 días")), paragraph(text("hábiles"))] }] },
        { type: "tablerow", children: [{ ...cell("Acero"), colSpan: 1 }] },
      ],
    };
    expect(render(table)).toBe(
      '<table><thead><tr><th>Material</th><th>Plazo</th></tr></thead><tbody><tr><th>Aluminio</th><td rowspan="2"><p>5 días</p><p>hábiles</p></td></tr><tr><td>Acero</td></tr></tbody></table>',
    );
  });

  it("opens external links in a new tab without an opener and leaves internal ones plain", () => {
    expect(render(paragraph(link("https://example.com/a?b=1&c=2", text("sitio")), link("/cotiza", text("cotice")), link("mailto:ventas@forja.example", text("correo")), link("tel:+524420000000", text("llamar"))))).toBe(
      '<p><a href="https://example.com/a?b=1&amp;c=2" rel="noopener noreferrer" target="_blank">sitio</a><a href="/cotiza">cotice</a><a href="mailto:ventas@forja.example">correo</a><a href="tel:+524420000000">llamar</a></p>',
    );
  });

  it("renders images through the media callback, and leaves them out without one", () => {
    const image: RichTextNode = { type: "image", mediaId: "m-1", alt: 'Pieza "A" & B', version: 1 };
    expect(render(paragraph(image))).toBe("");
    const html = renderRichText(doc(paragraph(image, { type: "image", mediaId: "borrada", alt: "x" })), {
      resolveImage: (id) => (id === "m-1" ? { src: "/medios/m-1-800.webp", width: 800, height: 600, srcset: "/medios/m-1-400.webp 400w, /medios/m-1-800.webp 800w", sizes: "100vw" } : null),
    });
    expect(html).toBe('<p><img src="/medios/m-1-800.webp" srcset="/medios/m-1-400.webp 400w, /medios/m-1-800.webp 800w" sizes="100vw" alt="Pieza &quot;A&quot; &amp; B" width="800" height="600" loading="lazy" decoding="async" /></p>');
  });

  it("renders a library image as a <picture> with its other formats first, and drops what a source may not say", () => {
    const image: RichTextNode = { type: "image", mediaId: "m-1", alt: 'Brida "B" <script>alert(1)</script>', version: 1 };
    const html = renderRichText(doc(paragraph(image)), {
      resolveImage: () => ({
        src: "/medios/m-1/800.webp",
        srcset: "/medios/m-1/400.webp 400w, /medios/m-1/800.webp 800w",
        sizes: "100vw",
        width: 800,
        height: 600,
        sources: [
          { type: "image/avif", srcset: "/medios/m-1/400.avif 400w, /medios/m-1/800.avif 800w" },
          { type: 'image/x" onerror="alert(1)' as `image/${string}`, srcset: "/medios/m-1/400.png 400w" },
          { type: "image/webp", srcset: "javascript:alert(1) 400w" },
        ],
      }),
    });
    expect(html).toBe(
      '<p><picture><source type="image/avif" srcset="/medios/m-1/400.avif 400w, /medios/m-1/800.avif 800w" sizes="100vw" />' +
        '<img src="/medios/m-1/800.webp" srcset="/medios/m-1/400.webp 400w, /medios/m-1/800.webp 800w" sizes="100vw" alt="Brida &quot;B&quot; &lt;script&gt;alert(1)&lt;/script&gt;" width="800" height="600" loading="lazy" decoding="async" /></picture></p>',
    );
  });

  it("passes every text through resolveText before escaping it, inside links and formats too", () => {
    const resolveText = (value: string) => value.replace("{correo}", "<ventas@forja.mx>");
    expect(renderRichText(doc(paragraph(text("Escriba a {correo}.", 1)), paragraph(link("/contact", text("{correo}")))), { resolveText })).toBe(
      '<p><strong>Escriba a &lt;ventas@forja.mx&gt;.</strong></p><p><a href="/contact">&lt;ventas@forja.mx&gt;</a></p>',
    );
    // Without it, the text is shown as stored.
    expect(render(paragraph(text("Escriba a {correo}.")))).toBe("<p>Escriba a {correo}.</p>");
  });

  it("renders unknown node types as their text only", () => {
    expect(render(paragraph({ type: "mention", children: [text("<b>@ana</b>")] }), { type: "youtube", videoID: "x", children: [{ type: "widget", text: "hola" }] })).toBe("<p>&lt;b&gt;@ana&lt;/b&gt;</p>hola");
  });

  it("renders the stored JSON string as well as the document", () => {
    expect(renderRichText(JSON.stringify(doc(paragraph(text("Hola", 1)))))).toBe("<p><strong>Hola</strong></p>");
    expect(renderRichText("{roto")).toBe("");
  });

  it("renders nothing for a missing document", () => {
    expect(renderRichText(null)).toBe("");
    expect(renderRichText({} as RichTextDocument)).toBe("");
  });

  describe("payloads in the JSON come out clean", () => {
    it.each([
      ["script in text", paragraph(text("<script>alert(1)</script>")), /<script/i],
      ["img onerror in text", paragraph(text('<img src=x onerror="alert(1)">')), /<img/i],
      ["iframe in text", paragraph(text('<iframe src="https://evil.example"></iframe>')), /<iframe/i],
      ["javascript: link", paragraph(link("javascript:alert(1)", text("clic"))), /href|javascript/i],
      ["javascript: with control characters", paragraph(link("java\tscript:alert(1)", text("clic"))), /href|javascript/i],
      ["upper-case javascript:", paragraph(link("JAVASCRIPT:alert(1)", text("clic"))), /href|javascript/i],
      ["data: link", paragraph(link("data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==", text("clic"))), /href|data:/i],
      ["vbscript: link", paragraph(link("vbscript:msgbox(1)", text("clic"))), /href|vbscript/i],
      ["quote breaking out of href", paragraph(link('https://a.example/" onmouseover="alert(1)', text("clic"))), /"\s*onmouseover=/i],
      ["heading tag injection", { type: "heading", tag: "h2 onclick=alert(1)", children: [text("x")] }, /onclick/i],
      ["list start injection", { type: "list", listType: "number", start: '1" onclick="alert(1)', children: [item(text("x"))] }, /onclick/i],
      ["style in a text node", paragraph({ ...text("rojo"), style: "color:red;background:url(javascript:alert(1))" }), /style|javascript/i],
      ["image src from a javascript: resolver", paragraph({ type: "image", mediaId: "m", alt: "x" }), /javascript|<img/i],
    ])("%s", (_name, node, forbidden) => {
      const html = renderRichText(doc(node), { resolveImage: () => ({ src: "javascript:alert(1)", width: 1, height: 1 }) });
      expect(html).not.toMatch(forbidden);
    });

    it("keeps the words of a link it refused", () => {
      expect(render(paragraph(link("javascript:alert(1)", text("clic aquí"))))).toBe("<p>clic aquí</p>");
    });

    it("escapes text so it cannot become markup", () => {
      expect(render(paragraph(text("5 < 6 & 7 > 3 \"'")))).toBe("<p>5 &lt; 6 &amp; 7 &gt; 3 \"'</p>");
    });

    it("cuts documents deeper than any editor writes", () => {
      let node: RichTextNode = text("fondo");
      for (let level = 0; level < 10_000; level += 1) node = { type: "quote", children: [node] };
      expect(() => render(node)).not.toThrow();
    });
  });
});
