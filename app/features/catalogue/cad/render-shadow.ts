// The contact shadow of the part renderer (render-part.ts): the parts seen from above, blurred, and
// laid on the floor under them, darkening the background.
import type { ScenePart } from "./render-part";
import type { Camera, Scene } from "./render-raster";

export interface Shadow {
  /** How much the floor is darkened (0–1) at a supersample of the background. */
  at(x: number, y: number): number;
}

/** Cells across the parts' plan in the footprint map. */
const SHADOW_RES = 128;

export function contactShadow(parts: ScenePart[], camera: Camera, scene: Scene, centreX: number, centreY: number, scale: number): Shadow | null {
  // The floor is the lowest point of the scene; a view from below has none.
  if (camera.view[2] < 0.05) return null;
  let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity, floor = Infinity, top = -Infinity;
  for (const part of parts) {
    const p = part.mesh.positions;
    const [ox, oy, oz] = part.offset ?? [0, 0, 0];
    for (let i = 0; i < p.length; i += 3) {
      minX = Math.min(minX, p[i]! + ox);
      maxX = Math.max(maxX, p[i]! + ox);
      minY = Math.min(minY, p[i + 1]! + oy);
      maxY = Math.max(maxY, p[i + 1]! + oy);
      floor = Math.min(floor, p[i + 2]! + oz);
      top = Math.max(top, p[i + 2]! + oz);
    }
  }
  const size = Math.max(maxX - minX, maxY - minY);
  if (!(size > 0)) return null;
  // A footprint map over the parts' plan, padded for the blur; each cell holds how close to the
  // floor the lowest material above it is (1 on the floor, fading with height).
  const pad = size * 0.35;
  const cell = size / SHADOW_RES;
  const gx0 = minX - pad, gy0 = minY - pad;
  const nx = Math.ceil((maxX - minX + 2 * pad) / cell) + 1, ny = Math.ceil((maxY - minY + 2 * pad) / cell) + 1;
  const map = new Float32Array(nx * ny);
  const fade = Math.max(size * 0.15, (top - floor) * 0.3, 1e-9);
  for (const part of parts) {
    const { positions: p, indices } = part.mesh;
    const [ox, oy, oz] = part.offset ?? [0, 0, 0];
    for (let k = 0; k + 2 < indices.length; k += 3) {
      const a = indices[k]! * 3, b = indices[k + 1]! * 3, c = indices[k + 2]! * 3;
      const zLow = Math.min(p[a + 2]!, p[b + 2]!, p[c + 2]!) + oz - floor;
      const weight = Math.max(0, 1 - zLow / fade);
      if (weight <= 0) continue;
      stampTriangle(map, nx, ny, (p[a]! + ox - gx0) / cell, (p[a + 1]! + oy - gy0) / cell, (p[b]! + ox - gx0) / cell, (p[b + 1]! + oy - gy0) / cell, (p[c]! + ox - gx0) / cell, (p[c + 1]! + oy - gy0) / cell, weight);
    }
  }
  // A dark, tight contact under the edges plus a wide soft penumbra.
  const tight = boxBlur(boxBlur(map, nx, ny, 3), nx, ny, 2);
  const wide = boxBlur(boxBlur(boxBlur(map, nx, ny, 12), nx, ny, 12), nx, ny, 10);
  const blurred = new Float32Array(map.length);
  for (let i = 0; i < map.length; i += 1) blurred[i] = 1 - (1 - 0.6 * Math.min(1, tight[i]! * 1.3)) * (1 - 0.45 * Math.min(1, wide[i]! * 1.4));
  // A screen sample (sx, sy) is the camera ray x·right + y·up − t·view; it meets the floor z = floor.
  const { right, up, view } = camera;
  const W = scene.W, H = scene.H;
  return {
    at(sx: number, sy: number): number {
      const cx = (sx - W / 2) / scale + centreX;
      const cy = (H / 2 - sy) / scale + centreY;
      // Point on the ray at depth 0, then along the view to z = floor.
      const px = cx * right[0] + cy * up[0], py = cx * right[1] + cy * up[1], pz = cx * right[2] + cy * up[2];
      const t = (pz - floor) / view[2];
      const fx = (px - t * view[0] - gx0) / cell, fy = (py - t * view[1] - gy0) / cell;
      const ix = Math.floor(fx), iy = Math.floor(fy);
      if (ix < 0 || iy < 0 || ix >= nx - 1 || iy >= ny - 1) return 0;
      const tx = fx - ix, ty = fy - iy;
      const i = iy * nx + ix;
      const v = (blurred[i]! * (1 - tx) + blurred[i + 1]! * tx) * (1 - ty) + (blurred[i + nx]! * (1 - tx) + blurred[i + nx + 1]! * tx) * ty;
      return Math.min(1, v);
    },
  };
}

function stampTriangle(map: Float32Array, nx: number, ny: number, x0: number, y0: number, x1: number, y1: number, x2: number, y2: number, weight: number): void {
  const area = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0);
  const xa = Math.max(0, Math.floor(Math.min(x0, x1, x2))), xb = Math.min(nx - 1, Math.ceil(Math.max(x0, x1, x2)));
  const ya = Math.max(0, Math.floor(Math.min(y0, y1, y2))), yb = Math.min(ny - 1, Math.ceil(Math.max(y0, y1, y2)));
  if (Math.abs(area) < 1e-12) return;
  const s = area > 0 ? 1 : -1;
  for (let y = ya; y <= yb; y += 1) {
    for (let x = xa; x <= xb; x += 1) {
      const px = x + 0.5, py = y + 0.5;
      const w0 = s * ((x2 - x1) * (py - y1) - (y2 - y1) * (px - x1));
      const w1 = s * ((x0 - x2) * (py - y2) - (y0 - y2) * (px - x2));
      const w2 = s * ((x1 - x0) * (py - y0) - (y1 - y0) * (px - x0));
      if (w0 >= 0 && w1 >= 0 && w2 >= 0) {
        const i = y * nx + x;
        if (map[i]! < weight) map[i] = weight;
      }
    }
  }
}

/** A box blur of `radius` cells, separable, with a running sum (edges clamped). */
function boxBlur(source: Float32Array, nx: number, ny: number, radius: number): Float32Array {
  const pass = (input: Float32Array, length: number, lines: number, at: (line: number, k: number) => number): Float32Array => {
    const output = new Float32Array(input.length);
    const n = 2 * radius + 1;
    for (let line = 0; line < lines; line += 1) {
      let sum = 0;
      for (let k = -radius; k <= radius; k += 1) sum += input[at(line, Math.min(length - 1, Math.max(0, k)))]!;
      for (let k = 0; k < length; k += 1) {
        output[at(line, k)] = sum / n;
        sum += input[at(line, Math.min(length - 1, k + radius + 1))]! - input[at(line, Math.max(0, k - radius))]!;
      }
    }
    return output;
  };
  const rows = pass(source, nx, ny, (y, x) => y * nx + x);
  return pass(rows, ny, nx, (x, y) => y * nx + x);
}
