// OBJ and 3MF meshes for the estimate: read into a triangle soup in millimetres (9 floats per
// triangle, as `meshFigures` and the 3D viewer take it) plus the unit the file declares. Pure: only
// web-platform APIs (TextDecoder, DecompressionStream), so the /cotiza worker in the browser and the
// server's geometry thread read the same files the same way (docs/decisions/0022).
//
// OBJ carries no unit: like STL, its numbers are read as millimetres. A 3MF declares one on its
// <model> (millimetre when it says nothing) and is converted, like the CAD kernel converts STEP.
//
// 3MF limits: the build's items and their components are placed with their transforms, including
// components in other model parts of the package (the production extension, as slicers write them);
// every object counts (support objects too), and the extensions' other data (beams, slices, colours)
// is ignored. A ZIP entry must be stored or deflated, as the 3MF specification requires.
import type { CadUnit } from "./cad-units";

export type MeshFormat = "obj" | "3mf";

/** OBJ or 3MF by extension; null for anything else. */
export function meshFormat(fileName: string): MeshFormat | null {
  if (/\.obj$/i.test(fileName)) return "obj";
  if (/\.3mf$/i.test(fileName)) return "3mf";
  return null;
}

/** A mesh file read: its triangles in mm and the unit it declares (null: none, read as mm). */
export interface MeshFile {
  /** 9 floats per triangle: x0 y0 z0 x1 y1 z1 x2 y2 z2, in mm. */
  triangles: Float32Array;
  unit: CadUnit | null;
}

/** Why an OBJ or 3MF could not be read; `message` is Spanish and safe to show. */
export type MeshFormatErrorCode = "vacio" | "sintaxis" | "paquete" | "no-admitido" | "demasiado-grande";

export class MeshFormatError extends Error {
  readonly code: MeshFormatErrorCode;
  constructor(code: MeshFormatErrorCode, message: string) {
    super(message);
    this.name = "MeshFormatError";
    this.code = code;
  }
}

/** Above this many triangles a file is not read: the soup alone would take 360 MB. */
export const MAX_TRIANGLES = 10_000_000;

function tooManyTriangles(format: string): MeshFormatError {
  return new MeshFormatError("demasiado-grande", `El archivo ${format} tiene más de 10 millones de triángulos; no podemos medirlo automáticamente.`);
}

/** A Float32Array that grows as triangles are added. */
class SoupBuilder {
  data = new Float32Array(9 * 1024);
  length = 0;
  reserve(floats: number) {
    if (this.length + floats <= this.data.length) return;
    let size = this.data.length * 2;
    while (size < this.length + floats) size *= 2;
    const grown = new Float32Array(size);
    grown.set(this.data.subarray(0, this.length));
    this.data = grown;
  }
  result(): Float32Array {
    return this.data.slice(0, this.length);
  }
}

// ---------------------------------------------------------------------------------------------- OBJ

