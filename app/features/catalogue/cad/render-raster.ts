// The z-buffer of the part renderer (render-part.ts): triangles scan-converted at the supersampled
// size, keeping the nearest triangle per sample, then the feature edges and silhouettes marked on top
// with a depth test. Pure TypeScript on typed arrays.
import type { ScenePart, Vec3 } from "./render-part";
import type { PartMesh } from "./types";

/** The camera's frame: `right` and `up` span the image, `view` points from the scene to the camera. */
export interface Camera {
  right: Vec3;
  up: Vec3;
  view: Vec3;
}

export interface Scene {
  /** Supersampled size. */
  W: number;
  H: number;
  /** Depth along the view (larger is farther), +Infinity where nothing is. */
  depth: Float32Array;
  /** Triangle per sample, -1 where nothing is. */
  triangle: Int32Array;
  /** 1 + the part whose edge or outline is drawn there, 0 elsewhere. */
  line: Uint16Array;
  /** Per triangle: depth plane (c, dx, dy) and world normal planes (nx, ny, nz × c, dx, dy) over the screen. */
  zPlane: Float64Array;
  nPlane: Float32Array;
  partOf: Uint16Array;
}

export function projectPart(part: ScenePart, camera: Camera): Float64Array {
  const source = part.mesh.positions;
  const out = new Float64Array(source.length);
  const [ox, oy, oz] = part.offset ?? [0, 0, 0];
  const { right: r, up: u, view: v } = camera;
  for (let i = 0; i < source.length; i += 3) {
    const x = source[i]! + ox, y = source[i + 1]! + oy, z = source[i + 2]! + oz;
    out[i] = x * r[0] + y * r[1] + z * r[2];
    out[i + 1] = x * u[0] + y * u[1] + z * u[2];
    out[i + 2] = -(x * v[0] + y * v[1] + z * v[2]);
  }
  return out;
}

export interface Fit {
  centreX: number;
  centreY: number;
  scale: number;
  W: number;
  H: number;
}

/** Camera coordinates to supersampled pixels (y down), in place. */
export function toScreen(p: Float64Array, fit: Fit): Float64Array {
  for (let i = 0; i < p.length; i += 3) {
    p[i] = (p[i]! - fit.centreX) * fit.scale + fit.W / 2;
    p[i + 1] = fit.H / 2 - (p[i + 1]! - fit.centreY) * fit.scale;
  }
  return p;
}

