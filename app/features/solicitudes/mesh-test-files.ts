// OBJ and 3MF files with known figures, and a tiny ZIP writer for 3MF packages, for unit tests
// (never used by the app). The ZIP entries are stored (method 0) or deflated (method 8) with node:zlib.
import { crc32, deflateRawSync } from "node:zlib";

export const text = (value: string) => new TextEncoder().encode(value);

/** A 10 mm cube as an OBJ of quads (outward, counter-clockwise), with texture and normal indices like an exporter writes them. */
export const CUBE_OBJ = `# cubo de 10 mm
mtllib cubo.mtl
o Cubo
v 0 0 0
v 10 0 0
v 10 10 0
v 0 10 0
v 0 0 10
v 10 0 10
v 10 10 10
v 0 10 10
vt 0 0
vn 0 0 -1
usemtl acero
s off
f 1/1/1 4/1/1 3/1/1 2/1/1
f 5//1 6//1 7//1 8//1
f 1 2 6 5
f 2/1 3/1 7/1 6/1
f 3 4 8 7
f -8 -4 -1 -5
`;

/** The cube's 8 corners and 12 triangles as 3MF XML (indices from 0). */
const CUBE_VERTICES: [number, number, number][] = [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]];
export const CUBE_TRIANGLES: [number, number, number][] = [
  [0, 3, 2], [0, 2, 1], [4, 5, 6], [4, 6, 7], [0, 1, 5], [0, 5, 4],
  [1, 2, 6], [1, 6, 5], [2, 3, 7], [2, 7, 6], [3, 0, 4], [3, 4, 7],
];

export function meshXml(size: number, triangles = CUBE_TRIANGLES, prefix = ""): string {
  const vertices = CUBE_VERTICES.map(([x, y, z]) => `<${prefix}vertex x="${x * size}" y="${y * size}" z="${z * size}"/>`).join("\n        ");
  const faces = triangles.map(([a, b, c]) => `<${prefix}triangle v1="${a}" v2="${b}" v3="${c}"/>`).join("\n        ");
  return `<${prefix}mesh>\n      <${prefix}vertices>\n        ${vertices}\n      </${prefix}vertices>\n      <${prefix}triangles>\n        ${faces}\n      </${prefix}triangles>\n    </${prefix}mesh>`;
}

export function modelXml({ unit, size, items = `<item objectid="1"/>`, extraObjects = "", triangles }: { unit?: string; size: number; items?: string; extraObjects?: string; triangles?: typeof CUBE_TRIANGLES }): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<model ${unit ? `unit="${unit}" ` : ""}xml:lang="es-MX" xmlns="http://schemas.microsoft.com/3dmanufacturing/core/2015/02">
  <metadata name="Title">Cubo de prueba</metadata>
  <resources>
    <object id="1" type="model">
    ${meshXml(size, triangles)}
    </object>${extraObjects}
  </resources>
  <build>${items}</build>
</model>`;
}

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="model" ContentType="application/vnd.ms-package.3dmanufacturing-3dmodel+xml"/></Types>`;
export const RELS = (target = "/3D/3dmodel.model") => `<?xml version="1.0" encoding="UTF-8"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Target="${target}" Id="rel0" Type="http://schemas.microsoft.com/3dmanufacturing/2013/01/3dmodel"/></Relationships>`;

/** A ZIP with each entry stored (method 0) or deflated (method 8), CRCs and central directory included. */
export function zip(entries: { name: string; data: Uint8Array; method: 0 | 8 }[]): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const { name, data, method } of entries) {
    const nameBytes = Buffer.from(name);
    const body = method === 8 ? deflateRawSync(data) : Buffer.from(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc32(data), 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc32(data), 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, body);
    centrals.push(central, nameBytes);
    offset += 30 + nameBytes.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, directory, end]));
}

/** A 3MF package: content types and relationships stored, the model deflated (as slicers write them) unless told. */
export function threeMf(model: string, { modelMethod = 8, extra = [] as { name: string; data: Uint8Array; method: 0 | 8 }[] } = {}): Uint8Array {
  return zip([
    { name: "[Content_Types].xml", data: text(CONTENT_TYPES), method: 0 },
    { name: "_rels/.rels", data: text(RELS()), method: 0 },
    { name: "3D/3dmodel.model", data: text(model), method: modelMethod as 0 | 8 },
    ...extra,
  ]);
}
