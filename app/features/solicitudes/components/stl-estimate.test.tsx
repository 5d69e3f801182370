import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { meshFromStl } from "~/components/part-viewer/viewer-mesh";
import { measureStl } from "../estimate";
import { boxMesh, toBinaryStl } from "../stl-test-meshes";
import { StlEstimate, StlEstimateView, type StlEstimateItem } from "./stl-estimate";

// Intl may use non-breaking spaces; compare with ordinary spaces.
const plain = (html: string) => html.replace(/[\u00a0\u202f]/g, " ");

const closedBox = measureStl(toBinaryStl(boxMesh([10, 20, 30])));
const openBox = measureStl(toBinaryStl(boxMesh([12.5, 40, 7.25], [0, 0, 0], [1])));

const items: StlEstimateItem[] = [
  { key: "1", name: "soporte.stl", result: { status: "listo", measurement: closedBox } },
  { key: "2", name: "tapa.stl", result: { status: "listo", measurement: openBox } },
];

describe("StlEstimateView", () => {
  it("shows volume, box and the price range with IVA in a polite live region", () => {
    const html = plain(renderToStaticMarkup(<StlEstimateView items={items} service="prototipado-rapido" quantity={1} />));
    expect(html).toContain('aria-live="polite"');
    expect(html).toMatch(/<section aria-labelledby="[^"]+"/);
    expect(html).toContain("Estimación instantánea de sus archivos STL</h3>");
    expect(html).toContain("<h4");
    expect(html).toContain("6 cm³");
    expect(html).toContain("10 × 20 × 30 mm");
    expect(html).toContain("12.5 × 40 × 7.25 mm");
    expect(html).toContain("Precio indicativo: $406.00 – $1,392.00 MXN, IVA incluido");
    expect(html).toContain("Es una estimación automática; la cotización formal la envía nuestro equipo.");
    expect(html).toContain("Por 1 pieza.");
  });

  it("says when the mesh is not closed, only for that file", () => {
    const html = renderToStaticMarkup(<StlEstimateView items={items} service={undefined} quantity={undefined} />);
    expect(html.match(/La malla no está cerrada: el volumen es aproximado\./g)).toHaveLength(1);
    expect(html.indexOf("La malla no está cerrada")).toBeGreaterThan(html.indexOf("tapa.stl"));
  });

  it("asks for a priced service, or explains there is no automatic price, and shows no range", () => {
    const none = renderToStaticMarkup(<StlEstimateView items={items} service={undefined} quantity={3} />);
    expect(none).toContain("Elija «Prototipado rápido» o «Maquinado CNC»");
    expect(none).not.toContain("Precio indicativo");
    const moldes = renderToStaticMarkup(<StlEstimateView items={items} service="moldes-inyeccion" quantity={3} />);
    expect(moldes).toContain("Para «Moldes e inyección de plástico» no damos precio automático");
    expect(moldes).not.toContain("Precio indicativo");
  });

  it("shows the quantity in es-MX and the range for CNC", () => {
    const html = plain(renderToStaticMarkup(<StlEstimateView items={items.slice(0, 1)} service="maquinado-cnc" quantity={1500} />));
    expect(html).toContain("Por 1,500 piezas.");
    expect(html).toContain("De aluminio 6061 a acero inoxidable 304");
    expect(html).toMatch(/Precio indicativo: \$[\d,]+\.\d\d – \$[\d,]+\.\d\d MXN, IVA incluido/);
  });

  it("shows progress, errors and oversized files", () => {
    const html = renderToStaticMarkup(
      <StlEstimateView
        items={[
          { key: "a", name: "grande.stl", result: { status: "calculando" } },
          { key: "b", name: "roto.stl", result: { status: "error", message: "El archivo STL no contiene triángulos." } },
          { key: "c", name: "enorme.stl", result: { status: "muy-grande" } },
        ]}
        service="prototipado-rapido"
        quantity={1}
      />,
    );
    expect(html).toContain('aria-busy="true"');
    expect(html).toContain("Calculando volumen y dimensiones…");
    expect(html).toContain("El archivo STL no contiene triángulos.");
    expect(html).toContain("Pesa más de 50 MB");
  });
});

describe("StlEstimateView 3D preview", () => {
  it("offers «Ver en 3D» beside a file read in the browser, with its box, and nothing of the scene yet", () => {
    const mesh = meshFromStl(toBinaryStl(boxMesh([10, 20, 30])));
    const html = plain(
      renderToStaticMarkup(<StlEstimateView items={[{ key: "1", name: "soporte.stl", result: { status: "listo", measurement: closedBox, mesh } }]} service={undefined} quantity={1} />),
    );
    // Rendered on the server, the viewer keeps the button's place (the button itself comes with hydration: part-viewer.test.tsx).
    expect(html).toMatch(/<span aria-hidden="true" class="[^"]*\binvisible\b[^"]*">Ver en 3D<\/span>/);
    expect(html).not.toContain("<canvas");
    // Without the triangles (e.g. an estimate rendered elsewhere) there is no button.
    expect(renderToStaticMarkup(<StlEstimateView items={items} service={undefined} quantity={1} />)).not.toContain("Ver en 3D");
  });
});

describe("StlEstimate", () => {
  it("renders nothing without STL files and starts calculating for each .stl", () => {
    const pdf = new File(["%PDF-1.7"], "plano.pdf", { type: "application/pdf" });
    expect(renderToStaticMarkup(<StlEstimate files={[pdf]} service="maquinado-cnc" quantity={1} />)).toBe("");
    const stl = new File([toBinaryStl(boxMesh([1, 1, 1])) as BlobPart], "Pieza.STL");
    const html = renderToStaticMarkup(<StlEstimate files={[pdf, stl]} service="maquinado-cnc" quantity={1} />);
    expect(html).toContain("Pieza.STL");
    expect(html).toContain("Calculando volumen y dimensiones…");
    expect(html).not.toContain("plano.pdf");
  });
});
