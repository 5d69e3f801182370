// Mesh metrics for the instant estimate. Runs unchanged in the browser and on the server (no Node
// APIs), so both compute the same figures. Parsing lives in ~/lib/stl (the 3D viewer reads STL too);
// its names are re-exported here for the modules and tests that have always imported them from here.
import type { ParsedStl, StlErrorCode } from "~/lib/stl";

export { detectStlFormat, parseStl, StlParseError } from "~/lib/stl";
export type { ParsedStl, StlErrorCode };

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
