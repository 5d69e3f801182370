// STL parsing: binary and ASCII STL into a triangle soup. Pure (no Node or DOM APIs: input is an
// ArrayBuffer or a typed array), so the /cotiza estimate, the server's recompute and the 3D viewer
// all read a file the same way. Units: STL carries none; like every CAD exporter we deal with, we
// read coordinates as millimetres.

/** Why an STL could not be read; `message` is Spanish and safe to show to the person. */
export type StlErrorCode = "vacio" | "incompleto" | "sintaxis" | "no-stl" | "coordenadas";

export class StlParseError extends Error {
  readonly code: StlErrorCode;
  constructor(code: StlErrorCode, message: string) {
    super(message);
    this.name = "StlParseError";
    this.code = code;
  }
}

export interface ParsedStl {
  /** 9 floats per triangle: x0 y0 z0 x1 y1 z1 x2 y2 z2, in mm. */
  triangles: Float32Array;
}

type Bytes = ArrayBuffer | ArrayBufferView;

const HEADER_BYTES = 80;
const RECORD_BYTES = 50;

function toUint8(bytes: Bytes): Uint8Array {
  if (bytes instanceof Uint8Array) return bytes;
  if (ArrayBuffer.isView(bytes)) return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return new Uint8Array(bytes);
}

/** True when the first non-blank bytes read "solid" (any case), as every ASCII STL starts. */
function startsWithSolid(data: Uint8Array): boolean {
  let i = 0;
  if (data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf) i = 3; // UTF-8 BOM
  while (i < data.length && (data[i] === 0x20 || data[i] === 0x09 || data[i] === 0x0a || data[i] === 0x0d)) i++;
  const word = "solid";
  for (let k = 0; k < word.length; k++) {
    const c = data[i + k];
    if (c === undefined || (c | 0x20) !== word.charCodeAt(k)) return false;
  }
  return true;
}

/**
 * Which STL flavour the bytes are. Binary is decided by the size formula (84 + 50 × count) first,
 * because many binary exporters also begin their header with "solid". An ASCII file cannot satisfy
 * the formula by accident below ~7.5 GB: its bytes 80–83 are text (≥ 0x09 each), so the count they
 * spell is at least 0x09090909.
 */
export function detectStlFormat(bytes: Bytes): "binary" | "ascii" | null {
  const data = toUint8(bytes);
  if (data.length >= HEADER_BYTES + 4) {
    const count = new DataView(data.buffer, data.byteOffset, data.byteLength).getUint32(HEADER_BYTES, true);
    if (HEADER_BYTES + 4 + RECORD_BYTES * count === data.length) return "binary";
  }
  return startsWithSolid(data) ? "ascii" : null;
}

/** Reads a binary or ASCII STL. Throws StlParseError (Spanish message) when the file is not a usable STL. */
export function parseStl(bytes: Bytes): ParsedStl {
  const data = toUint8(bytes);
  const format = detectStlFormat(data);
  if (format === "binary") return { triangles: parseBinary(data) };
  if (format === "ascii") return { triangles: parseAscii(data) };
  if (data.length < HEADER_BYTES + 4) {
    throw new StlParseError("no-stl", "El archivo es demasiado pequeño para ser un STL.");
  }
  const count = new DataView(data.buffer, data.byteOffset, data.byteLength).getUint32(HEADER_BYTES, true);
  const expected = HEADER_BYTES + 4 + RECORD_BYTES * count;
  // A cut-off binary file (interrupted export or copy) still declares its full count; a file that is
  // not an STL at all usually "declares" a count absurdly larger than itself.
  if (expected > data.length && expected <= 4 * data.length) {
    throw new StlParseError(
      "incompleto",
      `El archivo STL está incompleto: declara ${count} triángulos (${expected} bytes) pero mide ${data.length} bytes. Expórtelo de nuevo desde su programa de CAD.`,
    );
  }
  throw new StlParseError("no-stl", "El archivo no es un STL válido: ni el tamaño corresponde a un STL binario ni empieza con «solid» como un STL de texto.");
}

