import * as r from "replicad";
import { beforeAll, describe, expect, it } from "vitest";
import { loadCadKernel, shapeSize } from "~/lib/cad-kernel";
import { buildPart } from "~/features/catalogue/cad/models";
import { PART_FINISHES } from "~/features/catalogue/cad/finishes";
import { industries } from "../content/industries";
import { services } from "../content/services";
import { EXAMPLE_PARTS, HERO_SCENE, INDUSTRY_SCENES, SCENE_SIZES, SERVICE_SCENES, SITE_SCENES } from "./scenes";

// The site's pictures are data: every service and industry has its composition, every industry's
// example its part, and each of those parts builds on the real kernel with the dimensions it states.

beforeAll(async () => {
  await loadCadKernel();
}, 60_000);

const sizeOf = shapeSize;

describe("site scenes", () => {
  it("every service and every industry has a composition, and nothing else does", () => {
    expect(Object.keys(SERVICE_SCENES).sort()).toEqual(services.map((service) => service.slug).sort());
    expect(Object.keys(INDUSTRY_SCENES).sort()).toEqual(industries.map((industry) => industry.slug).sort());
    expect(SITE_SCENES).toHaveLength(1 + services.length + industries.length);
    expect(HERO_SCENE.format).toBe("hero");
  });

  it("every scene has its own file name, an alt text and parts in known finishes", () => {
    const ids = SITE_SCENES.map((scene) => scene.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const scene of SITE_SCENES) {
      expect(scene.id).toMatch(/^[a-z0-9-]+$/);
      expect(scene.alt.length).toBeGreaterThan(20);
      expect(scene.alt).not.toMatch(/imagen de|foto de/i);
      expect(scene.items.length).toBeGreaterThan(1);
      for (const item of scene.items) if (typeof item.look === "string") expect(PART_FINISHES).toContain(item.look);
    }
  });

  it("each format keeps one aspect ratio across its sizes", () => {
    for (const sizes of Object.values(SCENE_SIZES)) {
      const [largest, ...rest] = sizes;
      for (const size of rest) expect(size.width / size.height).toBeCloseTo(largest.width / largest.height, 5);
    }
  });

  it("every industry's example has a part with a name, a material and notes for its drawing", () => {
    expect(Object.keys(EXAMPLE_PARTS).sort()).toEqual(industries.map((industry) => industry.slug).sort());
    const codes = Object.values(EXAMPLE_PARTS).map((example) => example.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const example of Object.values(EXAMPLE_PARTS)) {
      expect(example.name).not.toBe("");
      expect(example.material).not.toBe("");
      expect(example.notes.length).toBeGreaterThan(0);
    }
  });
});