/** Reads the polygons of a Wavefront OBJ (`v` and `f` lines; `v/vt/vn` corners, negative indices), fan-triangulated. */
export function parseObj(bytes: Uint8Array): MeshFile {
  let text = new TextDecoder("utf-8").decode(bytes);
  // A line ending in a backslash continues on the next one.
  if (text.includes("\\\n") || text.includes("\\\r\n")) text = text.replace(/\\\r?\n/g, " ");
  let vertices = new Float64Array(3 * 1024);
  let vertexCount = 0;
  const soup = new SoupBuilder();
  const corners: number[] = [];
  let lineNumber = 0;
  const fail = (message: string): never => {
    throw new MeshFormatError("sintaxis", `El archivo OBJ no es válido en la línea ${lineNumber}: ${message}`);
  };

  let start = 0;
  while (start < text.length) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    lineNumber++;
    const line = text.slice(start, end);
    start = end + 1;
    let at = 0;
    while (at < line.length && (line.charCodeAt(at) === 32 || line.charCodeAt(at) === 9)) at++;
    const c0 = line.charCodeAt(at), c1 = line.charCodeAt(at + 1);
    const spaceAfter = c1 === 32 || c1 === 9;
    if (c0 === 118 /* v */ && spaceAfter) {
      const parts = line.slice(at + 2).trim().split(/\s+/);
      if (parts.length < 3) fail("un vértice necesita tres coordenadas.");
      if (3 * vertexCount + 3 > vertices.length) {
        const grown = new Float64Array(vertices.length * 2);
        grown.set(vertices);
        vertices = grown;
      }
      for (let axis = 0; axis < 3; axis++) {
        const value = Number(parts[axis]);
        if (parts[axis] === "" || !Number.isFinite(value) || !Number.isFinite(Math.fround(value))) fail(`«${parts[axis].slice(0, 30)}» no es una coordenada válida.`);
        vertices[3 * vertexCount + axis] = value;
      }
      vertexCount++;
    } else if (c0 === 102 /* f */ && spaceAfter) {
      const parts = line.slice(at + 2).trim().split(/\s+/);
      if (parts.length < 3 || parts[0] === "") fail("una cara necesita al menos tres vértices.");
      corners.length = 0;
      for (const part of parts) {
        const slash = part.indexOf("/");
        const token = slash === -1 ? part : part.slice(0, slash);
        const index = Number(token);
        if (!Number.isInteger(index) || index === 0) fail(`«${part.slice(0, 30)}» no es un índice de vértice válido.`);
        const resolved = index > 0 ? index - 1 : vertexCount + index;
        if (resolved < 0 || resolved >= vertexCount) fail(`la cara usa el vértice ${index}, que no existe (hay ${vertexCount}).`);
        corners.push(resolved);
      }
      const triangles = corners.length - 2;
      if (soup.length / 9 + triangles > MAX_TRIANGLES) throw tooManyTriangles("OBJ");
      soup.reserve(9 * triangles);
      const out = soup.data;
      let k = soup.length;
      // A polygon is split as a fan from its first corner (exact for the convex faces exporters write).
      for (let t = 1; t <= triangles; t++) {
        for (const corner of [corners[0], corners[t], corners[t + 1]]) {
          out[k++] = vertices[3 * corner];
          out[k++] = vertices[3 * corner + 1];
          out[k++] = vertices[3 * corner + 2];
        }
      }
      soup.length = k;
    }
    // vt, vn, o, g, s, usemtl, mtllib, l, p and comments carry nothing the figures need.
  }
  if (soup.length === 0) throw new MeshFormatError("vacio", "El archivo OBJ no contiene caras: no hay una superficie que medir.");
  return { triangles: soup.result(), unit: null };
}

// ---------------------------------------------------------------------------------------------- ZIP

interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
}

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

function damaged(detail: string): MeshFormatError {
  return new MeshFormatError("paquete", `El archivo 3MF está dañado: ${detail} Expórtelo de nuevo desde su programa.`);
}

/** The entries of a ZIP's central directory (ZIP64 included), by name in lower case. */
function readZipDirectory(bytes: Uint8Array): Map<string, ZipEntry> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u16 = (at: number) => view.getUint16(at, true);
  const u32 = (at: number) => view.getUint32(at, true);
  const u64 = (at: number) => u32(at) + u32(at + 4) * 2 ** 32;
  // The end record is the last 22 bytes, or earlier when the archive has a comment (up to 64 KB).
  let eocd = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at--) {
    if (u32(at) === EOCD) {
      eocd = at;
      break;
    }
  }
  if (eocd === -1) throw damaged("no es un paquete ZIP completo (falta su índice).");
  let count = u16(eocd + 10);
  let size = u32(eocd + 12);
  let offset = u32(eocd + 16);
  if ((count === 0xffff || size === 0xffffffff || offset === 0xffffffff) && eocd >= 20 && u32(eocd - 20) === ZIP64_LOCATOR) {
    const record = u64(eocd - 20 + 8);
    if (record + 56 > bytes.length || u32(record) !== ZIP64_EOCD) throw damaged("su índice ZIP64 no es válido.");
    count = u64(record + 32);
    size = u64(record + 40);
    offset = u64(record + 48);
  }
  if (offset + size > bytes.length) throw damaged("su índice apunta fuera del archivo (está incompleto).");
  const entries = new Map<string, ZipEntry>();
  const names = new TextDecoder("utf-8");
  let at = offset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || u32(at) !== CENTRAL) throw damaged("su índice no es válido.");
    const nameLength = u16(at + 28), extraLength = u16(at + 30), commentLength = u16(at + 32);
    const entry: ZipEntry = {
      name: names.decode(bytes.subarray(at + 46, at + 46 + nameLength)),
      flags: u16(at + 8),
      method: u16(at + 10),
      compressedSize: u32(at + 20),
      uncompressedSize: u32(at + 24),
      localHeaderOffset: u32(at + 42),
    };
    // ZIP64: the sizes and offset that do not fit in 32 bits are in the extra field 0x0001, in this order.
    for (let e = at + 46 + nameLength; e + 4 <= at + 46 + nameLength + extraLength; ) {
      const id = u16(e), length = u16(e + 2);
      if (id === 0x0001) {
        let field = e + 4;
        if (entry.uncompressedSize === 0xffffffff) {
          entry.uncompressedSize = u64(field);
          field += 8;
        }
        if (entry.compressedSize === 0xffffffff) {
          entry.compressedSize = u64(field);
          field += 8;
        }
        if (entry.localHeaderOffset === 0xffffffff) entry.localHeaderOffset = u64(field);
      }
      e += 4 + length;
    }
    entries.set(entry.name.replace(/^\/+/, "").toLowerCase(), entry);
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** Above this many bytes an entry is not inflated further (a "ZIP bomb" stops here). */
const MAX_INFLATED_BYTES = 1024 * 1024 * 1024;

