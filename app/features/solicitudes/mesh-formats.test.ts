import { describe, expect, it } from "vitest";
import { meshFigures } from "./mesh-figures";
import { meshFormat, MeshFormatError, parse3mf, parseObj, readMeshFile } from "./mesh-formats";
import { CUBE_OBJ, CUBE_TRIANGLES, meshXml, modelXml, RELS, text, threeMf, zip } from "./mesh-test-files";

// OBJ and 3MF files written by hand (mesh-test-files.ts, the 3MF packages with a tiny ZIP writer), each with known figures.

const CUBE_10MM = { volumeMm3: 1000, areaMm2: 600, bbox: { x: 10, y: 10, z: 10 }, triangles: 12, closed: true };

describe("parseObj", () => {
  it("reads a 10 mm cube of quads (v/vt/vn corners, negative indices): 1000 mm³, 600 mm², closed, no unit", () => {
    const { triangles, unit } = parseObj(text(CUBE_OBJ));
    expect(unit).toBeNull();
    expect(meshFigures(triangles)).toEqual(CUBE_10MM);
  });

  it("fan-triangulates a polygon of more than four corners", () => {
    // A regular hexagon of side 1 in z = 0: area 3√3/2.
    const corners = Array.from({ length: 6 }, (_, i) => `v ${Math.cos((i * Math.PI) / 3)} ${Math.sin((i * Math.PI) / 3)} 0`).join("\n");
    const figures = meshFigures(parseObj(text(`${corners}\nf 1 2 3 4 5 6\n`)).triangles);
    expect(figures.triangles).toBe(4);
    expect(figures.areaMm2).toBeCloseTo((3 * Math.sqrt(3)) / 2, 3);
  });

  it("reads CRLF lines, tabs and a continued line", () => {
    const obj = CUBE_OBJ.replace("f 1 2 6 5", "f 1 2 \\\n6 5").replace(/ /g, "\t").replace(/\n/g, "\r\n");
    expect(meshFigures(parseObj(text(obj)).triangles)).toEqual(CUBE_10MM);
  });

  it("marks a cube without its top open, and still measures it", () => {
    const open = CUBE_OBJ.replace("f 5//1 6//1 7//1 8//1\n", "");
    const figures = meshFigures(parseObj(text(open)).triangles);
    expect(figures.closed).toBe(false);
    expect(figures.areaMm2).toBe(500);
  });

  it("says which line uses a vertex that does not exist", () => {
    expect(() => parseObj(text("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n"))).toThrow("El archivo OBJ no es válido en la línea 4: la cara usa el vértice 4, que no existe (hay 3).");
    expect(() => parseObj(text("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 -4\n"))).toThrow(/vértice -4/);
    expect(() => parseObj(text("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 0 2\n"))).toThrow(/«0» no es un índice/);
  });

  it("rejects coordinates that are not numbers and files without faces", () => {
    expect(() => parseObj(text("v 0 abc 0\n"))).toThrow("El archivo OBJ no es válido en la línea 1: «abc» no es una coordenada válida.");
    expect(() => parseObj(text("v 1e39 0 0\n"))).toThrow(MeshFormatError);
    expect(() => parseObj(text("# solo puntos\nv 0 0 0\nv 1 0 0\nl 1 2\n"))).toThrow(expect.objectContaining({ code: "vacio" }));
  });
});