export function rasterize(parts: ScenePart[], projected: Float64Array[], W: number, H: number, view: Vec3): Scene {
  const count = parts.reduce((sum, part) => sum + Math.floor(part.mesh.indices.length / 3), 0);
  const depth = new Float32Array(W * H).fill(Infinity);
  const triangle = new Int32Array(W * H).fill(-1);
  const zPlane = new Float64Array(count * 3);
  const nPlane = new Float32Array(count * 9);
  const partOf = new Uint16Array(count);
  const [vx, vy, vz] = view;
  let t = 0;
  parts.forEach((part, partIndex) => {
    const { positions, indices } = part.mesh;
    const normals = part.mesh.normals && part.mesh.normals.length === positions.length ? part.mesh.normals : null;
    const screen = projected[partIndex]!;
    for (let k = 0; k + 2 < indices.length; k += 3, t += 1) {
      partOf[t] = partIndex;
      const i0 = indices[k]! * 3, i1 = indices[k + 1]! * 3, i2 = indices[k + 2]! * 3;
      let x0 = screen[i0]!, y0 = screen[i0 + 1]!;
      const z0 = screen[i0 + 2]!;
      let x1 = screen[i1]!, y1 = screen[i1 + 1]!;
      const z1 = screen[i1 + 2]!;
      const x2 = screen[i2]!, y2 = screen[i2 + 1]!, z2 = screen[i2 + 2]!;
      const area = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0);
      if (!(Math.abs(area) > 1e-12)) continue; // edge-on or degenerate: covers nothing

      // The geometric normal, turned towards the camera: winding is not trusted for lighting.
      const ax = positions[i1]! - positions[i0]!, ay = positions[i1 + 1]! - positions[i0 + 1]!, az = positions[i1 + 2]! - positions[i0 + 2]!;
      const bx = positions[i2]! - positions[i0]!, by = positions[i2 + 1]! - positions[i0 + 1]!, bz = positions[i2 + 2]! - positions[i0 + 2]!;
      let gx = ay * bz - az * by, gy = az * bx - ax * bz, gz = ax * by - ay * bx;
      const gl = Math.sqrt(gx * gx + gy * gy + gz * gz) || 1;
      const flip = gx * vx + gy * vy + gz * vz < 0 ? -1 : 1;
      gx = (gx / gl) * flip;
      gy = (gy / gl) * flip;
      gz = (gz / gl) * flip;

      // Normal planes over the screen (smooth shading when the mesh has vertex normals, each one
      // turned to the side of the camera-facing geometric normal).
      for (let c = 0; c < 3; c += 1) {
        let n0: number, n1: number, n2: number;
        if (normals) {
          n0 = normals[i0 + c]!;
          n1 = normals[i1 + c]!;
          n2 = normals[i2 + c]!;
        } else {
          n0 = n1 = n2 = c === 0 ? gx : c === 1 ? gy : gz;
        }
        nPlane[t * 9 + c * 3] = n0;
        nPlane[t * 9 + c * 3 + 1] = n1;
        nPlane[t * 9 + c * 3 + 2] = n2;
      }
      if (normals) {
        for (let v = 0; v < 3; v += 1) {
          const base = t * 9 + v;
          const dot = nPlane[base]! * gx + nPlane[base + 3]! * gy + nPlane[base + 6]! * gz;
          if (dot < 0) for (let c = 0; c < 3; c += 1) nPlane[base + c * 3] = -nPlane[base + c * 3]!;
        }
      }
      for (let c = 0; c < 3; c += 1) {
        const o = t * 9 + c * 3;
        const [a0, a1, a2] = [nPlane[o]!, nPlane[o + 1]!, nPlane[o + 2]!];
        const dx = ((a1 - a0) * (y2 - y0) - (a2 - a0) * (y1 - y0)) / area;
        const dy = ((a2 - a0) * (x1 - x0) - (a1 - a0) * (x2 - x0)) / area;
        nPlane[o] = a0 - dx * x0 - dy * y0;
        nPlane[o + 1] = dx;
        nPlane[o + 2] = dy;
      }
      const zdx = ((z1 - z0) * (y2 - y0) - (z2 - z0) * (y1 - y0)) / area;
      const zdy = ((z2 - z0) * (x1 - x0) - (z1 - z0) * (x2 - x0)) / area;
      const zc = z0 - zdx * x0 - zdy * y0;
      zPlane[t * 3] = zc;
      zPlane[t * 3 + 1] = zdx;
      zPlane[t * 3 + 2] = zdy;

      // Positive area for the edge functions below.
      if (area < 0) {
        [x0, x1] = [x1, x0];
        [y0, y1] = [y1, y0];
      }
      fillTriangle(depth, triangle, W, H, t, x0, y0, x1, y1, x2, y2, zc, zdx, zdy);
    }
  });
  return { W, H, depth, triangle, line: new Uint16Array(W * H), zPlane, nPlane, partOf };
}

const EPS = 1e-7;

