// STL parsing and mesh metrics for the instant estimate. Runs unchanged in the browser and on the
// server (no Node APIs: input is an ArrayBuffer or a typed array), so both compute the same figures.
// Units: STL carries none; like every CAD exporter we deal with, we read coordinates as millimetres.

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

export interface Vec3 {
  x: number;
  y: number;
  z: number;
}

export interface MeshMetrics {
  /** Enclosed volume in mm³ (absolute value; approximate when the mesh is not closed). */
  volumeMm3: number;
  /** Size of the axis-aligned bounding box in mm. */
  bbox: Vec3;
  min: Vec3;
  max: Vec3;
  triangles: number;
  /** True only when every edge (after welding vertices to a 1e-5 mm grid) is shared by exactly two triangles. */
  closed: boolean;
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

// Vertices are welded on a 1e-5 mm grid: identical vertices written by an exporter become one,
// which is what the edge count needs; anything closer than that is below float32 precision anyway.
const GRID = 1e5;

function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h;
}

interface Welded {
  /** Dense id per vertex (3 per triangle). */
  ids: Int32Array;
  unique: number;
}

/**
 * Open-addressing hash of quantized positions → dense ids, with no per-vertex objects. The table is
 * sized for a closed mesh (about one distinct vertex per six corners) and doubles when it fills, so
 * it stays small enough to live in cache; each slot keeps its hash to skip most comparisons.
 */
function weldVertices(t: Float32Array, vertexCount: number): Welded {
  let size = 1024;
  while (size < vertexCount / 3) size *= 2;
  let mask = size - 1;
  let slots = new Int32Array(size * 2); // [id + 1 (0 = empty), hash]
  let quantized = new Float64Array(Math.max(3 * 1024, Math.ceil(vertexCount / 2)));
  const ids = new Int32Array(vertexCount);
  let unique = 0;

  const grow = () => {
    const old = slots;
    size *= 2;
    mask = size - 1;
    slots = new Int32Array(size * 2);
    for (let s = 0; s < old.length; s += 2) {
      if (old[s] === 0) continue;
      let h = old[s + 1] & mask;
      while (slots[2 * h] !== 0) h = (h + 1) & mask;
      slots[2 * h] = old[s];
      slots[2 * h + 1] = old[s + 1];
    }
  };

  for (let v = 0, o = 0; v < vertexCount; v++, o += 3) {
    const qx = Math.round(t[o] * GRID);
    const qy = Math.round(t[o + 1] * GRID);
    const qz = Math.round(t[o + 2] * GRID);
    const hash = mix(Math.imul(qx | 0, 0x9e3779b1) ^ Math.imul(qy | 0, 0x85ebca77) ^ Math.imul(qz | 0, 0x27d4eb2f));
    let h = hash & mask;
    for (;;) {
      const stored = slots[2 * h];
      if (stored === 0) {
        if (3 * unique + 3 > quantized.length) {
          const bigger = new Float64Array(quantized.length * 2);
          bigger.set(quantized);
          quantized = bigger;
        }
        quantized[3 * unique] = qx;
        quantized[3 * unique + 1] = qy;
        quantized[3 * unique + 2] = qz;
        slots[2 * h] = unique + 1;
        slots[2 * h + 1] = hash;
        ids[v] = unique++;
        if (unique * 2 > size) grow();
        break;
      }
      if (slots[2 * h + 1] === hash) {
        const q = 3 * (stored - 1);
        if (quantized[q] === qx && quantized[q + 1] === qy && quantized[q + 2] === qz) {
          ids[v] = stored - 1;
          break;
        }
      }
      h = (h + 1) & mask;
    }
  }
  return { ids, unique };
}

/**
 * True when every undirected edge is used by exactly two triangles (collapsed triangles are ignored).
 * Edges are bucketed by their lower vertex id (counting sort), then each small bucket is checked.
 */
