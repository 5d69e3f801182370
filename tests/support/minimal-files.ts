import { crc32, deflateSync } from "node:zlib";
import { boxMesh, toAsciiStl, toBinaryStl } from "~/features/solicitudes/stl-test-meshes";

// Small but real files of every format /cotiza accepts, built byte by byte, plus a few impostors.
// Used by the type-detection, multipart and solicitud tests (never by the app).

const latin1 = (text: string) => new Uint8Array(Buffer.from(text, "latin1"));

function concat(...parts: (Uint8Array | number[])[]): Uint8Array {
  const arrays = parts.map((part) => (part instanceof Uint8Array ? part : Uint8Array.from(part)));
  const out = new Uint8Array(arrays.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of arrays) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** ISO 10303-21 (STEP) with a header and an empty data section. */
export function stepFile(): Uint8Array {
  return latin1(
    [
      "ISO-10303-21;",
      "HEADER;",
      "FILE_DESCRIPTION(('Forja pieza de prueba'),'2;1');",
      "FILE_NAME('soporte.step','2026-01-15T10:00:00',('Forja'),('Forja'),'','','');",
      "FILE_SCHEMA(('AUTOMOTIVE_DESIGN { 1 0 10303 214 1 1 1 1 }'));",
      "ENDSEC;",
      "DATA;",
      "#1=CARTESIAN_POINT('',(0.,0.,0.));",
      "ENDSEC;",
      "END-ISO-10303-21;",
      "",
    ].join("\r\n"),
  );
}

/** IGES: fixed 80-column records, the first a Start ("S") line with the section letter in column 73. */
export function igesFile(): Uint8Array {
  const record = (text: string, section: string, index: number) => `${text.padEnd(72)}${section}${String(index).padStart(7)}`;
  return latin1(
    [
      record("Forja pieza de prueba", "S", 1),
      record("1H,,1H;,7Hsoporte,11Hsoporte.igs,5HForja,5HForja,32,38,6,308,15;", "G", 1),
      record("S      1G      1D      0P      0", "T", 1),
      "",
    ].join("\n"),
  );
}

/** Binary STL of a 10 × 20 × 30 mm box (volume 6000 mm³); `header` may start with "solid". */
export function binaryStlFile(header = "Forja binary STL"): Uint8Array {
  return toBinaryStl(boxMesh([10, 20, 30]), header);
}

/** ASCII STL of a 10 × 20 × 30 mm box. */
export function asciiStlFile(): Uint8Array {
  return latin1(toAsciiStl(boxMesh([10, 20, 30]), "caja"));
}

/** A ZIP archive with stored (uncompressed) entries, as 3MF packages are. */
export function zipFile(entries: { name: string; content: string }[]): Uint8Array {
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, "utf8");
    const data = Buffer.from(entry.content, "utf8");
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0, 6); // flags
    local.writeUInt16LE(0, 8); // stored
    local.writeUInt16LE(0, 10); // time
    local.writeUInt16LE(0x5c2f, 12); // date 2026-01-15
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0, 8);
    central.writeUInt16LE(0, 10);
    central.writeUInt16LE(0, 12);
    central.writeUInt16LE(0x5c2f, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, data);
    centrals.push(central, name);
    offset += local.length + name.length + data.length;
  }
  const centralSize = centrals.reduce((sum, part) => sum + part.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return concat(...locals, ...centrals, end);
}

/** A minimal 3MF package: content types, the relationship and 3D/3dmodel.model with one triangle. */
export function threeMfFile(): Uint8Array {
  return zipFile([
    {
      name: "[Content_Types].xml",
      content:
        '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="model" ContentType="application/vnd.ms-package.3dmanufacturing-3dmodel+xml"/></Types>',
    },
    {
      name: "_rels/.rels",
      content:
        '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Target="/3D/3dmodel.model" Id="rel0" Type="http://schemas.microsoft.com/3dmanufacturing/2013/01/3dmodel"/></Relationships>',
    },
    {
      name: "3D/3dmodel.model",
      content:
        '<?xml version="1.0" encoding="UTF-8"?><model unit="millimeter" xmlns="http://schemas.microsoft.com/3dmanufacturing/core/2015/02"><resources><object id="1" type="model"><mesh><vertices><vertex x="0" y="0" z="0"/><vertex x="10" y="0" z="0"/><vertex x="0" y="10" z="0"/></vertices><triangles><triangle v1="0" v2="1" v3="2"/></triangles></mesh></object></resources><build><item objectid="1"/></build></model>',
    },
  ]);
}

/** Wavefront OBJ: one triangle. */
export function objFile(): Uint8Array {
  return latin1("# Forja pieza de prueba\no triangulo\nv 0 0 0\nv 10 0 0\nv 0 10 0\nvn 0 0 1\nf 1//1 2//1 3//1\n");
}

/** An OLE2 compound document header (older SolidWorks parts), padded to one 512-byte sector. */
export function sldprtFile(): Uint8Array {
  const header = new Uint8Array(512);
  header.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
  header.set([0x3e, 0x00, 0x03, 0x00, 0xfe, 0xff, 0x09, 0x00], 24); // minor/major version, byte order, sector shift
  return header;
}