function parseBinary(data: Uint8Array): Float32Array {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const count = view.getUint32(HEADER_BYTES, true);
  if (count === 0) throw new StlParseError("vacio", "El archivo STL no contiene triángulos.");
  const out = new Float32Array(count * 9);
  let offset = HEADER_BYTES + 4;
  let k = 0;
  for (let i = 0; i < count; i++) {
    const base = offset + 12; // skip the normal: it is often wrong and never needed
    for (let j = 0; j < 36; j += 4) {
      const value = view.getFloat32(base + j, true);
      if (value - value !== 0) throw nonFinite(`el triángulo ${i + 1}`);
      out[k++] = value;
    }
    offset += RECORD_BYTES;
  }
  return out;
}

function nonFinite(where: string): StlParseError {
  return new StlParseError("coordenadas", `El archivo STL tiene coordenadas no válidas (infinitas o NaN) en ${where}.`);
}

function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9 || c === 12 || c === 11;
}

function parseAscii(data: Uint8Array): Float32Array {
  const text = new TextDecoder("utf-8").decode(data);
  const len = text.length;
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  let out = new Float32Array(9 * 1024);
  let k = 0;

  const skipSpace = () => {
    while (pos < len) {
      const c = text.charCodeAt(pos);
      if (c === 10) line++;
      else if (!isSpace(c)) break;
      pos++;
    }
  };
  const skipLine = () => {
    while (pos < len && text.charCodeAt(pos) !== 10) pos++;
  };
  const next = (): string => {
    skipSpace();
    const start = pos;
    while (pos < len && !isSpace(text.charCodeAt(pos))) pos++;
    return text.slice(start, pos);
  };
  const fail = (expected: string, found: string): never => {
    const shown = found === "" ? "el final del archivo" : `«${found.length > 30 ? `${found.slice(0, 30)}…` : found}»`;
    throw new StlParseError("sintaxis", `El archivo STL (texto) no es válido en la línea ${line}: se esperaba ${expected} y se encontró ${shown}.`);
  };
  const keyword = (word: string) => {
    const token = next();
    if (token !== word && token.toLowerCase() !== word) fail(`«${word}»`, token);
  };
  const startsWithWord = (token: string, word: string) => token.length >= word.length && token.slice(0, word.length).toLowerCase() === word;

  // "solid <name>": the name may hold spaces, so the rest of the line is skipped.
  skipSpace();
  pos += 5;
  skipLine();
  for (;;) {
    const token = next();
    if (token === "facet" || token.toLowerCase() === "facet") {
      keyword("normal");
      next(); // the normal is ignored (some exporters even write "nan" there)
      next();
      next();
      keyword("outer");
      keyword("loop");
      if (k + 9 > out.length) {
        const grown = new Float32Array(out.length * 2);
        grown.set(out);
        out = grown;
      }
      for (let v = 0; v < 3; v++) {
        keyword("vertex");
        for (let axis = 0; axis < 3; axis++) {
          const token = next();
          const value = Number(token);
          if (token === "" || Number.isNaN(value)) fail("un número", token);
          if (!Number.isFinite(Math.fround(value))) throw nonFinite(`la línea ${line}`); // beyond float32 too
          out[k++] = value;
        }
      }
      keyword("endloop");
      keyword("endfacet");
    } else if (startsWithWord(token, "endsolid")) {
      skipLine();
      skipSpace();
      if (pos >= len) break;
      // Some exporters write several solids into one file.
      const again = next();
      if (!startsWithWord(again, "solid")) fail("«solid» o el final del archivo", again);
      skipLine();
    } else {
      fail(token === "" ? "«endsolid»" : "«facet» o «endsolid»", token);
    }
  }
  if (k === 0) throw new StlParseError("vacio", "El archivo STL no contiene triángulos.");
  return out.slice(0, k);
}

