import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { cadFormat, detectIgesUnit, detectStepUnit, rescaleFigures, unitChoices, type CadFigures } from "./cad-units";

const fixture = (name: string) => fs.readFileSync(path.join(import.meta.dirname, "../../../tests/fixtures/cad", name), "latin1");

/** An IGES Global section split over 72-column "G" records, as exporters write it. */
function iges(global: string): string {
  const lines = [`${"Forja".padEnd(72)}S      1`];
  for (let i = 0; i * 72 < global.length; i++) lines.push(`${global.slice(i * 72, i * 72 + 72).padEnd(72)}G${String(i + 1).padStart(7)}`);
  lines.push(`${"S      1G      2D      0P      0".padEnd(72)}T      1`);
  return lines.join("\r\n");
}

const cube: CadFigures = { volumeMm3: 1000, areaMm2: 600, bbox: { x: 10, y: 10, z: 10 }, triangles: 12, closed: true };

describe("rescaleFigures", () => {
  it("reads a millimetre file's numbers as inches: lengths × 25.4, area × 25.4², volume × 25.4³", () => {
    expect(rescaleFigures(cube, "mm", "in")).toEqual({
      volumeMm3: 16_387_064,
      areaMm2: 387_096,
      bbox: { x: 254, y: 254, z: 254 },
      triangles: 12,
      closed: true,
    });
  });

  it("reads an inch file (already converted to mm) back as millimetres, and is the identity for the declared unit", () => {
    const inchCube: CadFigures = { volumeMm3: 16_387.064, areaMm2: 3_870.96, bbox: { x: 25.4, y: 25.4, z: 25.4 }, triangles: 12, closed: true };
    expect(rescaleFigures(inchCube, "in", "mm")).toEqual({ volumeMm3: 1, areaMm2: 6, bbox: { x: 1, y: 1, z: 1 }, triangles: 12, closed: true });
    expect(rescaleFigures(inchCube, "in", "in")).toEqual(inchCube);
  });

  it("treats an undeclared unit as millimetres, and rounds to the thousandth", () => {
    expect(rescaleFigures(cube, null, "mm")).toEqual(cube);
    expect(rescaleFigures({ ...cube, volumeMm3: 1 / 3 }, null, "mm").volumeMm3).toBe(0.333);
    expect(rescaleFigures(cube, "m", "mm").bbox).toEqual({ x: 0.01, y: 0.01, z: 0.01 });
  });
});

describe("unitChoices", () => {
  it("always offers millimetres and inches, and the declared unit when it is another", () => {
    expect(unitChoices("mm")).toEqual(["mm", "in"]);
    expect(unitChoices("in")).toEqual(["mm", "in"]);
    expect(unitChoices(null)).toEqual(["mm", "in"]);
    expect(unitChoices("m")).toEqual(["mm", "in", "m"]);
  });
});

describe("detectStepUnit", () => {
  it("finds millimetres and inches in the hand-made AP214 cubes", () => {
    expect(detectStepUnit(fixture("browser-cube-10mm.step"))).toBe("mm");
    // The inch file also defines an SI millimetre (the base of its conversion); the context uses the inch.
    expect(detectStepUnit(fixture("browser-cube-1in.step"))).toBe("in");
  });

  it("reads metres, centimetres and feet, across line breaks, and nothing when there is no context", () => {
    const context = (unit: string) =>
      `DATA;\n#7=(LENGTH_UNIT()\nNAMED_UNIT(*)${unit});\n#8=(NAMED_UNIT(*)PLANE_ANGLE_UNIT()SI_UNIT($,.RADIAN.));\n#9=(GEOMETRIC_REPRESENTATION_CONTEXT(3)GLOBAL_UNIT_ASSIGNED_CONTEXT((#8, #7))REPRESENTATION_CONTEXT('',''));\nENDSEC;`;
    expect(detectStepUnit(context("SI_UNIT($,.METRE.)"))).toBe("m");
    expect(detectStepUnit(context("SI_UNIT(.CENTI.,.METRE.)"))).toBe("cm");
    expect(detectStepUnit(context("CONVERSION_BASED_UNIT('FOOT',#3)"))).toBe("ft");
    expect(detectStepUnit(context("SI_UNIT(.MICRO.,.METRE.)"))).toBeNull();
    expect(detectStepUnit("ISO-10303-21;\nHEADER;\nENDSEC;\nDATA;\n#1=CARTESIAN_POINT('',(0.,0.,0.));\nENDSEC;")).toBeNull();
  });
});

describe("detectIgesUnit", () => {
  it("reads the unit flag (parameter 14), even when the section spans records", () => {
    const head = "1H,,1H;,7Hsoporte,11Hsoporte.igs,5HForja,5HForja,32,38,6,308,15,7Hsoporte,1.0,";
    expect(detectIgesUnit(iges(`${head}2,2HMM,1,0.02,15H20261124.000000,1.0E-06,500.0,5HForja,5HForja,11,0;`))).toBe("mm");
    expect(detectIgesUnit(iges(`${head}1,4HINCH,1,0.02,15H20261124.000000,1.0E-06,20.0,5HForja,5HForja,11,0;`))).toBe("in");
    expect(detectIgesUnit(iges(`${head}6,1HM,1,0.02;`))).toBe("m");
  });

  it("falls back to the unit name for flag 3, honours other delimiters, and gives null without a unit", () => {
    expect(detectIgesUnit(iges("1H,,1H;,7Hsoporte,11Hsoporte.igs,5HForja,5HForja,32,38,6,308,15,7Hsoporte,1.0,3,4HINCH;"))).toBe("in");
    expect(detectIgesUnit(iges("1H/,1H!/7Hsoporte/11Hsoporte.igs/5HForja/5HForja/32/38/6/308/15/7Hsoporte/1.0/2/2HMM!"))).toBe("mm");
    expect(detectIgesUnit(iges("1H,,1H;,7Hsoporte,11Hsoporte.igs,5HForja,5HForja,32,38,6,308,15;"))).toBeNull();
    expect(detectIgesUnit("not an IGES file")).toBeNull();
  });
});

describe("cadFormat", () => {
  it("knows STEP and IGES by extension, in any case", () => {
    expect(cadFormat("pieza.STEP")).toBe("step");
    expect(cadFormat("pieza.stp")).toBe("step");
    expect(cadFormat("pieza.Igs")).toBe("iges");
    expect(cadFormat("pieza.iges")).toBe("iges");
    expect(cadFormat("pieza.stl")).toBeNull();
    expect(cadFormat("step")).toBeNull();
  });
});