/** Scan-converts one triangle (edge functions, row spans solved exactly) into the z-buffer. */
function fillTriangle(
  depth: Float32Array, triangle: Int32Array, W: number, H: number, t: number,
  x0: number, y0: number, x1: number, y1: number, x2: number, y2: number, zc: number, zdx: number, zdy: number,
): void {
  const yStart = Math.max(0, Math.ceil(Math.min(y0, y1, y2) - 0.5));
  const yEnd = Math.min(H - 1, Math.floor(Math.max(y0, y1, y2) - 0.5));
  const xMin = Math.max(0, Math.ceil(Math.min(x0, x1, x2) - 0.5));
  const xMax = Math.min(W - 1, Math.floor(Math.max(x0, x1, x2) - 0.5));
  if (yStart > yEnd || xMin > xMax) return;
  // Edge i: w(x, y) = (bx - ax)(y - ay) - (by - ay)(x - ax) ≥ 0 inside; in x: w = A + B·x.
  const ex = [x1 - x0, x2 - x1, x0 - x2];
  const ey = [y1 - y0, y2 - y1, y0 - y2];
  const ax = [x0, x1, x2];
  const ay = [y0, y1, y2];
  for (let y = yStart; y <= yEnd; y += 1) {
    const py = y + 0.5;
    let lo = xMin + 0.5 - EPS;
    let hi = xMax + 0.5 + EPS;
    let empty = false;
    for (let e = 0; e < 3; e += 1) {
      const A = ex[e]! * (py - ay[e]!) + ey[e]! * ax[e]!;
      const B = -ey[e]!;
      // A + B·px ≥ 0, with a hair of slack so that neighbours leave no cracks (overlap is harmless).
      if (B > 0) lo = Math.max(lo, -A / B - 1e-6);
      else if (B < 0) hi = Math.min(hi, -A / B + 1e-6);
      else if (A < -1e-9) empty = true;
    }
    if (empty || lo > hi) continue;
    const xs = Math.max(xMin, Math.ceil(lo - 0.5));
    const xe = Math.min(xMax, Math.floor(hi - 0.5));
    let row = y * W + xs;
    let z = zc + zdx * (xs + 0.5) + zdy * py;
    for (let x = xs; x <= xe; x += 1, row += 1, z += zdx) {
      if (z < depth[row]!) {
        depth[row] = z;
        triangle[row] = t;
      }
    }
  }
}

/**
 * Keeps the edges that are creases. B-rep edges include the seams of cylinders and the boundaries of
 * tangent faces, where the surface is smooth: drawn, they would be stray lines across a round part.
 * A segment is dropped when the triangles along it agree on the normal at both of its ends (vertex
 * normals within ~10° when the mesh has them, else face normals within ~20°); segments that do not
 * lie on mesh edges are kept.
 */
