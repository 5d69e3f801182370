import { describe, expect, it } from "vitest";
import { meshFormat } from "./mesh-formats";
import { readMeshForEstimate } from "./mesh-reading";
import { CUBE_OBJ, CUBE_TRIANGLES, modelXml, text, threeMf } from "./mesh-test-files";

// What the /cotiza worker answers for an OBJ or a 3MF: figures, declared unit and the preview's mesh.

const CUBE_10MM = { volumeMm3: 1000, areaMm2: 600, bbox: { x: 10, y: 10, z: 10 }, triangles: 12, closed: true };

describe("readMeshForEstimate", () => {
  it("reads an OBJ cube: figures in mm, no unit, and its 12 triangles as the mesh to draw (no indices)", async () => {
    const reading = await readMeshForEstimate("obj", text(CUBE_OBJ));
    expect(reading?.figures).toEqual(CUBE_10MM);
    expect(reading?.unit).toBeNull();
    expect(reading?.mesh.positions).toBeInstanceOf(Float32Array);
    expect(reading?.mesh.positions.length).toBe(12 * 9);
    expect(reading?.mesh).not.toHaveProperty("indices");
  });

  it("reads a 3MF cube with its declared unit, converted to mm", async () => {
    expect(await readMeshForEstimate("3mf", threeMf(modelXml({ unit: "millimeter", size: 10 })))).toMatchObject({ figures: CUBE_10MM, unit: "mm" });
    const micrometres = await readMeshForEstimate("3mf", threeMf(modelXml({ unit: "micron", size: 10_000 })));
    expect(micrometres).toMatchObject({ figures: CUBE_10MM, unit: "um" });
    const inch = await readMeshForEstimate("3mf", threeMf(modelXml({ unit: "inch", size: 1 })));
    expect(inch?.unit).toBe("in");
    expect(inch?.figures.bbox).toEqual({ x: 25.4, y: 25.4, z: 25.4 });
  });

  it("keeps an open mesh's figures, marked not closed (priced like an open STL)", async () => {
    const open = await readMeshForEstimate("3mf", threeMf(modelXml({ size: 10, triangles: CUBE_TRIANGLES.slice(2) })));
    expect(open?.figures.closed).toBe(false);
    expect(open?.figures.areaMm2).toBe(500);
    expect(open?.figures.volumeMm3).toBeGreaterThan(0);
    const objOpen = await readMeshForEstimate("obj", text(CUBE_OBJ.replace("f 5//1 6//1 7//1 8//1\n", "")));
    expect(objOpen?.figures.closed).toBe(false);
  });

  it("answers null for a file that cannot be read or encloses no volume", async () => {
    const whole = threeMf(modelXml({ size: 10 }));
    expect(await readMeshForEstimate("3mf", whole.subarray(0, whole.length - 40))).toBeNull();
    expect(await readMeshForEstimate("obj", text("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n"))).toBeNull();
    // A flat square: a surface, but no volume to price.
    expect(await readMeshForEstimate("obj", text("v 0 0 0\nv 10 0 0\nv 10 10 0\nv 0 10 0\nf 1 2 3 4\n"))).toBeNull();
  });

  it("is reached by file name for .obj and .3mf only", () => {
    expect(["pieza.OBJ", "caja.3mf", "cubo.step", "soporte.stl"].map(meshFormat)).toEqual(["obj", "3mf", null, null]);
  });
});
