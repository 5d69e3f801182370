import { describe, expect, it } from "vitest";
import { meshFigures, surfaceArea, triangleSoup } from "./mesh-figures";
import { boxMesh, uvSphereMesh } from "./stl-test-meshes";

describe("meshFigures", () => {
  it("measures a 10 mm cube: 1000 mm³, 600 mm², 10 × 10 × 10 mm, closed", () => {
    expect(meshFigures(boxMesh([10, 10, 10]))).toEqual({ volumeMm3: 1000, areaMm2: 600, bbox: { x: 10, y: 10, z: 10 }, triangles: 12, closed: true });
  });

  it("measures a box far from the origin like one at it", () => {
    const figures = meshFigures(boxMesh([20, 30, 5], [1000, -2000, 300]));
    expect(figures.volumeMm3).toBe(3000);
    expect(figures.areaMm2).toBe(2 * (20 * 30 + 20 * 5 + 30 * 5));
  });

  it("approaches a sphere's area as the mesh gets finer", () => {
    const { triangles } = uvSphereMesh(10, 64, 128);
    expect(surfaceArea(triangles)).toBeGreaterThan(4 * Math.PI * 100 * 0.995);
    expect(surfaceArea(triangles)).toBeLessThan(4 * Math.PI * 100);
  });

  it("says an open box is open and still gives its area", () => {
    const figures = meshFigures(boxMesh([10, 10, 10], [0, 0, 0], [0]));
    expect(figures.closed).toBe(false);
    expect(figures.areaMm2).toBe(500);
  });
});

describe("triangleSoup", () => {
  it("expands indexed meshes (several of them) into 9 floats per triangle", () => {
    const quad = { attributes: { position: { array: [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0] } }, index: { array: [0, 1, 2, 0, 2, 3] } };
    const soup = triangleSoup([quad, quad]);
    expect(soup.length).toBe(36);
    expect(Array.from(soup.slice(9, 18))).toEqual([0, 0, 0, 1, 1, 0, 0, 1, 0]);
    expect(surfaceArea(soup)).toBe(2);
  });
});