describe("parse3mf", () => {
  it("reads a 10 mm cube in millimetres from a deflated model", async () => {
    const { triangles, unit } = await parse3mf(threeMf(modelXml({ unit: "millimeter", size: 10 })));
    expect(unit).toBe("mm");
    expect(meshFigures(triangles)).toEqual(CUBE_10MM);
  });

  it("reads a stored (uncompressed) model, and takes millimetres when the model names no unit", async () => {
    const { triangles, unit } = await parse3mf(threeMf(modelXml({ size: 10 }), { modelMethod: 0 }));
    expect(unit).toBe("mm");
    expect(meshFigures(triangles)).toEqual(CUBE_10MM);
  });

  it("converts a cube of 1 inch to millimetres and says the file is in inches", async () => {
    const { triangles, unit } = await parse3mf(threeMf(modelXml({ unit: "inch", size: 1 })));
    expect(unit).toBe("in");
    const figures = meshFigures(triangles);
    expect(figures.bbox).toEqual({ x: 25.4, y: 25.4, z: 25.4 });
    expect(figures.volumeMm3).toBeCloseTo(25.4 ** 3, 1);
    expect(figures.areaMm2).toBeCloseTo(6 * 25.4 ** 2, 1);
  });

  it.each([
    ["micron", 10_000, "um"],
    ["centimeter", 1, "cm"],
    ["meter", 0.01, "m"],
    ["foot", 10 / 304.8, "ft"],
  ])("converts %s to millimetres", async (unitName, size, unit) => {
    const read = await parse3mf(threeMf(modelXml({ unit: unitName, size })));
    expect(read.unit).toBe(unit);
    expect(meshFigures(read.triangles).bbox.x).toBeCloseTo(10, 3);
  });

  it("places build items and components by their transforms, a mirrored one included", async () => {
    // Object 2 holds object 1 twice: as is, and moved 20 mm along x and mirrored in y.
    const assembly = `
    <object id="2" type="model"><components>
      <component objectid="1"/>
      <component objectid="1" transform="1 0 0 0 -1 0 0 0 1 20 10 0"/>
    </components></object>`;
    const items = `<item objectid="2" transform="1 0 0 0 1 0 0 0 1 0 0 5"/>`;
    const figures = meshFigures((await parse3mf(threeMf(modelXml({ size: 10, extraObjects: assembly, items })))).triangles);
    expect(figures).toMatchObject({ volumeMm3: 2000, areaMm2: 1200, bbox: { x: 30, y: 10, z: 10 }, triangles: 24, closed: true });
  });

  it("reads components from another model part (the production extension), with a prefixed namespace", async () => {
    const part = `<?xml version="1.0"?><m:model unit="millimeter" xmlns:m="http://schemas.microsoft.com/3dmanufacturing/core/2015/02"><m:resources><m:object id="7">${meshXml(10, CUBE_TRIANGLES, "m:")}</m:object></m:resources><m:build/></m:model>`;
    const root = `<?xml version="1.0"?>
<model unit="millimeter" xmlns="http://schemas.microsoft.com/3dmanufacturing/core/2015/02" xmlns:p="http://schemas.microsoft.com/3dmanufacturing/production/2015/06">
  <resources><object id="1"><components><component p:path="/3D/Objects/cubo.model" objectid="7"/></components></object></resources>
  <build><item objectid="1"/></build>
</model>`;
    const read = await parse3mf(threeMf(root, { extra: [{ name: "3D/Objects/cubo.model", data: text(part), method: 8 }] }));
    expect(meshFigures(read.triangles)).toEqual(CUBE_10MM);
  });

  it("measures an open mesh but says it is open", async () => {
    const figures = meshFigures((await parse3mf(threeMf(modelXml({ size: 10, triangles: CUBE_TRIANGLES.slice(2) })))).triangles);
    expect(figures.closed).toBe(false);
    expect(figures.areaMm2).toBe(500);
  });

  it("says a cut-off or non-ZIP file is damaged", async () => {
    const whole = threeMf(modelXml({ size: 10 }));
    await expect(parse3mf(whole.subarray(0, whole.length - 40))).rejects.toThrow("El archivo 3MF está dañado: no es un paquete ZIP completo (falta su índice). Expórtelo de nuevo desde su programa.");
    await expect(parse3mf(text("no soy un zip"))).rejects.toThrow(expect.objectContaining({ code: "paquete" }));
  });

  it("says a corrupt deflated model cannot be decompressed", async () => {
    const whole = threeMf(modelXml({ size: 10 }));
    const corrupt = whole.slice();
    // The model's deflated bytes follow its name in its local header: from the first byte on they
    // become a block of the reserved type, which no inflater accepts.
    const name = "3D/3dmodel.model";
    const buffer = Buffer.from(corrupt.buffer);
    let at = buffer.indexOf(name);
    while (at !== -1 && buffer.readUInt32LE(at - 30) !== 0x04034b50) at = buffer.indexOf(name, at + 1);
    corrupt.fill(0xff, at + name.length, at + name.length + 50);
    await expect(parse3mf(corrupt)).rejects.toThrow(/El archivo 3MF está dañado: la parte «3D\/3dmodel.model» no se puede descomprimir/);
  });

  it("rejects a package without a model, an unknown unit and a triangle with a missing vertex", async () => {
    const noModel = zip([{ name: "_rels/.rels", data: text(RELS()), method: 0 }]);
    await expect(parse3mf(noModel)).rejects.toThrow("El archivo 3MF no contiene el modelo «3D/3dmodel.model»; expórtelo de nuevo desde su programa.");
    await expect(parse3mf(threeMf(modelXml({ unit: "parsec", size: 10 })))).rejects.toThrow(/unidad que no reconocemos/);
    await expect(parse3mf(threeMf(modelXml({ size: 10, triangles: [[0, 1, 8]] })))).rejects.toThrow(/vértice 8, que no existe/);
  });

  it("finds the root model where the package's relationships say", async () => {
    const pkg = zip([
      { name: "_rels/.rels", data: text(RELS("/3D/pieza.model")), method: 8 },
      { name: "3D/pieza.model", data: text(modelXml({ size: 10 })), method: 8 },
    ]);
    expect(meshFigures((await parse3mf(pkg)).triangles)).toEqual(CUBE_10MM);
  });
});

describe("meshFormat and readMeshFile", () => {
  it("tells OBJ and 3MF by extension and reads either", async () => {
    expect(meshFormat("Pieza.OBJ")).toBe("obj");
    expect(meshFormat("placa.3mf")).toBe("3mf");
    expect(meshFormat("pieza.stl")).toBeNull();
    expect(meshFigures((await readMeshFile("obj", text(CUBE_OBJ))).triangles).volumeMm3).toBe(1000);
    expect(meshFigures((await readMeshFile("3mf", threeMf(modelXml({ size: 10 })))).triangles).volumeMm3).toBe(1000);
    await expect(readMeshFile("obj", text("f 1 2 3\n"))).rejects.toThrow(MeshFormatError);
  });
});
