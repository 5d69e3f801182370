import * as r from "replicad";
import { beforeAll, describe, expect, it } from "vitest";
import { loadCadKernel } from "~/lib/cad-kernel";
import { projectViews } from "./projections";
import type { ViewProjection } from "./types";

// The four views of real solids on the real kernel: their extents are the part's sizes, the holes
// show as hidden lines, the cameras follow first-angle practice, and shapes without hidden lines
// (or without any edge at all) still project.

beforeAll(async () => {
  await loadCadKernel();
}, 60_000);

function extent(view: ViewProjection) {
  return { width: view.box.maxX - view.box.minX, height: view.box.maxY - view.box.minY };
}

/** The points a path visits with M and L commands, as "x y". */
function points(paths: string[]): Set<string> {
  const found = new Set<string>();
  for (const d of paths) for (const match of d.matchAll(/[ML](-?[\d.]+) (-?[\d.]+)/g)) found.add(`${match[1]} ${match[2]}`);
  return found;
}

/** Straight segments `[x1, y1, x2, y2]` of the paths (consecutive M/L points). */
function segments(paths: string[]): number[][] {
  const found: number[][] = [];
  for (const d of paths) {
    let previous: number[] | null = null;
    for (const match of d.matchAll(/([MLAZ])([^MLAZ]*)/g)) {
      const numbers = match[2].trim().split(/\s+/).filter(Boolean).map(Number);
      const point = numbers.slice(-2);
      if (match[1] === "L" && previous) found.push([...previous, ...point]);
      previous = match[1] === "Z" ? null : point;
    }
  }
  return found;
}

function plateWithHoles() {
  let plate = r.makeBaseBox(100, 60, 20) as r.Shape3D;
  for (const [x, y] of [[-40, -20], [40, -20], [40, 20], [-40, 20]]) plate = plate.cut(r.makeCylinder(4, 40, [x, y, -5]));
  return plate;
}

describe("projectViews", () => {
  it("gives each view of a 10 mm cube a 10 × 10 extent and no hidden lines", () => {
    const views = projectViews(r, r.makeBaseBox(10, 10, 10));
    for (const name of ["front", "top", "right"] as const) {
      expect(views[name].name).toBe(name);
      expect(extent(views[name]).width).toBeCloseTo(10, 2);
      expect(extent(views[name]).height).toBeCloseTo(10, 2);
      // The back edges lie exactly under the front ones: nothing is left to dash.
      expect(views[name].hidden).toEqual([]);
    }
    expect(views.iso.hidden).toEqual([]);
    // Isometric: the cube is 10·√2 wide on paper and 2·10·√(2/3) = 16.33 high.
    expect(extent(views.iso).width).toBeCloseTo(10 * Math.SQRT2, 1);
    expect(extent(views.iso).height).toBeCloseTo(16.33, 1);
  });

  it("measures a 100 × 60 × 20 plate in every view and dashes its four holes", () => {
    const views = projectViews(r, plateWithHoles());
    expect(extent(views.front)).toEqual({ width: 100, height: 20 });
    expect(extent(views.top)).toEqual({ width: 100, height: 60 });
    expect(extent(views.right)).toEqual({ width: 60, height: 20 });

    // Front view: each hole's two walls are dashed vertical lines through the plate's thickness.
    const hidden = segments(views.front.hidden);
    const walls = hidden.filter(([x1, y1, x2, y2]) => x1 === x2 && Math.abs(y2 - y1) === 20).map(([x]) => x);
    expect(walls.sort((a, b) => a - b)).toEqual([-44, -36, 36, 44]);
    // The holes' circles, seen edge-on, lie under the plate's outline and are not dashed over it.
    expect(hidden.every(([x1, , x2]) => x1 === x2)).toBe(true);

    // Top view: four holes as circles of radius 4, seen from above (no hidden lines).
    const circles = views.top.visible.filter((d) => d.includes("A4 4"));
    expect(circles).toHaveLength(4);
    expect(views.top.hidden).toEqual([]);
    expect(segments(views.right.hidden)).toHaveLength(4);
  });

  it("projects a cylinder Ø 50 × 30 as rectangles and a circle", () => {
    const views = projectViews(r, r.makeCylinder(25, 30));
    expect(extent(views.front)).toEqual({ width: 50, height: 30 });
    expect(extent(views.right)).toEqual({ width: 50, height: 30 });
    expect(extent(views.top)).toEqual({ width: 50, height: 50 });
    expect(views.top.visible.join("")).toContain("A25 25");
    expect(views.front.hidden).toEqual([]);
  });

  it("looks from the front (−Y), from above (+Z) and from the right (+X), y downwards", () => {
    // A base 100 × 60 × 20 with a 10 × 10 post up to z = 50 at its corner x, y ∈ [0, 10].
    const part = r.makeBox([0, 0, 0], [100, 60, 20]).fuse(r.makeBox([0, 0, 20], [10, 10, 50]));
    const views = projectViews(r, part);
    // Front: X to the right, Z up; the post's top corner is at x = 10, z = 50.
    expect(views.front.box).toEqual({ minX: 0, minY: -50, maxX: 100, maxY: 0 });
    expect(points(views.front.visible)).toContain("10 -50");
    // Right view, seen from +X: Y to the right, so the post (y ≤ 10) stands at the left end.
    expect(views.right.box).toEqual({ minX: 0, minY: -50, maxX: 60, maxY: 0 });
    expect(points(views.right.visible)).toContain("10 -50");
    expect(points(views.right.visible)).not.toContain("50 -50");
    // Top view, seen from +Z: the post's edges are visible; Y grows upwards on paper.
    expect(views.top.box).toEqual({ minX: 0, minY: -60, maxX: 100, maxY: 0 });
    expect(points(views.top.visible)).toContain("10 -10");
  });

  it("projects a sphere (no hidden lines) and an empty shape without failing", () => {
    const sphere = projectViews(r, r.makeSphere(10));
    expect(sphere.front.hidden).toEqual([]);
    expect(extent(sphere.front)).toEqual({ width: 20, height: 20 });
    expect(extent(sphere.iso)).toEqual({ width: 20, height: 20 });

    const empty = projectViews(r, r.makeCompound([]));
    for (const view of Object.values(empty)) {
      expect(view.visible).toEqual([]);
      expect(view.hidden).toEqual([]);
      expect(view.box).toEqual({ minX: 0, minY: 0, maxX: 0, maxY: 0 });
    }
  });

  it("writes compact path data rounded to hundredths of a millimetre", () => {
    const views = projectViews(r, r.makeCylinder(12.3456, 7.891, [0.001, 0, 0], [1, 1, 1]));
    const all = Object.values(views).flatMap((view) => [...view.visible, ...view.hidden]);
    expect(all.length).toBeGreaterThan(0);
    for (const d of all) {
      expect(d).toMatch(/^M/);
      for (const number of d.match(/-?[\d.]+(e-?\d+)?/g) ?? []) expect(number).toMatch(/^-?\d+(\.\d{1,2})?$/);
    }
  });
});
