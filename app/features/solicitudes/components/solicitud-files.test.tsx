import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { UNIT_NAMES } from "../cad-units";
import { FileGeometry, SolicitudFiles } from "./solicitud-files";

// Intl may use non-breaking spaces; compare with ordinary spaces.
const plain = (html: string) => html.replace(/[\u00a0\u202f]/g, " ");
const cube = { volumeMm3: 1000, areaMm2: 600, bbox: { x: 10, y: 10, z: 10 }, triangles: 12, closed: true };

describe("FileGeometry", () => {
  it("names every unit the server may store, micrómetros of a 3MF included, with the form's names", () => {
    for (const [unit, name] of Object.entries(UNIT_NAMES)) {
      const html = renderToStaticMarkup(<FileGeometry geometryStatus="ok" geometry={{ ...cube, unit }} geometryReason={null} />);
      expect(html).toContain(name);
    }
    expect(renderToStaticMarkup(<FileGeometry geometryStatus="ok" geometry={{ ...cube, unit: "um" }} geometryReason={null} />)).toContain("micrómetros");
    expect(renderToStaticMarkup(<FileGeometry geometryStatus="ok" geometry={{ ...cube, unit: null }} geometryReason={null} />)).toContain("No declaradas (se leen como milímetros)");
  });

  it("says an open mesh's volume is approximate", () => {
    const html = plain(renderToStaticMarkup(<FileGeometry geometryStatus="ok" geometry={{ ...cube, closed: false, unit: null }} geometryReason={null} />));
    expect(html).toContain("1 cm³");
    expect(html).toContain("La malla no está cerrada: el volumen es aproximado.");
  });
});

describe("SolicitudFiles", () => {
  it("offers the 3D view for stored STEP, IGES, STL, OBJ and 3MF files, and not for drawings", () => {
    const kinds = ["step", "iges", "stl", "obj", "3mf", "pdf", "dxf"];
    const files = kinds.map((kind, index) => ({ id: `f${index}`, originalName: `pieza-${kind}.${kind}`, kind, size: 1024 }));
    const html = renderToStaticMarkup(<SolicitudFiles solicitudId="s1" files={files} />);
    const items = [...html.matchAll(/<li[^>]*>([\s\S]*?)<\/li>/g)].map((match) => match[1]);
    expect(items).toHaveLength(kinds.length);
    expect(items.map((item) => item.includes(">Ver en 3D</span>"))).toEqual([true, true, true, true, true, false, false]);
  });

  it("gives each file's size as people read it: KB for small ones, MB for large, never 0 MB", () => {
    const files = [
      { id: "a", originalName: "nota.pdf", kind: "pdf", size: 1_638 },
      { id: "b", originalName: "carcasa.step", kind: "step", size: 3.4 * 1024 * 1024 },
    ];
    const html = plain(renderToStaticMarkup(<SolicitudFiles solicitudId="s1" files={files} />));
    expect(html).toContain("(PDF, 2 KB)");
    expect(html).toContain("(STEP, 3.4 MB)");
    expect(html).not.toContain("0 MB");
  });
});