describe("example parts on the kernel", () => {
  it.each(Object.entries(EXAMPLE_PARTS))("%s builds a closed solid with volume", (_slug, example) => {
    const shape = buildPart(r, example.part);
    expect(r.measureVolume(shape)).toBeGreaterThan(0);
    expect(r.measureArea(shape)).toBeGreaterThan(0);
  });

  it("the busbar is 320 long with a 40 offset, and keeps its section through the bend", () => {
    const spec = EXAMPLE_PARTS.energia.part;
    if (spec.kind !== "barra") throw new Error("The energy example is a busbar");
    const shape = buildPart(r, spec);
    const size = sizeOf(shape);
    expect(size.x).toBeCloseTo(320, 3);
    expect(size.y).toBeCloseTo(40, 3);
    expect(size.z).toBeCloseTo(46, 3);
    // Volume = the profile's area (shoelace) × width, less the four holes through the flats.
    const { length: l, thickness: t, offset: h } = spec;
    const a = (l - h) / 2;
    const e = t * Math.tan(Math.PI / 8);
    const profile: Array<[number, number]> = [[0, 0], [a, 0], [a + h, h], [l, h], [l, h + t], [a + h - e, h + t], [a - e, t], [0, t]];
    const area = Math.abs(profile.reduce((sum, [x, y], i) => sum + x * profile[(i + 1) % profile.length][1] - profile[(i + 1) % profile.length][0] * y, 0)) / 2;
    const holes = 4 * Math.PI * (spec.hole / 2) ** 2 * t;
    expect(r.measureVolume(shape)).toBeCloseTo(area * spec.width - holes, 0);
    // The bend keeps the bar's thickness: the area is the section's along the centreline.
    expect(area).toBeCloseTo(t * (l - h + Math.SQRT2 * h), 6);
  });

  it("the star wheel has its outside diameter and loses half a pocket per pocket", () => {
    const spec = EXAMPLE_PARTS.alimentos.part;
    if (spec.kind !== "estrella" || !spec.hub || !spec.bolts) throw new Error("The food example is a star wheel with a hub");
    const shape = buildPart(r, spec);
    const size = sizeOf(shape);
    expect(size.z).toBeCloseTo(spec.thickness + spec.hub.height, 3);
    // Between two pockets the rim keeps the full radius: the box is the disc's (within the pocket's cut).
    expect(size.x).toBeGreaterThan(spec.outside - spec.pocket);
    expect(size.x).toBeLessThanOrEqual(spec.outside + 1e-6);
  });

  it("the handle is 110 long, at most as thick as its grip, with a blind bore for the insert", () => {
    const spec = EXAMPLE_PARTS.medica.part;
    if (spec.kind !== "mango") throw new Error("The medical example is a handle");
    const shape = buildPart(r, spec);
    const size = sizeOf(shape);
    expect(size.z).toBeCloseTo(110, 3);
    expect(size.x).toBeGreaterThan(spec.grip - 0.5);
    expect(size.x).toBeLessThan(spec.grip + 2);
    const solid = buildPart(r, { ...spec, bore: { diameter: 0.01, depth: 0.01 } });
    const bore = Math.PI * (spec.bore.diameter / 2) ** 2 * spec.bore.depth;
    expect(r.measureVolume(solid) - r.measureVolume(shape)).toBeCloseTo(bore, 0);
  });

  it("the façade panel is 600 × 400 with its 25 return flange, and its slots stay inside the margin", () => {
    const spec = EXAMPLE_PARTS.construccion.part;
    if (spec.kind !== "celosia") throw new Error("The construction example is a louvre panel");
    const shape = buildPart(r, spec);
    const size = sizeOf(shape);
    expect(size.x).toBeCloseTo(600, 3);
    expect(size.y).toBeCloseTo(400, 3);
    expect(size.z).toBeCloseTo(25, 3);
    const solidFace = spec.length * spec.width * spec.sheet;
    const flange = (2 * (spec.length + spec.width) - 4 * spec.sheet) * spec.sheet * (spec.flange - spec.sheet);
    // Slots take material out of the face, never more than the face inside the margin.
    const removed = solidFace + flange - r.measureVolume(shape);
    expect(removed).toBeGreaterThan(0);
    expect(removed).toBeLessThan((spec.length - 2 * spec.margin) * (spec.width - 2 * spec.margin) * spec.sheet);
  }, 30_000);

  it("the fixture base carries its pads, pins and blocks on top of the plate", () => {
    const spec = EXAMPLE_PARTS.aeroespacial.part;
    if (spec.kind !== "dispositivo") throw new Error("The aerospace example is a fixture");
    const shape = buildPart(r, spec);
    const size = sizeOf(shape);
    expect(size.x).toBeCloseTo(360, 3);
    expect(size.y).toBeCloseTo(240, 3);
    const tallest = Math.max(spec.pad.height, spec.pin.height, ...(spec.blocks ?? []).map((block) => block.height));
    expect(size.z).toBeCloseTo(spec.thickness + tallest, 3);
    const plate = spec.length * spec.width * spec.thickness;
    expect(r.measureVolume(shape)).toBeGreaterThan(plate * 0.95);
  });
});
