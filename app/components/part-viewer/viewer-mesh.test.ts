import { describe, expect, it } from "vitest";
import { StlParseError } from "~/lib/stl";
import { boxMesh, toAsciiStl, toBinaryStl } from "~/features/solicitudes/stl-test-meshes";
import { meshBounds, meshFromStl } from "./viewer-mesh";

describe("meshFromStl", () => {
  it("reads a binary STL into one triangle per three vertices, in mm", () => {
    const box = boxMesh([10, 20, 30], [5, -5, 0]);
    const mesh = meshFromStl(toBinaryStl(box));
    expect(mesh.indices).toBeUndefined();
    expect(mesh.positions).toEqual(box);
    expect(mesh.positions.length).toBe(12 * 9);
  });

  it("reads an ASCII STL the same way", () => {
    const box = boxMesh([1.5, 2.25, 3]);
    expect(meshFromStl(new TextEncoder().encode(toAsciiStl(box))).positions).toEqual(box);
  });

  it("refuses what is not an STL, with the parser's Spanish message", () => {
    expect(() => meshFromStl(new TextEncoder().encode("%PDF-1.7 no es una malla, aunque sea bastante largo para tener cabecera de ochenta bytes y contador"))).toThrow(
      StlParseError,
    );
  });
});

describe("meshBounds", () => {
  it("gives the box, centre and enclosing radius of an STL's triangles", () => {
    const bounds = meshBounds(meshFromStl(toBinaryStl(boxMesh([10, 20, 30], [5, -5, 0]))));
    expect(bounds.min).toEqual([5, -5, 0]);
    expect(bounds.max).toEqual([15, 15, 30]);
    expect(bounds.center).toEqual([10, 5, 15]);
    expect(bounds.radius).toBeCloseTo(Math.hypot(10, 20, 30) / 2, 9);
  });

  it("counts only the vertices an indexed mesh's triangles use", () => {
    const positions = new Float32Array([0, 0, 0, 2, 0, 0, 0, 4, 0, 1000, 1000, 1000]);
    const bounds = meshBounds({ positions, indices: new Uint32Array([0, 1, 2]) });
    expect(bounds.max).toEqual([2, 4, 0]);
    expect(bounds.radius).toBeCloseTo(Math.hypot(2, 4) / 2, 6);
  });

  it("gives an empty mesh a unit box, so the camera still has a distance", () => {
    const bounds = meshBounds({ positions: new Float32Array(0) });
    expect(bounds.center).toEqual([0, 0, 0]);
    expect(bounds.radius).toBeGreaterThan(0);
  });
});