export function creaseSegments(mesh: PartMesh, world: Float32Array, screen: Float64Array): Float64Array {
  const { positions, indices } = mesh;
  const normals = mesh.normals && mesh.normals.length === positions.length ? mesh.normals : null;
  let lo = Infinity, hi = -Infinity;
  for (let i = 0; i < positions.length; i += 1) {
    const v = positions[i]!;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  // Ids for the positions where segments end; mesh vertices elsewhere are not needed.
  const ids = new PointIds(world.length / 3, Math.max((hi - lo) * 1e-5, Math.max(Math.abs(lo), Math.abs(hi)) * 2e-7, 1e-6));
  const endId = new Int32Array(world.length / 3);
  for (let i = 0; i < endId.length; i += 1) endId[i] = ids.id(world[i * 3]!, world[i * 3 + 1]!, world[i * 3 + 2]!, true);
  const vertexId = new Int32Array(positions.length / 3);
  for (let v = 0; v < vertexId.length; v += 1) vertexId[v] = ids.id(positions[v * 3]!, positions[v * 3 + 1]!, positions[v * 3 + 2]!, false);
  const pair = (a: number, b: number) => (a < b ? a * ids.size + b : b * ids.size + a);
  // Triangles along each segment: the mesh edges whose ends are both segment ends.
  const along = new Map<number, number[]>();
  for (let i = 0; i + 5 < world.length; i += 6) along.set(pair(endId[i / 3]!, endId[i / 3 + 1]!), []);
  for (let k = 0; k + 2 < indices.length; k += 3) {
    for (let e = 0; e < 3; e += 1) {
      const a = indices[k + e]!, b = indices[k + ((e + 1) % 3)]!;
      const ia = vertexId[a]!, ib = vertexId[b]!;
      if (ia < 0 || ib < 0 || ia === ib) continue;
      // Ends ordered by position, so that the two triangles along an edge line up.
      if (ia < ib) along.get(pair(ia, ib))?.push(k, a, b);
      else along.get(pair(ia, ib))?.push(k, b, a);
    }
  }
  const same = (u: ArrayLike<number>, v: ArrayLike<number>, cos: number) => Math.abs(u[0]! * v[0]! + u[1]! * v[1]! + u[2]! * v[2]!) >= cos;
  const vertexNormal = (v: number) => normals!.subarray(v * 3, v * 3 + 3);
  const faceNormal = (k: number): [number, number, number] => {
    const i0 = indices[k]! * 3, i1 = indices[k + 1]! * 3, i2 = indices[k + 2]! * 3;
    const ax = positions[i1]! - positions[i0]!, ay = positions[i1 + 1]! - positions[i0 + 1]!, az = positions[i1 + 2]! - positions[i0 + 2]!;
    const bx = positions[i2]! - positions[i0]!, by = positions[i2 + 1]! - positions[i0 + 1]!, bz = positions[i2 + 2]! - positions[i0 + 2]!;
    const n: [number, number, number] = [ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx];
    const length = Math.hypot(n[0], n[1], n[2]) || 1;
    return [n[0] / length, n[1] / length, n[2] / length];
  };
  const kept: number[] = [];
  for (let i = 0; i + 5 < world.length; i += 6) {
    const list = along.get(pair(endId[i / 3]!, endId[i / 3 + 1]!))!;
    let smooth = list.length >= 6;
    for (let j = 3; smooth && j < list.length; j += 3) {
      smooth = normals
        ? same(vertexNormal(list[1]!), vertexNormal(list[j + 1]!), 0.985) && same(vertexNormal(list[2]!), vertexNormal(list[j + 2]!), 0.985)
        : same(faceNormal(list[0]!), faceNormal(list[j]!), 0.94);
    }
    if (!smooth) for (let c = 0; c < 6; c += 1) kept.push(screen[i + c]!);
  }
  return Float64Array.from(kept);
}

/** Ids for points, the same for points that round to the same grid cell (open addressing on the cell). */
class PointIds {
  size = 0;
  private readonly keys: Int32Array;
  private readonly values: Int32Array;
  private readonly mask: number;

  constructor(
    capacity: number,
    private readonly cell: number,
  ) {
    let slots = 16;
    while (slots < capacity * 2) slots *= 2;
    this.keys = new Int32Array(slots * 3);
    this.values = new Int32Array(slots).fill(-1);
    this.mask = slots - 1;
  }

  /** The point's id; a new one if `add`, else -1 when the point is unknown. */
  id(x: number, y: number, z: number, add: boolean): number {
    const qx = Math.round(x / this.cell) | 0, qy = Math.round(y / this.cell) | 0, qz = Math.round(z / this.cell) | 0;
    let slot = (Math.imul(qx, 73856093) ^ Math.imul(qy, 19349663) ^ Math.imul(qz, 83492791)) & this.mask;
    while (this.values[slot] !== -1) {
      if (this.keys[slot * 3] === qx && this.keys[slot * 3 + 1] === qy && this.keys[slot * 3 + 2] === qz) return this.values[slot]!;
      slot = (slot + 1) & this.mask;
    }
    if (!add) return -1;
    this.keys[slot * 3] = qx;
    this.keys[slot * 3 + 1] = qy;
    this.keys[slot * 3 + 2] = qz;
    this.values[slot] = this.size;
    return this.size++;
  }
}

/** Marks the samples within half a line width of each segment that are not behind a surface. */
export function drawEdges(scene: Scene, segments: Float64Array, lineWidth: number, bias: number, mark: number): void {
  const { W, H, depth, line } = scene;
  const half = lineWidth / 2;
  const half2 = half * half;
  for (let i = 0; i + 5 < segments.length; i += 6) {
    const ax = segments[i]!, ay = segments[i + 1]!, az = segments[i + 2]!;
    const bx = segments[i + 3]!, by = segments[i + 4]!, bz = segments[i + 5]!;
    const dx = bx - ax, dy = by - ay, dz = bz - az;
    const length2 = dx * dx + dy * dy;
    const x0 = Math.max(0, Math.floor(Math.min(ax, bx) - half)), x1 = Math.min(W - 1, Math.ceil(Math.max(ax, bx) + half));
    const y0 = Math.max(0, Math.floor(Math.min(ay, by) - half)), y1 = Math.min(H - 1, Math.ceil(Math.max(ay, by) + half));
    if (x0 > x1 || y0 > y1) continue;
    // Long segments (a 1 m edge) are walked in pieces so the box around each stays small.
    const pieces = Math.max(1, Math.ceil(Math.sqrt(length2) / 24));
    for (let p = 0; p < pieces; p += 1) {
      const s0 = p / pieces, s1 = (p + 1) / pieces;
      const px0 = ax + dx * s0, px1 = ax + dx * s1, py0 = ay + dy * s0, py1 = ay + dy * s1;
      const xa = Math.max(x0, Math.floor(Math.min(px0, px1) - half)), xb = Math.min(x1, Math.ceil(Math.max(px0, px1) + half));
      const ya = Math.max(y0, Math.floor(Math.min(py0, py1) - half)), yb = Math.min(y1, Math.ceil(Math.max(py0, py1) + half));
      for (let y = ya; y <= yb; y += 1) {
        const sy = y + 0.5;
        for (let x = xa; x <= xb; x += 1) {
          const sx = x + 0.5;
          let s = length2 > 0 ? ((sx - ax) * dx + (sy - ay) * dy) / length2 : 0;
          s = s < s0 ? s0 : s > s1 ? s1 : s;
          const qx = ax + dx * s - sx, qy = ay + dy * s - sy;
          if (qx * qx + qy * qy > half2) continue;
          const index = y * W + x;
          if (az + dz * s - bias <= depth[index]!) line[index] = mark;
        }
      }
    }
  }
}

/**
 * Marks silhouettes: where a surface meets the background or passes in front of another one (a
 * jump in depth between neighbouring samples that is no crease). The line lies on the nearer surface.
 */
export function drawOutlines(scene: Scene, lineWidth: number, threshold: number): void {
  const { W, H, depth, triangle, zPlane, line } = scene;
  const boundary = new Uint8Array(W * H);
  const jumps = (i: number, j: number): boolean => {
    const a = triangle[i]!, b = triangle[j]!;
    if (a === b) return false;
    if (a < 0 || b < 0) return true;
    // The gap between the two triangles' planes at both samples: where the planes cross between
    // them (a crease, a smooth surface's next facet) it changes sign or is small; a surface passing
    // in front of another keeps a large gap of one sign.
    const xi = (i % W) + 0.5, yi = Math.floor(i / W) + 0.5, xj = (j % W) + 0.5, yj = Math.floor(j / W) + 0.5;
    const gapI = depth[i]! - (zPlane[b * 3]! + zPlane[b * 3 + 1]! * xi + zPlane[b * 3 + 2]! * yi);
    const gapJ = zPlane[a * 3]! + zPlane[a * 3 + 1]! * xj + zPlane[a * 3 + 2]! * yj - depth[j]!;
    return (gapI > threshold && gapJ > threshold) || (gapI < -threshold && gapJ < -threshold);
  };
  for (let y = 0; y < H; y += 1) {
    for (let x = 0; x < W; x += 1) {
      const i = y * W + x;
      if (x + 1 < W && jumps(i, i + 1)) boundary[depth[i]! <= depth[i + 1]! ? i : i + 1] = 1;
      if (y + 1 < H && jumps(i, i + W)) boundary[depth[i]! <= depth[i + W]! ? i : i + W] = 1;
    }
  }
  // Thicken inwards, a line width on the near side: covered samples near a boundary sample, not much behind it.
  const radius = Math.max(0, lineWidth - 1);
  const reach = Math.ceil(radius);
  const r2 = radius * radius + 1e-9;
  for (let y = 0; y < H; y += 1) {
    for (let x = 0; x < W; x += 1) {
      const i = y * W + x;
      if (!boundary[i]) continue;
      const mark = scene.partOf[triangle[i]!]! + 1;
      line[i] = mark;
      for (let oy = -reach; oy <= reach; oy += 1) {
        const yy = y + oy;
        if (yy < 0 || yy >= H) continue;
        for (let ox = -reach; ox <= reach; ox += 1) {
          const xx = x + ox;
          if (xx < 0 || xx >= W || ox * ox + oy * oy > r2) continue;
          const k = yy * W + xx;
          if (triangle[k]! >= 0 && depth[k]! <= depth[i]! + threshold) line[k] = mark;
        }
      }
    }
  }
}
