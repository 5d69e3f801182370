import { describe, expect, it } from "vitest";
import { detectStlFormat, meshMetrics, parseStl, StlParseError } from "./stl-geometry";
import { boxMesh, invertWinding, octahedronMesh, tetrahedronMesh, toAsciiStl, toBinaryStl, uvSphereMesh } from "./stl-test-meshes";

const ascii = (text: string) => new TextEncoder().encode(text);

function expectStlError(run: () => unknown, code: StlParseError["code"], message: RegExp) {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(StlParseError);
  expect((caught as StlParseError).code).toBe(code);
  expect((caught as StlParseError).message).toMatch(message);
}

describe("meshMetrics", () => {
  it("measures a 10 × 20 × 30 mm box: 6000 mm³, closed", () => {
    const metrics = meshMetrics(boxMesh([10, 20, 30]));
    expect(metrics.volumeMm3).toBeCloseTo(6000, 9);
    expect(metrics.bbox).toEqual({ x: 10, y: 20, z: 30 });
    expect(metrics.min).toEqual({ x: 0, y: 0, z: 0 });
    expect(metrics.max).toEqual({ x: 10, y: 20, z: 30 });
    expect(metrics.triangles).toBe(12);
    expect(metrics.closed).toBe(true);
  });

  it("gives the same volume for a unit cube far from the origin", () => {
    const metrics = meshMetrics(boxMesh([1, 1, 1], [10_000, -20_000, 30_000]));
    expect(metrics.volumeMm3).toBeCloseTo(1, 9);
    expect(metrics.bbox).toEqual({ x: 1, y: 1, z: 1 });
    expect(metrics.min).toEqual({ x: 10_000, y: -20_000, z: 30_000 });
    expect(metrics.closed).toBe(true);
  });

  it("measures a regular tetrahedron (edge 2√2): 8/3 mm³", () => {
    const metrics = meshMetrics(tetrahedronMesh());
    expect(metrics.volumeMm3).toBeCloseTo(8 / 3, 9);
    expect(metrics.bbox).toEqual({ x: 2, y: 2, z: 2 });
    expect(metrics.closed).toBe(true);
  });

  it("measures an octahedron: 4/3 r³", () => {
    const metrics = meshMetrics(octahedronMesh(5));
    expect(metrics.volumeMm3).toBeCloseTo((4 / 3) * 125, 9);
    expect(metrics.closed).toBe(true);
  });

  it("matches the exact polyhedral volume of a UV sphere, a little under the true sphere", () => {
    const { triangles, exactVolume } = uvSphereMesh(25, 40, 64);
    const metrics = meshMetrics(triangles);
    expect(Math.abs(metrics.volumeMm3 - exactVolume) / exactVolume).toBeLessThan(1e-6);
    const sphere = (4 / 3) * Math.PI * 25 ** 3;
    expect(metrics.volumeMm3).toBeLessThan(sphere);
    expect(metrics.volumeMm3 / sphere).toBeGreaterThan(0.99);
    expect(metrics.closed).toBe(true);
    expect(metrics.bbox.z).toBeCloseTo(50, 5);
  });

  it("says a box with one face removed is not closed", () => {
    for (let face = 0; face < 6; face++) {
      const metrics = meshMetrics(boxMesh([10, 20, 30], [0, 0, 0], [face]));
      expect(metrics.closed).toBe(false);
      expect(metrics.triangles).toBe(10);
    }
  });

  it("says a mesh with a lone triangle or an edge shared by four triangles is not closed", () => {
    expect(meshMetrics(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0])).closed).toBe(false);
    // Two cubes touching along one edge: that edge belongs to four triangles.
    const a = boxMesh([1, 1, 1]);
    const b = boxMesh([1, 1, 1], [1, 1, 0]);
    const both = new Float32Array(a.length + b.length);
    both.set(a);
    both.set(b, a.length);
    const metrics = meshMetrics(both);
    expect(metrics.closed).toBe(false);
    expect(metrics.volumeMm3).toBeCloseTo(2, 9);
  });

  it("ignores triangles collapsed to a segment when deciding if the mesh is closed", () => {
    const box = boxMesh([2, 2, 2]);
    const withSliver = new Float32Array(box.length + 9);
    withSliver.set(box);
    withSliver.set([0, 0, 0, 2, 0, 0, 2, 0, 0], box.length);
    const metrics = meshMetrics(withSliver);
    expect(metrics.closed).toBe(true);
    expect(metrics.volumeMm3).toBeCloseTo(8, 9);
  });

  it("returns the absolute volume for inverted winding", () => {
    const metrics = meshMetrics(invertWinding(boxMesh([10, 20, 30])));
    expect(metrics.volumeMm3).toBeCloseTo(6000, 9);
    expect(metrics.closed).toBe(true);
  });

  it("welds vertices that differ by less than the 1e-5 mm grid", () => {
    const box = boxMesh([10, 20, 30]);
    const nudged = box.map((value, index) => (index === 0 && value === 0 ? 1e-7 : value));
    expect(meshMetrics(nudged).closed).toBe(true);
    const moved = box.map((value, index) => (index === 0 && value === 0 ? 0.01 : value));
    expect(meshMetrics(moved).closed).toBe(false);
  });

  it("returns zeros for an empty mesh", () => {
    expect(meshMetrics(new Float32Array(0))).toEqual({
      volumeMm3: 0,
      bbox: { x: 0, y: 0, z: 0 },
      min: { x: 0, y: 0, z: 0 },
      max: { x: 0, y: 0, z: 0 },
      triangles: 0,
      closed: false,
    });
  });
});

