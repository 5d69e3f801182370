import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { PartViewer } from "./part-viewer";

// The closed viewer, as the server renders it: a button and the fallback, no canvas and no scene.
// Opening it (WebGL, the controls) is exercised in a real browser: tests/e2e/part-viewer.spec.ts.

describe("PartViewer (closed)", () => {
  it("is a «Ver en 3D» button naming the part, with the fallback shown", () => {
    const html = renderToStaticMarkup(
      <PartViewer source={{ kind: "stl", url: "/pieza.stl" }} label="Brida 4 in" dimensions="120 × 120 × 19 mm">
        <img src="/plano.svg" alt="Dibujo técnico de la brida" />
      </PartViewer>,
    );
    expect(html).toContain('<button type="button"');
    expect(html).toContain('Ver en 3D<span class="sr-only"> Brida 4 in</span>');
    expect(html).toContain('alt="Dibujo técnico de la brida"');
    expect(html).not.toContain("<canvas");
    expect(html).not.toContain("Alambre");
  });
});
