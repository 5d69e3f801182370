import path from "node:path";

// File types are decided by content (magic bytes or a format header), never by the name alone.
// The extension only says which format the person claims; both must agree. Text formats read as
// their grammar (OBJ statements, DXF pairs), so markup named .obj or .dxf is refused. A valid
// header followed by anything (HTML after a STEP header, PNG magic or %PDF) is still that format:
// it is stored and only ever served as a download of that type (serve-headers.server.ts,
// docs/decisions/0036).

export type FileKind = "step" | "iges" | "stl" | "3mf" | "obj" | "sldprt" | "dxf" | "dwg" | "pdf" | "png" | "jpg";

export const KIND_BY_EXTENSION: Record<string, FileKind> = {
  ".step": "step",
  ".stp": "step",
  ".iges": "iges",
  ".igs": "iges",
  ".stl": "stl",
  ".3mf": "3mf",
  ".obj": "obj",
  ".sldprt": "sldprt",
  ".dxf": "dxf",
  ".dwg": "dwg",
  ".pdf": "pdf",
  ".png": "png",
  ".jpg": "jpg",
  ".jpeg": "jpg",
};

export const MIME_BY_KIND: Record<FileKind, string> = {
  step: "model/step",
  iges: "model/iges",
  stl: "model/stl",
  "3mf": "model/3mf",
  obj: "model/obj",
  sldprt: "application/octet-stream",
  dxf: "image/vnd.dxf",
  dwg: "image/vnd.dwg",
  pdf: "application/pdf",
  png: "image/png",
  jpg: "image/jpeg",
};

const ascii = (bytes: Uint8Array, start = 0, end = bytes.length) => Buffer.from(bytes.subarray(start, end)).toString("latin1");
const startsWith = (bytes: Uint8Array, signature: number[]) => signature.every((byte, index) => bytes[index] === byte);

/** Skips a UTF-8 BOM and leading whitespace of text formats. */
function textStart(head: Uint8Array): string {
  return ascii(head, 0, Math.min(head.length, 4096)).replace(/^\uFEFF|^ï»¿/, "").trimStart();
}

function isMostlyText(head: Uint8Array): boolean {
  const sample = head.subarray(0, Math.min(head.length, 4096));
  let binary = 0;
  for (const byte of sample) if (byte === 0 || (byte < 9 && byte !== 0)) binary += 1;
  return binary === 0;
}

// OBJ statements (Wavefront's spec: geometry, elements, grouping, display attributes, free-form).
const OBJ_STATEMENT = /^(v|vt|vn|vp|f|l|p|o|g|s|mg|mtllib|usemtl|usemap|maplib|cstype|deg|bmat|step|curv|curv2|surf|parm|trim|hole|scrv|sp|end|con|bevel|c_interp|d_interp|lod|shadow_obj|trace_obj|ctech|stech|call|csh)(\s|$)/;

/** The complete lines of `head` (the last one may be cut off mid-file, so it is left out unless the file ends there). */
function headLines(head: Uint8Array, size: number): string[] {
  const lines = ascii(head).replace(/^\uFEFF|^ï»¿/, "").trimStart().split(/\r?\n|\r/);
  if (head.length < size) lines.pop();
  return lines;
}

/**
 * A text OBJ: every line read is a statement, a comment or blank (a line continues with "\").
 * HTML named .obj has markup lines and is refused, even when one of its lines starts like "v 0 0 0".
 */
function isObjText(head: Uint8Array, size: number): boolean {
  if (!isMostlyText(head)) return false;
  let statements = 0;
  let continued = false;
  for (const raw of headLines(head, size)) {
    const line = raw.trim();
    const wasContinued = continued;
    continued = line.endsWith("\\");
    if (wasContinued || line === "" || line.startsWith("#")) continue;
    if (!OBJ_STATEMENT.test(line)) return false;
    statements += 1;
  }
  return statements > 0;
}

/**
 * An ASCII DXF: group-code/value pairs from the first line on, starting with 0/SECTION. HTML named
 * .dxf breaks the pairs (a line of markup where a group code must be).
 */
function isDxfText(head: Uint8Array, size: number): boolean {
  if (!isMostlyText(head)) return false;
  const lines = headLines(head, size);
  if (lines.length < 2 || lines[0]!.trim() !== "0" || lines[1]!.trim() !== "SECTION") return false;
  for (let index = 0; index + 1 < lines.length; index += 2) {
    if (!/^-?\d{1,4}$/.test(lines[index]!.trim())) return false;
  }
  return true;
}

/**
 * What the bytes are, checked against the format the name claims. `head` is the first 64 KiB (or
 * the whole file), `tail` the last 64 KiB, `size` the full size.
 */
export function detectFileKind(input: { name: string; head: Uint8Array; tail: Uint8Array; size: number }): FileKind | null {
  const claimed = KIND_BY_EXTENSION[path.extname(input.name).toLowerCase()];
  if (!claimed || input.size === 0) return null;
  const { head, tail, size } = input;
  const text = () => textStart(head);
  switch (claimed) {
    case "step":
      return text().startsWith("ISO-10303-21") ? "step" : null;
    case "iges": {
      // Fixed 80-column records; the first is a Start ("S") or, in compressed form, a flag ("F"/"C") line.
      const firstLine = ascii(head, 0, Math.min(head.length, 82)).split(/\r?\n/)[0] ?? "";
      return firstLine.length >= 73 && /[SFC]/.test(firstLine[72] ?? "") && isMostlyText(head) ? "iges" : null;
    }
    case "stl": {
      if (size >= 84) {
        const count = new DataView(head.buffer, head.byteOffset, head.byteLength).getUint32(80, true);
        if (84 + count * 50 === size) return "stl";
      }
      const start = text();
      return start.startsWith("solid") && isMostlyText(head) && (/facet/.test(start) || size < 4096) && /endsolid/.test(ascii(tail)) ? "stl" : null;
    }
    case "3mf":
      return startsWith(head, [0x50, 0x4b, 0x03, 0x04]) && /3dmodel\.model/i.test(ascii(tail) + ascii(head)) ? "3mf" : null;
    case "obj":
      return isObjText(head, size) ? "obj" : null;
    case "sldprt":
      // SolidWorks parts are OLE2 compound documents (older versions) or carry SolidWorks' own stream header.
      return startsWith(head, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]) || startsWith(head, [0x14, 0x00, 0x06, 0x00, 0x08, 0x00]) ? "sldprt" : null;
    case "dxf": {
      if (ascii(head, 0, 22) === "AutoCAD Binary DXF\r\n\x1a\x00") return "dxf";
      return isDxfText(head, size) ? "dxf" : null;
    }
    case "dwg":
      return /^AC10[1-3]\d/.test(ascii(head, 0, 6)) ? "dwg" : null;
    case "pdf":
      return ascii(head, 0, 1024).includes("%PDF-") ? "pdf" : null;
    case "png":
      return startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) ? "png" : null;
    case "jpg":
      return startsWith(head, [0xff, 0xd8, 0xff]) ? "jpg" : null;
  }
}
