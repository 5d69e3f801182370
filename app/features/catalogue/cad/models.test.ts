import * as r from "replicad";
import { beforeAll, describe, expect, it } from "vitest";
import { loadCadKernel, shapeSize } from "~/lib/cad-kernel";
import { DEMO_PRODUCTS } from "../demo-products.server";
import { DEMO_MODELS } from "./demo-models";
import { buildPart, type PartSpec } from "./models";

// The parametric models on the real kernel: every demo product has one, each builds a valid solid,
// and the solids have the dimensions and volumes their descriptions state (checked against the
// closed-form volume where there is one).

beforeAll(async () => {
  await loadCadKernel();
}, 60_000);

const sizeOf = shapeSize;

const circle = (d: number) => (Math.PI * d * d) / 4;

describe("demo part models", () => {
  it("every demo product has a model, and every model a demo product", () => {
    expect(Object.keys(DEMO_MODELS).sort()).toEqual(DEMO_PRODUCTS.map((product) => product.sku).sort());
  });

  it.each(Object.entries(DEMO_MODELS))("%s builds a closed solid with volume", (_sku, model) => {
    const shape = buildPart(r, model.spec);
    expect(r.measureVolume(shape)).toBeGreaterThan(0);
    expect(r.measureArea(shape)).toBeGreaterThan(0);
    expect(model.notes.length).toBeGreaterThan(0);
    expect(model.material).not.toBe("");
  });

  it("the 2 in slip-on flange has its ASME B16.5 outside diameter and four bolt holes", () => {
    const spec = DEMO_MODELS["FOR-BRD-150"]!.spec as Extract<PartSpec, { kind: "brida" }>;
    const flange = buildPart(r, spec);
    const size = sizeOf(flange);
    expect(size.x).toBeCloseTo(152.4, 1);
    expect(size.y).toBeCloseTo(152.4, 1);
    // Without its holes the same flange weighs exactly four bolt holes through the ring (outside the raised face) more.
    const solid = buildPart(r, { ...spec, holes: 0 });
    expect(r.measureVolume(solid) - r.measureVolume(flange)).toBeCloseTo(4 * circle(19) * spec.thickness, 0);
  });

  it("the mounting plate is 300 × 200 × 6.35 with 77 tapped and 4 fixing holes", () => {
    const spec = DEMO_MODELS["FOR-PLA-061"]!.spec as Extract<PartSpec, { kind: "placa" }>;
    const plate = buildPart(r, spec);
    const size = sizeOf(plate);
    expect([size.x, size.y, size.z].map((value) => Number(value.toFixed(2)))).toEqual([300, 200, 6.35]);
    const corners = (4 - Math.PI) * 3 * 3; // the 3 mm rounded corners
    const expected = (300 * 200 - corners - 77 * circle(spec.gridHole) - 4 * circle(spec.cornerHole)) * 6.35;
    expect(r.measureVolume(plate) / expected).toBeCloseTo(1, 4);
  });

  it("the bronze bushing is a chamfered tube of 1 × 1-1/4 × 1 in", () => {
    const spec = DEMO_MODELS["FOR-BUJ-660"]!.spec as Extract<PartSpec, { kind: "buje" }>;
    const bushing = buildPart(r, spec);
    const size = sizeOf(bushing);
    expect(size.x).toBeCloseTo(31.75, 2);
    expect(size.z).toBeCloseTo(25.4, 2);
    const tube = (circle(31.75) - circle(25.4)) * 25.4;
    // Four 0.8 mm chamfers take a little off the tube, never more than a few percent.
    expect(r.measureVolume(bushing)).toBeLessThan(tube);
    expect(r.measureVolume(bushing)).toBeGreaterThan(tube * 0.95);
  });

  it("the enclosure is 400 × 300 × 200 outside with its door in front", () => {
    const size = sizeOf(buildPart(r, DEMO_MODELS["FOR-GAB-432"]!.spec));
    expect(size.x).toBeCloseTo(300, 1);
    expect(size.z).toBeCloseTo(400, 1);
    expect(size.y).toBeGreaterThan(200);
    expect(size.y).toBeLessThan(220);
  });

  it("the same parameters always give the same solid", () => {
    const spec = DEMO_MODELS["FOR-ESC-100"]!.spec;
    expect(r.measureVolume(buildPart(r, spec))).toBe(r.measureVolume(buildPart(r, spec)));
  });
});