describe("parseStl", () => {
  it("reads a binary STL", () => {
    const box = boxMesh([10, 20, 30]);
    const parsed = parseStl(toBinaryStl(box));
    expect(parsed.triangles).toEqual(box);
    expect(detectStlFormat(toBinaryStl(box))).toBe("binary");
  });

  it("reads an ArrayBuffer and a Uint8Array that is a view into a larger buffer", () => {
    const file = toBinaryStl(boxMesh([10, 20, 30]));
    expect(meshMetrics(parseStl(file.buffer as ArrayBuffer).triangles).volumeMm3).toBeCloseTo(6000, 9);
    const padded = new Uint8Array(file.length + 7);
    padded.set(file, 3);
    const view = padded.subarray(3, 3 + file.length);
    expect(parseStl(view).triangles).toEqual(boxMesh([10, 20, 30]));
  });

  it("treats a binary file whose header starts with \"solid\" as binary", () => {
    const box = boxMesh([10, 20, 30]);
    const file = toBinaryStl(box, "solid exported by a CAD program that writes this in binary headers");
    expect(detectStlFormat(file)).toBe("binary");
    expect(parseStl(file).triangles).toEqual(box);
  });

  it("reads an ASCII STL", () => {
    const parsed = parseStl(ascii(toAsciiStl(boxMesh([10, 20, 30]))));
    expect(parsed.triangles).toEqual(boxMesh([10, 20, 30]));
  });

  it("gives identical metrics for the binary and ASCII versions of the same mesh", () => {
    const { triangles } = uvSphereMesh(12.5, 12, 20);
    const fromBinary = meshMetrics(parseStl(toBinaryStl(triangles)).triangles);
    const fromAscii = meshMetrics(parseStl(ascii(toAsciiStl(triangles))).triangles);
    expect(fromAscii).toEqual(fromBinary);
    expect(fromBinary.closed).toBe(true);
  });

  it("accepts upper case, CRLF, exponents, a BOM, names with spaces and several solids", () => {
    const text = [
      "\ufeff  SOLID Pieza con espacios",
      "FACET NORMAL 0 0 -1",
      "OUTER LOOP",
      "VERTEX 0 0 0",
      "VERTEX 0 1e1 0",
      "VERTEX 1.0E+1 10 0",
      "ENDLOOP",
      "ENDFACET",
      "ENDSOLID Pieza con espacios",
      "solid otra",
      "facet normal nan nan nan",
      "outer loop",
      "vertex -1 -1 -1",
      "vertex -2 -1 -1",
      "vertex -1 -2 -1",
      "endloop",
      "endfacet",
      "endsolid",
    ].join("\r\n");
    const parsed = parseStl(ascii(text));
    expect(Array.from(parsed.triangles)).toEqual([0, 0, 0, 0, 10, 0, 10, 10, 0, -1, -1, -1, -2, -1, -1, -1, -2, -1]);
  });

  it("rejects a file that is not an STL, in Spanish", () => {
    const notStl = new Uint8Array(500).fill(0x41);
    expectStlError(() => parseStl(notStl), "no-stl", /no es un STL válido/);
    expectStlError(() => parseStl(ascii("%PDF-1.7")), "no-stl", /demasiado pequeño/);
    expect(detectStlFormat(notStl)).toBeNull();
  });

  it("rejects a truncated binary STL, naming the declared triangle count", () => {
    const file = toBinaryStl(boxMesh([10, 20, 30])).subarray(0, 84 + 50 * 11 + 20);
    expectStlError(() => parseStl(file), "incompleto", /está incompleto: declara 12 triángulos/);
  });

  it("rejects an STL without triangles", () => {
    expectStlError(() => parseStl(toBinaryStl(new Float32Array(0))), "vacio", /no contiene triángulos/);
    expectStlError(() => parseStl(ascii("solid vacio\nendsolid vacio\n")), "vacio", /no contiene triángulos/);
  });

  it("rejects malformed ASCII with the line number", () => {
    const good = toAsciiStl(boxMesh([1, 1, 1]));
    const lines = good.split("\n");
    // Line 5 is the second vertex of the first facet.
    const badNumber = [...lines.slice(0, 4), "      vertex 1 2 tres", ...lines.slice(5)].join("\n");
    expectStlError(() => parseStl(ascii(badNumber)), "sintaxis", /línea 5: se esperaba un número y se encontró «tres»/);
    const missingVertex = [...lines.slice(0, 4), ...lines.slice(5)].join("\n");
    expectStlError(() => parseStl(ascii(missingVertex)), "sintaxis", /se esperaba «vertex» y se encontró «endloop»/);
    const truncated = lines.slice(0, 20).join("\n");
    expectStlError(() => parseStl(ascii(truncated)), "sintaxis", /se encontró el final del archivo/);
    const noEndsolid = lines.slice(0, -2).join("\n");
    expectStlError(() => parseStl(ascii(noEndsolid)), "sintaxis", /se esperaba «endsolid» y se encontró el final del archivo/);
    const trailing = `${good}basura`;
    expectStlError(() => parseStl(ascii(trailing)), "sintaxis", /se esperaba «solid» o el final del archivo/);
  });

  it("rejects infinite or NaN coordinates", () => {
    const box = boxMesh([1, 1, 1]);
    box[4] = Number.NaN;
    expectStlError(() => parseStl(toBinaryStl(box)), "coordenadas", /coordenadas no válidas.*triángulo 1/);
    expectStlError(() => parseStl(ascii("solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 Infinity\n")), "coordenadas", /línea 4/);
    expectStlError(() => parseStl(ascii("solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1e39 0 0\n")), "coordenadas", /línea 5/);
  });

  it("is fast on a 500,000-triangle mesh", () => {
    const { triangles, exactVolume } = uvSphereMesh(50, 251, 1000);
    expect(triangles.length / 9).toBe(500_000);
    const file = toBinaryStl(triangles);
    const started = performance.now();
    const metrics = meshMetrics(parseStl(file).triangles);
    const elapsed = performance.now() - started;
    console.info(`parseStl + meshMetrics, 500,000 triangles (binary, ${(file.length / 1e6).toFixed(1)} MB): ${elapsed.toFixed(0)} ms`);
    expect(metrics.closed).toBe(true);
    expect(Math.abs(metrics.volumeMm3 - exactVolume) / exactVolume).toBeLessThan(1e-5);
    expect(elapsed).toBeLessThan(5_000);
  });
});
