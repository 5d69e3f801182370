import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { CadFigures } from "../cad-units";
import { CAD_REGION_TITLE, CAD_UNREADABLE, CadEstimate, CadEstimateView, formatCm2, shownUnit, type CadEstimateItem } from "./cad-estimate";

// Intl may use non-breaking spaces; compare with ordinary spaces.
const plain = (html: string) => html.replace(/[\u00a0\u202f]/g, " ");

const cube: CadFigures = { volumeMm3: 1000, areaMm2: 600, bbox: { x: 10, y: 10, z: 10 }, triangles: 12, closed: true };
const items: CadEstimateItem[] = [
  { key: "a", name: "cubo.step", result: { status: "listo", figures: cube, unit: "mm" } },
  { key: "b", name: "roto.stp", result: { status: "error" } },
  { key: "c", name: "grande.igs", result: { status: "leyendo" } },
];
const noop = () => {};

/** The values of the unit radios, and which is checked. */
function radios(html: string): { values: string[]; checked: string[] } {
  const inputs = [...html.matchAll(/<input type="radio"[^>]*>/g)].map((match) => match[0]);
  const value = (input: string) => /value="([^"]*)"/.exec(input)![1];
  return { values: inputs.map(value), checked: inputs.filter((input) => input.includes('checked=""')).map(value) };
}

describe("CadEstimateView", () => {
  it("offers a 3D preview of a read file, with the box in the chosen unit", () => {
    const mesh = { positions: new Float32Array([0, 0, 0, 10, 0, 0, 0, 10, 0]), indices: new Uint32Array([0, 1, 2]) };
    const withMesh: CadEstimateItem[] = [{ key: "a", name: "cubo.step", result: { status: "listo", figures: cube, unit: "mm", mesh } }];
    const html = plain(renderToStaticMarkup(<CadEstimateView items={withMesh} service={undefined} quantity={1} units={{ a: "in" }} onUnitChange={noop} />));
    // Rendered on the server, the viewer keeps the button's place (the button itself comes with hydration: part-viewer.test.tsx).
    expect(html).toMatch(/<span aria-hidden="true" class="[^"]*\binvisible\b[^"]*">Ver en 3D<\/span>/);
    expect(html).not.toContain("<canvas");
    expect(renderToStaticMarkup(<CadEstimateView items={items.slice(0, 1)} service={undefined} quantity={1} units={{}} onUnitChange={noop} />)).not.toContain("Ver en 3D");
  });

  it("shows the declared unit, a labelled unit choice, the figures and the price, in a polite live region", () => {
    const html = plain(renderToStaticMarkup(<CadEstimateView items={items.slice(0, 1)} service="prototipado-rapido" quantity={1} units={{}} onUnitChange={noop} />));
    expect(html).toContain("Estimación instantánea de sus archivos STEP, IGES, OBJ y 3MF</h3>");
    expect(html).toContain(`${CAD_REGION_TITLE}</h3>`);
    expect(html).toContain('aria-live="polite"');
    expect(html).toContain('aria-busy="false"');
    expect(html).toContain("Unidades detectadas: milímetros.");
    expect(html).toMatch(/<fieldset[^>]*><legend[^>]*>Unidades del modelo<\/legend>/);
    expect(radios(html)).toEqual({ values: ["mm", "in"], checked: ["mm"] });
    expect(html).toContain("1 cm³");
    expect(html).toContain("6 cm²");
    expect(html).toContain("10 × 10 × 10 mm");
    expect(html).toContain("Precio indicativo: $406.00 – $1,392.00 MXN, IVA incluido");
    expect(html).not.toContain("sólido cerrado");
  });

  it("rescales to the chosen unit: ×25.4 for lengths, ×25.4² for area, ×25.4³ for volume", () => {
    const html = plain(renderToStaticMarkup(<CadEstimateView items={items.slice(0, 1)} service={undefined} quantity={undefined} units={{ a: "in" }} onUnitChange={noop} />));
    expect(html).toContain("16,387.06 cm³");
    expect(html).toContain("3,870.96 cm²");
    expect(html).toContain("254 × 254 × 254 mm");
    expect(radios(html)).toEqual({ values: ["mm", "in"], checked: ["in"] });
    expect(html).toContain("Unidades detectadas: milímetros."); // what the file says does not change
    expect(html).toContain("Elija «Prototipado rápido» o «Maquinado CNC»");
    expect(html).not.toContain("Precio indicativo");
  });

  it("says when the file declares no unit, and offers a third unit when the file declares one", () => {
    const none = renderToStaticMarkup(
      <CadEstimateView items={[{ key: "x", name: "x.igs", result: { status: "listo", figures: cube, unit: null } }]} service={undefined} quantity={1} units={{}} onUnitChange={noop} />,
    );
    expect(none).toContain("El archivo no indica sus unidades; suponemos milímetros.");
    const metres = renderToStaticMarkup(
      <CadEstimateView items={[{ key: "x", name: "x.step", result: { status: "listo", figures: cube, unit: "m" } }]} service={undefined} quantity={1} units={{}} onUnitChange={noop} />,
    );
    expect(metres).toContain("Unidades detectadas: metros.");
    expect(radios(metres)).toEqual({ values: ["mm", "in", "m"], checked: ["m"] });
    expect(metres).toContain(">Metros</label>");
  });

  it("shows reading, the unreadable note and an open shape, each for its own file", () => {
    const open: CadEstimateItem = { key: "d", name: "abierto.step", result: { status: "listo", figures: { ...cube, closed: false }, unit: "mm" } };
    const html = renderToStaticMarkup(<CadEstimateView items={[...items, open]} service={undefined} quantity={1} units={{}} onUnitChange={noop} />);
    expect(html).toContain('aria-busy="true"');
    expect(html).toContain("Leyendo geometría…");
    expect(html.match(new RegExp(CAD_UNREADABLE, "g"))).toHaveLength(1);
    expect(html.indexOf(CAD_UNREADABLE)).toBeGreaterThan(html.indexOf("roto.stp"));
    expect(html.match(/El modelo no forma un sólido cerrado: el volumen es aproximado\./g)).toHaveLength(1);
    expect(html.indexOf("sólido cerrado")).toBeGreaterThan(html.indexOf("abierto.step"));
  });
});

