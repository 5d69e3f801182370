import { describe, expect, it } from "vitest";
import { mergeMeshes } from "./cad-mesh";
import { meshFigures, triangleSoup } from "./mesh-figures";

// Two meshes as occt-import-js returns them: plain arrays of positions and triangle indices.
const triangle = { attributes: { position: { array: [0, 0, 0, 1, 0, 0, 0, 1, 0] } }, index: { array: [0, 1, 2] } };
const square = { attributes: { position: { array: [0, 0, 5, 2, 0, 5, 2, 2, 5, 0, 2, 5] } }, index: { array: [0, 1, 2, 0, 2, 3] } };

describe("mergeMeshes", () => {
  it("concatenates the positions and shifts each mesh's indices past the vertices before it", () => {
    const merged = mergeMeshes([triangle, square]);
    expect(merged.positions).toBeInstanceOf(Float32Array);
    expect(merged.indices).toBeInstanceOf(Uint32Array);
    expect([...merged.positions]).toEqual([...triangle.attributes.position.array, ...square.attributes.position.array]);
    expect([...merged.indices]).toEqual([0, 1, 2, 3, 4, 5, 3, 5, 6]);
  });

  it("describes the same triangles the figures are measured from", () => {
    const merged = mergeMeshes([triangle, square]);
    const asOne = [{ attributes: { position: { array: merged.positions } }, index: { array: merged.indices } }];
    expect(triangleSoup(asOne)).toEqual(triangleSoup([triangle, square]));
    expect(meshFigures(triangleSoup(asOne))).toEqual(meshFigures(triangleSoup([triangle, square])));
  });

  it("refuses an index that points past its own mesh", () => {
    expect(() => mergeMeshes([{ attributes: { position: { array: [0, 0, 0] } }, index: { array: [0, 1, 2] } }])).toThrow(RangeError);
  });

  it("gives empty buffers for no meshes", () => {
    const merged = mergeMeshes([]);
    expect(merged.positions.length).toBe(0);
    expect(merged.indices.length).toBe(0);
  });
});
