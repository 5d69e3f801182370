import { describe, expect, it } from "vitest";
import { fitDistance, ISO_DIRECTION, orbitOffset, sectionPlane, zoomOffset, type Vec3 } from "./view-math";

const length = (v: Vec3) => Math.hypot(...v);
const polarOf = (v: Vec3) => Math.acos(v[2] / length(v));

describe("fitDistance", () => {
  it("puts a sphere exactly in a square view's field, plus the margin", () => {
    // Half-angle 30° (fov 60°): the sphere touches the view when sin(30°) = r / d, so d = 2r.
    expect(fitDistance(10, 60, 1, 1)).toBeCloseTo(20, 9);
    expect(fitDistance(10, 60, 1, 1.15)).toBeCloseTo(23, 9);
  });

  it("lets the narrower side decide: a tall view needs more distance than a wide one", () => {
    const wide = fitDistance(10, 35, 16 / 9);
    const tall = fitDistance(10, 35, 9 / 16);
    expect(wide).toBeCloseTo(fitDistance(10, 35, 1), 9); // the vertical field is the narrower one
    expect(tall).toBeGreaterThan(wide * 1.5);
    // In the tall view the horizontal half-angle is atan(tan(17.5°) × 9/16).
    expect(tall).toBeCloseTo((10 * 1.15) / Math.sin(Math.atan(Math.tan((17.5 * Math.PI) / 180) * (9 / 16))), 9);
  });

  it("scales with the part", () => {
    expect(fitDistance(254, 35, 4 / 3)).toBeCloseTo(25.4 * fitDistance(10, 35, 4 / 3), 6);
  });
});

describe("orbitOffset", () => {
  it("turns about Z (up) and keeps height and distance", () => {
    const turned = orbitOffset([10, 0, 5], Math.PI / 2, 0);
    expect(turned[0]).toBeCloseTo(0, 9);
    expect(turned[1]).toBeCloseTo(10, 9);
    expect(turned[2]).toBeCloseTo(5, 9);
  });

  it("tilts towards and away from the top, never past the pole", () => {
    const start: Vec3 = [ISO_DIRECTION[0] * 30, ISO_DIRECTION[1] * 30, ISO_DIRECTION[2] * 30];
    const lower = orbitOffset(start, 0, Math.PI / 12);
    expect(polarOf(lower)).toBeCloseTo(polarOf(start) + Math.PI / 12, 9);
    expect(length(lower)).toBeCloseTo(30, 9);
    const over = orbitOffset(start, 0, -Math.PI);
    expect(polarOf(over)).toBeCloseTo(0.01, 9);
    expect(over[2]).toBeGreaterThan(29.99);
    const under = orbitOffset(start, 0, Math.PI * 2);
    expect(polarOf(under)).toBeCloseTo(Math.PI - 0.01, 9);
  });

  it("leaves a zero offset alone", () => {
    expect(orbitOffset([0, 0, 0], 1, 1)).toEqual([0, 0, 0]);
  });
});

describe("zoomOffset", () => {
  it("scales the distance and keeps the direction, within the limits", () => {
    expect(zoomOffset([3, 0, 4], 0.8, 1, 100)).toEqual([2.4000000000000004, 0, 3.2]);
    expect(length(zoomOffset([3, 0, 4], 0.01, 1, 100))).toBeCloseTo(1, 9);
    expect(length(zoomOffset([3, 0, 4], 1000, 1, 100))).toBeCloseTo(100, 9);
    const far = zoomOffset([3, 0, 4], 1.25, 1, 100);
    expect(far[0] / far[2]).toBeCloseTo(3 / 4, 9);
  });
});

describe("sectionPlane", () => {
  it("passes through the centre across Y and keeps the half away from a camera in front", () => {
    const { normal, constant } = sectionPlane([5, 12, -3]);
    const kept = (p: Vec3) => normal[0] * p[0] + normal[1] * p[1] + normal[2] * p[2] + constant >= 0;
    expect(kept([5, 12, -3])).toBe(true);
    expect(kept([0, 13, 0])).toBe(true);
    expect(kept([0, 11, 0])).toBe(false);
    // The camera starts in front (−Y): the half towards it is cut away.
    expect(ISO_DIRECTION[1]).toBeLessThan(0);
  });
});