describe("CadEstimate", () => {
  it("renders nothing without STEP, IGES, OBJ or 3MF files (and so creates no worker)", () => {
    const stl = new File([new Uint8Array(84)], "pieza.stl");
    const pdf = new File([new Uint8Array(8)], "plano.pdf");
    expect(renderToStaticMarkup(<CadEstimate files={[stl, pdf]} service={undefined} quantity={1} />)).toBe("");
  });

  it("lists OBJ and 3MF files beside STEP and IGES, each being read, and leaves STL to its own estimate", () => {
    const files = ["cubo.STEP", "brida.igs", "soporte.stl", "carcasa.obj", "tapa.3MF"].map((name) => new File([new Uint8Array(8)], name));
    const html = renderToStaticMarkup(<CadEstimate files={files} service={undefined} quantity={1} />);
    expect([...html.matchAll(/<h4[^>]*>([^<]*)<\/h4>/g)].map((match) => match[1])).toEqual(["cubo.STEP", "brida.igs", "carcasa.obj", "tapa.3MF"]);
    expect(html.match(/Leyendo geometría…/g)).toHaveLength(4);
  });

  it("notes an open OBJ or 3MF mesh like an open solid, and still prices it", () => {
    const open: CadEstimateItem = { key: "m", name: "abierta.3mf", result: { status: "listo", figures: { ...cube, closed: false }, unit: "um" } };
    const html = plain(renderToStaticMarkup(<CadEstimateView items={[open]} service="prototipado-rapido" quantity={1} units={{}} onUnitChange={noop} />));
    expect(html).toContain("Unidades detectadas: micrómetros.");
    expect(radios(html)).toEqual({ values: ["mm", "in", "um"], checked: ["um"] });
    expect(html).toContain(">Micrómetros</label>");
    expect(html).toContain("El modelo no forma un sólido cerrado: el volumen es aproximado.");
    expect(html).toContain("Precio indicativo: $406.00 – $1,392.00 MXN, IVA incluido");
  });
});

describe("formatting", () => {
  it("formats area in cm² with es-MX separators, and picks the shown unit", () => {
    expect(plain(formatCm2(387_096))).toBe("3,870.96 cm²");
    expect(formatCm2(600)).toBe("6 cm²");
    expect(shownUnit("in", undefined)).toBe("in");
    expect(shownUnit("in", "mm")).toBe("mm");
    expect(shownUnit(null, undefined)).toBe("mm");
  });
});