/** ASCII DXF with a header and an entities section holding one line. */
export function asciiDxfFile(): Uint8Array {
  return latin1(
    ["  0", "SECTION", "  2", "HEADER", "  9", "$ACADVER", "  1", "AC1015", "  0", "ENDSEC", "  0", "SECTION", "  2", "ENTITIES", "  0", "LINE", "  8", "0", " 10", "0.0", " 20", "0.0", " 11", "10.0", " 21", "0.0", "  0", "ENDSEC", "  0", "EOF", ""].join("\r\n"),
  );
}

/** Binary DXF: the 22-byte sentinel followed by group codes. */
export function binaryDxfFile(): Uint8Array {
  return concat(latin1("AutoCAD Binary DXF\r\n\x1a\x00"), [0x00, 0x00], latin1("SECTION\0"), [0x02, 0x00], latin1("HEADER\0"), [0x00, 0x00], latin1("ENDSEC\0"), [0x00, 0x00], latin1("EOF\0"));
}

/** DWG (AutoCAD 2018, AC1032) header followed by zeros. */
export function dwgFile(): Uint8Array {
  const bytes = new Uint8Array(128);
  bytes.set(latin1("AC1032"));
  return bytes;
}

/** A one-page PDF; `comment` (plain text) goes in a comment line, to make it unique or larger. */
export function pdfFile(comment?: string): Uint8Array {
  return latin1(
    [
      "%PDF-1.4",
      ...(comment === undefined ? [] : [`% ${comment}`]),
      "1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj",
      "2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj",
      "3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >> endobj",
      "trailer << /Root 1 0 R >>",
      "%%EOF",
      "",
    ].join("\n"),
  );
}

function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = concat(latin1(type), data);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return concat(length, typeAndData, crc);
}

/** A real 1 × 1 RGB PNG. */
export function pngFile(): Uint8Array {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(1, 0);
  ihdr.writeUInt32BE(1, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolor
  return concat(
    [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
    pngChunk("IHDR", ihdr),
    pngChunk("IDAT", deflateSync(Uint8Array.from([0, 0xc8, 0x32, 0x1e]))),
    pngChunk("IEND", new Uint8Array()),
  );
}

/** JPEG: SOI, a JFIF APP0 segment and EOI. */
export function jpgFile(): Uint8Array {
  return concat([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10], latin1("JFIF\0"), [0x01, 0x01, 0x00, 0x00, 0x48, 0x00, 0x48, 0x00, 0x00], [0xff, 0xd9]);
}

/** The start of a Windows executable: "MZ", a DOS stub and a PE header. */
export function windowsExeFile(): Uint8Array {
  const bytes = new Uint8Array(512);
  bytes.set(latin1("MZ"));
  bytes.set([0x80, 0x00, 0x00, 0x00], 0x3c); // e_lfanew
  bytes.set(latin1("This program cannot be run in DOS mode.\r\r\n$"), 0x4e);
  bytes.set(latin1("PE\0\0"), 0x80);
  return bytes;
}

/** Head (first 64 KiB) and tail (last 64 KiB) the way the upload parser reports them. */
export function peek(bytes: Uint8Array): { head: Buffer; tail: Buffer; size: number } {
  const buffer = Buffer.from(bytes);
  const limit = 64 * 1024;
  return { head: buffer.subarray(0, limit), tail: buffer.subarray(Math.max(0, buffer.length - limit)), size: buffer.length };
}

/**
 * A real STEP file of about `targetBytes`: the header of `stepFile()` and a data section of
 * numbered CARTESIAN_POINT entities, padded so the file has exactly `targetBytes` bytes.
 */
export function largeStepFile(targetBytes: number): Uint8Array {
  const head = [
    "ISO-10303-21;",
    "HEADER;",
    "FILE_DESCRIPTION(('Forja pieza de prueba grande'),'2;1');",
    "FILE_NAME('carcasa.step','2026-01-15T10:00:00',('Forja'),('Forja'),'','','');",
    "FILE_SCHEMA(('AUTOMOTIVE_DESIGN { 1 0 10303 214 1 1 1 1 }'));",
    "ENDSEC;",
    "DATA;",
    "",
  ].join("\r\n");
  const end = "ENDSEC;\r\nEND-ISO-10303-21;\r\n";
  const budget = targetBytes - head.length - end.length;
  if (budget < 0) throw new RangeError(`largeStepFile: ${targetBytes} bytes is too small for a STEP header`);
  const lines: string[] = [];
  let used = 0;
  for (let id = 1; ; id++) {
    const line = `#${id}=CARTESIAN_POINT('',(${(id % 997) * 0.5},${(id % 311) * 0.25},${id % 53}.));\r\n`;
    if (used + line.length > budget) break;
    lines.push(line);
    used += line.length;
  }
  // Comments are legal between entities; one pads the file to the exact size.
  const gap = budget - used;
  const padding = gap >= 6 ? `/*${"x".repeat(gap - 6)}*/\r\n` : " ".repeat(gap);
  return latin1(head + lines.join("") + padding + end);
}