function isClosed({ ids, unique }: Welded, triangleCount: number): boolean {
  const start = new Int32Array(unique + 1);
  let edgeUses = 0;
  for (let o = 0; o < 3 * triangleCount; o += 3) {
    const a = ids[o], b = ids[o + 1], c = ids[o + 2];
    // A triangle collapsed to a segment or a point has no area and no volume; it neither opens nor closes the mesh.
    if (a === b || b === c || a === c) continue;
    start[a < b ? a : b]++;
    start[b < c ? b : c]++;
    start[c < a ? c : a]++;
    edgeUses += 3;
  }
  if (edgeUses === 0 || edgeUses % 2 !== 0) return false;
  for (let i = 0, sum = 0; i <= unique; i++) {
    const count = start[i];
    start[i] = sum;
    sum += count;
  }
  const fill = start.slice(0, unique);
  const other = new Int32Array(edgeUses);
  for (let o = 0; o < 3 * triangleCount; o += 3) {
    const a = ids[o], b = ids[o + 1], c = ids[o + 2];
    if (a === b || b === c || a === c) continue;
    if (a < b) other[fill[a]++] = b;
    else other[fill[b]++] = a;
    if (b < c) other[fill[b]++] = c;
    else other[fill[c]++] = b;
    if (c < a) other[fill[c]++] = a;
    else other[fill[a]++] = c;
  }
  for (let v = 0; v < unique; v++) {
    const from = start[v], to = start[v + 1];
    // Buckets usually hold a handful of neighbours: insertion sort; a big fan gets the native sort.
    if (to - from > 32) other.subarray(from, to).sort();
    else for (let i = from + 1; i < to; i++) {
      const x = other[i];
      let j = i - 1;
      while (j >= from && other[j] > x) {
        other[j + 1] = other[j];
        j--;
      }
      other[j + 1] = x;
    }
    for (let i = from; i < to; i += 2) {
      if (i + 1 >= to || other[i] !== other[i + 1] || (i + 2 < to && other[i + 2] === other[i])) return false;
    }
  }
  return true;
}

/** Volume, bounding box and closedness of a triangle soup (9 floats per triangle, mm). */
export function meshMetrics(triangles: Float32Array): MeshMetrics {
  const t = triangles;
  const triangleCount = Math.floor(t.length / 9);
  const floats = triangleCount * 9;
  if (triangleCount === 0) {
    const zero = { x: 0, y: 0, z: 0 };
    return { volumeMm3: 0, bbox: { ...zero }, min: { ...zero }, max: { ...zero }, triangles: 0, closed: false };
  }

  let minX = Infinity, minY = Infinity, minZ = Infinity;
  let maxX = -Infinity, maxY = -Infinity, maxZ = -Infinity;
  for (let o = 0; o < floats; o += 3) {
    const x = t[o], y = t[o + 1], z = t[o + 2];
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
    if (z < minZ) minZ = z;
    if (z > maxZ) maxZ = z;
  }

  // Sum of signed tetrahedra v0 · (v1 × v2) / 6. Vertices are taken relative to the box centre:
  // the result is the same for a closed mesh, but products of small numbers keep float64 precise
  // for a part modelled far from the origin (and an open mesh's approximation stays local).
  const cx = (minX + maxX) / 2, cy = (minY + maxY) / 2, cz = (minZ + maxZ) / 2;
  let sixVolume = 0;
  for (let o = 0; o < floats; o += 9) {
    const ax = t[o] - cx, ay = t[o + 1] - cy, az = t[o + 2] - cz;
    const bx = t[o + 3] - cx, by = t[o + 4] - cy, bz = t[o + 5] - cz;
    const qx = t[o + 6] - cx, qy = t[o + 7] - cy, qz = t[o + 8] - cz;
    sixVolume += ax * (by * qz - bz * qy) + ay * (bz * qx - bx * qz) + az * (bx * qy - by * qx);
  }

  const welded = weldVertices(t, triangleCount * 3);
  return {
    volumeMm3: Math.abs(sixVolume) / 6,
    bbox: { x: maxX - minX, y: maxY - minY, z: maxZ - minZ },
    min: { x: minX, y: minY, z: minZ },
    max: { x: maxX, y: maxY, z: maxZ },
    triangles: triangleCount,
    closed: isClosed(welded, triangleCount),
  };
}