/** The bytes of one entry, stored or deflated, as a stream of chunks. */
async function* entryChunks(bytes: Uint8Array, entry: ZipEntry): AsyncGenerator<Uint8Array> {
  if (entry.flags & 1) throw new MeshFormatError("no-admitido", "El archivo 3MF está cifrado; no podemos leerlo.");
  const at = entry.localHeaderOffset;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (at + 30 > bytes.length || view.getUint32(at, true) !== LOCAL) throw damaged(`la parte «${entry.name}» no está donde dice su índice.`);
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  const end = start + entry.compressedSize;
  if (end > bytes.length) throw damaged(`la parte «${entry.name}» está incompleta.`);
  const data = bytes.subarray(start, end);
  if (entry.method === 0) {
    for (let from = 0; from < data.length; from += CHUNK) yield data.subarray(from, from + CHUNK);
    return;
  }
  if (entry.method !== 8) throw new MeshFormatError("no-admitido", `El archivo 3MF usa una compresión que no admitimos (método ${entry.method}).`);
  const source = new ReadableStream<Uint8Array<ArrayBuffer>>({
    start(controller) {
      for (let from = 0; from < data.length; from += CHUNK) controller.enqueue(new Uint8Array(data.subarray(from, from + CHUNK)));
      controller.close();
    },
  });
  const reader = source.pipeThrough(new DecompressionStream("deflate-raw")).getReader();
  let total = 0;
  try {
    for (;;) {
      let next: ReadableStreamReadResult<Uint8Array>;
      try {
        next = await reader.read();
      } catch {
        throw damaged(`la parte «${entry.name}» no se puede descomprimir.`);
      }
      if (next.done) break;
      total += next.value.length;
      if (total > MAX_INFLATED_BYTES) throw new MeshFormatError("demasiado-grande", "El modelo del archivo 3MF ocupa más de 1 GB sin comprimir; no podemos medirlo automáticamente.");
      yield next.value;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}

const CHUNK = 4 * 1024 * 1024;

// ---------------------------------------------------------------------------------------------- 3MF

/** 3MF's units (the <model> element's `unit`), in mm, and how we name them. */
const THREEMF_UNITS: Record<string, { mm: number; unit: CadUnit }> = {
  micron: { mm: 0.001, unit: "um" },
  millimeter: { mm: 1, unit: "mm" },
  centimeter: { mm: 10, unit: "cm" },
  inch: { mm: 25.4, unit: "in" },
  foot: { mm: 304.8, unit: "ft" },
  meter: { mm: 1000, unit: "m" },
};

/** An affine transform as 3MF writes it: m00 m01 m02 m10 m11 m12 m20 m21 m22 m30 m31 m32 (row vectors). */
type Transform = Float64Array;

const IDENTITY: Transform = new Float64Array([1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]);

function parseTransform(value: string | undefined): Transform {
  if (value === undefined || value.trim() === "") return IDENTITY;
  const numbers = value.trim().split(/\s+/).map(Number);
  if (numbers.length !== 12 || !numbers.every(Number.isFinite)) throw new MeshFormatError("sintaxis", `El archivo 3MF tiene una transformación no válida («${value.slice(0, 60)}»).`);
  return new Float64Array(numbers);
}

/** `first` then `second`: p·A·B with row vectors. */
function compose(a: Transform, b: Transform): Transform {
  const out = new Float64Array(12);
  for (let row = 0; row < 4; row++) {
    for (let col = 0; col < 3; col++) {
      let sum = row === 3 ? b[9 + col] : 0;
      for (let k = 0; k < 3; k++) sum += a[3 * row + k] * b[3 * k + col];
      out[3 * row + col] = sum;
    }
  }
  return out;
}

const determinant = (m: Transform) => m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) + m[2] * (m[3] * m[7] - m[4] * m[6]);

interface ModelObject {
  vertices: number[];
  triangles: number[];
  components: { objectId: string; path: string | null; transform: Transform }[];
}

interface ModelPart {
  unit: string | null;
  objects: Map<string, ModelObject>;
  items: { objectId: string; path: string | null; transform: Transform }[];
}

const ATTRIBUTE = /([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

function attributes(text: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const match of text.matchAll(ATTRIBUTE)) {
    const name = match[1];
    // The core's attributes carry no prefix; the production extension's `path` does (p:path).
    found.set(name.endsWith(":path") ? "path" : name, match[2] ?? match[3]);
  }
  return found;
}

const ELEMENT = /<(\/?)(?:[A-Za-z_][\w.-]*:)?(model|object|vertex|triangle|component|item)(?=[\s/>])([^>]*)>/g;

/** Reads one model part's XML (streamed in chunks): units, objects and build items. */
async function parseModelPart(chunks: AsyncIterable<Uint8Array>, partName: string): Promise<ModelPart> {
  const part: ModelPart = { unit: null, objects: new Map(), items: [] };
  const decoder = new TextDecoder("utf-8");
  let carry = "";
  let current: ModelObject | null = null;
  let triangleCount = 0;
  const invalid = (detail: string): never => {
    throw new MeshFormatError("sintaxis", `El modelo del archivo 3MF (${partName}) no es válido: ${detail}`);
  };
  const number = (value: string | undefined, what: string) => {
    const parsed = Number(value);
    if (value === undefined || value.trim() === "" || !Number.isFinite(parsed)) invalid(`${what} «${value ?? ""}» no es un número.`);
    return parsed;
  };
  const scan = (text: string) => {
    for (const match of text.matchAll(ELEMENT)) {
      const [, closing, name, rest] = match;
      if (closing) {
        if (name === "object") current = null;
        continue;
      }
      if (name === "vertex") {
        if (!current) invalid("hay un vértice fuera de un objeto.");
        const a = attributes(rest);
        current!.vertices.push(number(a.get("x"), "la coordenada x"), number(a.get("y"), "la coordenada y"), number(a.get("z"), "la coordenada z"));
      } else if (name === "triangle") {
        if (!current) invalid("hay un triángulo fuera de un objeto.");
        const a = attributes(rest);
        const v1 = number(a.get("v1"), "el índice v1"), v2 = number(a.get("v2"), "el índice v2"), v3 = number(a.get("v3"), "el índice v3");
        if (++triangleCount > MAX_TRIANGLES) throw tooManyTriangles("3MF");
        current!.triangles.push(v1, v2, v3);
      } else if (name === "object") {
        const a = attributes(rest);
        const id = a.get("id");
        if (!id) invalid("un objeto no tiene «id».");
        current = { vertices: [], triangles: [], components: [] };
        part.objects.set(id!, current);
        if (rest.trimEnd().endsWith("/")) current = null;
      } else if (name === "component") {
        if (!current) invalid("hay un componente fuera de un objeto.");
        const a = attributes(rest);
        const objectId = a.get("objectid");
        if (!objectId) invalid("un componente no dice a qué objeto se refiere.");
        current!.components.push({ objectId: objectId!, path: a.get("path") ?? null, transform: parseTransform(a.get("transform")) });
      } else if (name === "item") {
        const a = attributes(rest);
        const objectId = a.get("objectid");
        if (!objectId) invalid("un elemento de la construcción no dice a qué objeto se refiere.");
        part.items.push({ objectId: objectId!, path: a.get("path") ?? null, transform: parseTransform(a.get("transform")) });
      } else if (name === "model") {
        part.unit = attributes(rest).get("unit") ?? null;
      }
    }
  };
  for await (const chunk of chunks) {
    carry += decoder.decode(chunk, { stream: true });
    // Scan up to the last complete tag; the rest waits for the next chunk.
    const cut = carry.lastIndexOf(">") + 1;
    if (cut > 0) {
      scan(carry.slice(0, cut));
      carry = carry.slice(cut);
    }
    if (carry.length > 1024 * 1024) invalid("contiene una etiqueta sin cerrar.");
  }
  scan(carry + decoder.decode());
  return part;
}

const MODEL_RELATIONSHIP = /3dmanufacturing\/\d{4}\/\d{2}\/3dmodel$/;
const MAX_DEPTH = 32;
const MAX_PLACEMENTS = 100_000;

/** Reads a 3MF package: the build's objects placed by their transforms, in mm, and the declared unit. */
export async function parse3mf(bytes: Uint8Array): Promise<MeshFile> {
  const entries = readZipDirectory(bytes);
  const read = async (name: string) => entries.get(name.toLowerCase());

  // The root model part is named by the package's relationships; 3D/3dmodel.model by convention.
  let rootName = "3D/3dmodel.model";
  const rels = await read("_rels/.rels");
  if (rels) {
    let xml = "";
    for await (const chunk of entryChunks(bytes, rels)) xml += new TextDecoder("utf-8").decode(chunk);
    for (const match of xml.matchAll(/<(?:[\w.-]+:)?Relationship\b([^>]*)>/g)) {
      const a = attributes(match[1]);
      if (MODEL_RELATIONSHIP.test(a.get("Type") ?? "") && a.get("Target")) rootName = a.get("Target")!.replace(/^\/+/, "");
    }
  }
  const parts = new Map<string, ModelPart>();
  const loadPart = async (name: string): Promise<ModelPart> => {
    const key = name.replace(/^\/+/, "").toLowerCase();
    const cached = parts.get(key);
    if (cached) return cached;
    const entry = await read(key);
    if (!entry) throw new MeshFormatError("paquete", `El archivo 3MF no contiene el modelo «${name}»; expórtelo de nuevo desde su programa.`);
    const part = await parseModelPart(entryChunks(bytes, entry), entry.name);
    parts.set(key, part);
    return part;
  };
  const root = await loadPart(rootName);
  const unitName = (root.unit ?? "millimeter").trim().toLowerCase();
  const unit = THREEMF_UNITS[unitName];
  if (!unit) throw new MeshFormatError("no-admitido", `El archivo 3MF declara una unidad que no reconocemos («${root.unit}»).`);
  const scale = new Float64Array([unit.mm, 0, 0, 0, unit.mm, 0, 0, 0, unit.mm, 0, 0, 0]);

  // Components may live in other parts (production extension): load every part the build reaches.
  interface Placed {
    object: ModelObject;
    transform: Transform;
  }
  const placed: Placed[] = [];
  let triangles = 0;
  let placements = 0;
  const place = async (partKey: string, objectId: string, transform: Transform, depth: number) => {
    if (depth > MAX_DEPTH) throw new MeshFormatError("sintaxis", "El archivo 3MF anida sus componentes demasiado (o en círculo).");
    // Components repeated at every level multiply: bounded even when the objects hold no triangles.
    if (++placements > MAX_PLACEMENTS) throw new MeshFormatError("demasiado-grande", "El archivo 3MF coloca más de 100,000 piezas; no podemos medirlo automáticamente.");
    const part = await loadPart(partKey);
    const object = part.objects.get(objectId);
    if (!object) throw new MeshFormatError("sintaxis", `El archivo 3MF se refiere al objeto ${objectId}, que no existe.`);
    if (object.triangles.length > 0) {
      triangles += object.triangles.length / 3;
      if (triangles > MAX_TRIANGLES) throw tooManyTriangles("3MF");
      placed.push({ object, transform });
    }
    for (const component of object.components) {
      await place(component.path ?? partKey, component.objectId, compose(component.transform, transform), depth + 1);
    }
  };
  for (const item of root.items) await place(item.path ?? rootName, item.objectId, compose(item.transform, scale), 0);
  if (triangles === 0) throw new MeshFormatError("vacio", "El archivo 3MF no contiene piezas con triángulos que medir.");

  const soup = new Float32Array(9 * triangles);
  let k = 0;
  for (const { object, transform: m } of placed) {
    const { vertices, triangles: indices } = object;
    const vertexCount = vertices.length / 3;
    // A mirroring transform turns the triangles inside out: their order is flipped back.
    const order = determinant(m) < 0 ? [0, 2, 1] : [0, 1, 2];
    for (let t = 0; t < indices.length; t += 3) {
      for (const corner of order) {
        const v = indices[t + corner];
        if (!Number.isInteger(v) || v < 0 || v >= vertexCount) throw new MeshFormatError("sintaxis", `El archivo 3MF tiene un triángulo con el vértice ${v}, que no existe en su objeto.`);
        const x = vertices[3 * v], y = vertices[3 * v + 1], z = vertices[3 * v + 2];
        soup[k++] = x * m[0] + y * m[3] + z * m[6] + m[9];
        soup[k++] = x * m[1] + y * m[4] + z * m[7] + m[10];
        soup[k++] = x * m[2] + y * m[5] + z * m[8] + m[11];
      }
    }
  }
  return { triangles: soup, unit: unit.unit };
}

/** Reads an OBJ or a 3MF file. Throws MeshFormatError (Spanish message) when it cannot be read. */
export function readMeshFile(format: MeshFormat, bytes: Uint8Array): Promise<MeshFile> {
  return format === "obj" ? Promise.resolve().then(() => parseObj(bytes)) : parse3mf(bytes);
}
