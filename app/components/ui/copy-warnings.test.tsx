import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { checkCopy, checkRichTextCopy } from "~/lib/copy-check";
import { CopyWarnings, copyWarningsId } from "./copy-warnings";

describe("CopyWarnings", () => {
  it("keeps an empty polite live region under the field when there is nothing to say", () => {
    const html = renderToStaticMarkup(<CopyWarnings fieldId="titulo" warnings={[]} />);
    expect(html).toBe('<div id="titulo-redaccion" aria-live="polite" class="mt-1 text-sm"></div>');
    expect(copyWarningsId("titulo")).toBe("titulo-redaccion");
  });

  it("lists each warning's advice in the region the field points at, and says they do not block", () => {
    const warnings = checkCopy("Cotiza tu pieza de 3 x 4", { kind: "text" });
    const html = renderToStaticMarkup(
      <>
        <input id="resumen" aria-describedby={copyWarningsId("resumen")} />
        <CopyWarnings fieldId="resumen" warnings={warnings} />
      </>,
    );
    expect(html).toContain('aria-describedby="resumen-redaccion"');
    expect(html).toContain('<div id="resumen-redaccion" aria-live="polite"');
    expect(html).toContain("3 sugerencias de redacción (puede guardar y publicar de todos modos):");
    const items = [...html.matchAll(/<li>(.*?)<\/li>/g)].map((match) => match[1]);
    expect(items).toEqual([
      "«Cotiza» trata al cliente de tú; el sitio le habla de usted: escriba «Cotice».",
      "«tu» trata al cliente de tú; el sitio le habla de usted: escriba «su».",
      "Use el signo de multiplicación ×, no la letra x: escriba «3 × 4» en lugar de «3 x 4».",
    ]);
  });

  it("says «Una sugerencia» for one, and takes the warnings of a rich text", () => {
    const html = renderToStaticMarkup(<CopyWarnings fieldId="cuerpo" warnings={checkRichTextCopy(["Cotice su pieza.", { alt: "" }])} />);
    expect(html).toContain("Una sugerencia de redacción (puede guardar y publicar de todos modos):");
    expect(html).toContain("Falta el texto alternativo");
  });
});
