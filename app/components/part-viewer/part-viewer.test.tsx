import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { PartViewer } from "./part-viewer";

// The closed viewer, as the server renders it: the fallback, and only the place of the «Ver en 3D»
// button (hidden from everyone: without JavaScript it could not open anything), no canvas, no scene.
// The button itself and opening it (WebGL, the controls) are exercised in a real browser:
// tests/e2e/part-viewer.spec.ts and product-cad.spec.ts.

describe("PartViewer (closed)", () => {
  it("keeps the button's place without a button before JavaScript, with the fallback shown", () => {
    const html = renderToStaticMarkup(
      <PartViewer source={{ kind: "stl", url: "/pieza.stl" }} label="Brida 4 in" dimensions="120 × 120 × 19 mm">
        <img src="/plano.svg" alt="Dibujo técnico de la brida" />
      </PartViewer>,
    );
    expect(html).not.toContain("<button");
    expect(html).toMatch(/<span aria-hidden="true" class="[^"]*\binvisible\b[^"]*">Ver en 3D<\/span>/);
    expect(html).toContain('alt="Dibujo técnico de la brida"');
    expect(html).not.toContain("<canvas");
    expect(html).not.toContain("Alambre");
  });
});
