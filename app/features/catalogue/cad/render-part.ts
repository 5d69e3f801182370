// A small software renderer for catalogue parts (issue 12 §1): the picture on cards, Open Graph and
// JSON-LD, made on the server from the part's mesh without a browser or a GPU. Pure TypeScript on
// typed arrays, no Node APIs, so it runs in the model job's worker thread or anywhere else.
//
// How it works: an orthographic camera fitted to the parts, one z-buffer at `supersample`× the
// output size holding the nearest triangle per sample; feature edges and silhouettes are then marked
// with a depth test, and each output pixel is shaded from its samples (deferred, so hidden surfaces
// cost no shading) and box-filtered down, in linear light. The studio: a key light from the upper
// left, a fill from the right, a sky/ground ambient and, for metals, a soft studio reflection.
import type { PartFinish } from "./finishes";
import type { PartEdges, PartMesh } from "./types";

export type Vec3 = readonly [number, number, number];

/** How a surface looks. Colours are sRGB hex (`#rrggbb`). */
export interface PartMaterial {
  color: string;
  /** 0 for paint and plastic … 1 for bare metal: how much of the studio the surface mirrors. */
  metal: number;
  /** Strength (0–1) and sharpness (Blinn-Phong exponent) of the key light's highlight. */
  specular: number;
  shininess: number;
  /** The colour of the edges drawn over the part: darker than the part, or lighter on black ones. */
  line: string;
}

/** The look of each finish a catalogue part can have. */
export const PART_MATERIALS: Record<PartFinish, PartMaterial> = {
  acero: { color: "#8a98a8", metal: 0.55, specular: 0.35, shininess: 40, line: "#2a3038" },
  galvanizado: { color: "#a3adb6", metal: 0.4, specular: 0.25, shininess: 18, line: "#313840" },
  inoxidable: { color: "#b3bcc5", metal: 0.7, specular: 0.5, shininess: 60, line: "#2d333a" },
  aluminio: { color: "#c9d1d9", metal: 0.45, specular: 0.3, shininess: 28, line: "#3a424b" },
  bronce: { color: "#b0793f", metal: 0.6, specular: 0.45, shininess: 45, line: "#3b2612" },
  "pintura-negra": { color: "#2b3138", metal: 0, specular: 0.3, shininess: 36, line: "#4b5560" },
  poliuretano: { color: "#e3661b", metal: 0, specular: 0.14, shininess: 14, line: "#5a2406" },
  "petg-negro": { color: "#262a30", metal: 0, specular: 0.16, shininess: 20, line: "#474f59" },
  // Clear polycarbonate, shown opaque in a light blue-grey: legible on any background.
  policarbonato: { color: "#c4d5e2", metal: 0.15, specular: 0.6, shininess: 80, line: "#4d6273" },
};

/** `"transparent"`, a solid `#rrggbb`/`#rrggbbaa`, or a vertical gradient from top to bottom. */
export type RenderBackground = "transparent" | string | { top: string; bottom: string };

/** A soft studio backdrop that suits every finish (light, slightly cool). */
export const STUDIO_BACKGROUND = { top: "#f7f8fa", bottom: "#e4e8ed" } as const;

export interface SceneOptions {
  /** Output size in pixels. */
  width: number;
  height: number;
  /** Where the camera looks from (towards the parts' centre), Z up. Default: isometric-ish front right. */
  direction?: Vec3;
  /** Samples per pixel along each axis (1–4), averaged for anti-aliasing. Default 3 up to 0.5 MP, else 2. */
  supersample?: number;
  /** Default: `STUDIO_BACKGROUND`. */
  background?: RenderBackground;
  /** Empty space around the parts on each side, as a fraction of the image (0–0.45). Default 0.08. */
  margin?: number;
  /** Width of edge and outline lines in output pixels. Default: grows with the image (≥ 1). */
  lineWidth?: number;
  /** Draw the feature edges (default true) and the silhouettes (default true). */
  edges?: boolean;
  outline?: boolean;
  /** A soft contact shadow on the floor under the parts (default true). */
  shadow?: boolean;
}

export interface RenderOptions extends SceneOptions {
  /** The part's finish, or any material (a hex colour gives a satin paint of that colour). */
  finish?: PartFinish;
  color?: string | PartMaterial;
}

export interface ScenePart {
  mesh: PartMesh;
  edges?: PartEdges | null;
  finish?: PartFinish;
  color?: string | PartMaterial;
  /** Where the part sits in the scene, in millimetres (added to its coordinates). */
  offset?: Vec3;
}

/** An RGBA image, row by row from the top, not premultiplied. */
export interface RenderedImage {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}

export const DEFAULT_DIRECTION: Vec3 = [1, -1.2, 0.9];

/** Renders one part; see `composeParts` for several in one picture. */
export function renderPart(mesh: PartMesh, edges: PartEdges | null, options: RenderOptions): RenderedImage {
  return composeParts([{ mesh, edges, finish: options.finish, color: options.color }], options);
}

// ---------------------------------------------------------------------------------------------
// Colour

function parseHex(hex: string): [number, number, number, number] {
  const match = /^#?([0-9a-f]{6})([0-9a-f]{2})?$/i.exec(hex.trim());
  if (!match) throw new Error(`Invalid colour: ${hex}`);
  const value = parseInt(match[1]!, 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255, match[2] ? parseInt(match[2], 16) : 255];
}

function toLinear(channel: number): number {
  const c = channel / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

function linearRgb(hex: string): [number, number, number] {
  const [r, g, b] = parseHex(hex);
  return [toLinear(r), toLinear(g), toLinear(b)];
}

const LUT_SIZE = 4096;
let srgbLut: Uint8Array | undefined;
/** Linear [0, 1] → sRGB byte, tabulated. */
function encodeLut(): Uint8Array {
  if (srgbLut) return srgbLut;
  srgbLut = new Uint8Array(LUT_SIZE + 1);
  for (let i = 0; i <= LUT_SIZE; i += 1) {
    const c = i / LUT_SIZE;
    const s = c <= 0.0031308 ? c * 12.92 : 1.055 * c ** (1 / 2.4) - 0.055;
    srgbLut[i] = Math.round(Math.min(1, Math.max(0, s)) * 255);
  }
  return srgbLut;
}

/** Highlights roll off instead of clipping flat. */
function toneMap(c: number): number {
  return c <= 0.8 ? c : 0.8 + 0.2 * (1 - Math.exp((0.8 - c) / 0.2));
}

function materialOf(part: { finish?: PartFinish; color?: string | PartMaterial }): PartMaterial {
  if (typeof part.color === "object") return part.color;
  if (typeof part.color === "string") {
    const [r, g, b] = parseHex(part.color);
    const dark = `#${[r, g, b].map((c) => Math.round(c * 0.3).toString(16).padStart(2, "0")).join("")}`;
    return { color: part.color, metal: 0, specular: 0.2, shininess: 24, line: dark };
  }
  return PART_MATERIALS[part.finish ?? "acero"];
}

// ---------------------------------------------------------------------------------------------
// Vectors

function normalize(v: Vec3): [number, number, number] {
  const length = Math.hypot(v[0], v[1], v[2]);
  if (!(length > 0)) throw new Error("Zero-length direction");
  return [v[0] / length, v[1] / length, v[2] / length];
}

function cross(a: Vec3, b: Vec3): [number, number, number] {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

function combine(terms: Array<[number, Vec3]>): [number, number, number] {
  const out: [number, number, number] = [0, 0, 0];
  for (const [k, v] of terms) for (let i = 0; i < 3; i += 1) out[i] += k * v[i]!;
  return normalize(out);
}

/** The camera's frame: `right` and `up` span the image, `view` points from the scene to the camera. */
function cameraFrame(direction: Vec3): { right: Vec3; up: Vec3; view: Vec3 } {
  const view = normalize(direction);
  const forward: Vec3 = [-view[0], -view[1], -view[2]];
  // Looking straight down or up, the model's Y is up in the image.
  const worldUp: Vec3 = Math.abs(view[2]) > 0.999 ? [0, view[2] > 0 ? 1 : -1, 0] : [0, 0, 1];
  const right = normalize(cross(forward, worldUp));
  return { right, up: cross(right, forward), view };
}

// ---------------------------------------------------------------------------------------------
// The render

interface Scene {
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

const MAX_PARTS = 65535;
const MAX_SAMPLES = 40_000_000;

/**
 * Renders several parts in one picture (one z-buffer), e.g. a family of flanges side by side. Each
 * part keeps its own finish; `offset` places it in the scene.
 */
export function composeParts(parts: ScenePart[], options: SceneOptions): RenderedImage {
  const width = Math.round(options.width);
  const height = Math.round(options.height);
  if (!(width > 0 && height > 0 && width <= 8192 && height <= 8192)) throw new Error(`Invalid image size ${options.width}×${options.height}`);
  if (parts.length > MAX_PARTS) throw new Error("Too many parts");
  // Small images get 3 × 3 samples (cheap, and their lines are thin); the buffers stay under ~40 M samples.
  const wanted = Math.round(options.supersample ?? (width * height <= 500_000 ? 3 : 2));
  const ss = Math.max(1, Math.min(4, wanted, Math.floor(Math.sqrt(MAX_SAMPLES / (width * height)))));
  const margin = Math.min(0.45, Math.max(0, options.margin ?? 0.08));
  const lineWidth = Math.min(16, Math.max(0, options.lineWidth ?? Math.max(1, Math.min(width, height) / 640))) * ss;
  const camera = cameraFrame(options.direction ?? DEFAULT_DIRECTION);
  const W = width * ss;
  const H = height * ss;

  // Camera coordinates of every vertex: x right, y up, z depth (larger is farther).
  const projected = parts.map((part) => projectPart(part, camera));
  let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity, minZ = Infinity, maxZ = -Infinity;
  for (const p of projected) {
    for (let i = 0; i < p.length; i += 3) {
      const x = p[i]!, y = p[i + 1]!, z = p[i + 2]!;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
      if (z < minZ) minZ = z;
      if (z > maxZ) maxZ = z;
    }
  }
  const materials = parts.map(materialOf);
  const background = resolveBackground(options.background ?? STUDIO_BACKGROUND, height);
  if (!(maxX >= minX)) return shade(null, materials, camera, background, width, height, ss, null);

  const extentX = Math.max(maxX - minX, 1e-9);
  const extentY = Math.max(maxY - minY, 1e-9);
  const scale = Math.min((W * (1 - 2 * margin)) / extentX, (H * (1 - 2 * margin)) / extentY);
  const centreX = (minX + maxX) / 2;
  const centreY = (minY + maxY) / 2;
  const fit: Fit = { centreX, centreY, scale, W, H };
  for (const p of projected) toScreen(p, fit);

  const scene = rasterize(parts, projected, W, H, camera.view);
  const depthRange = Math.max(maxZ - minZ, 1e-9);
  if (options.edges ?? true) {
    // An edge wins over the faces it bounds, within a couple of samples' worth of depth.
    const bias = (1.5 * lineWidth) / scale + depthRange * 1e-3;
    parts.forEach((part, index) => {
      if (!part.edges?.segments.length) return;
      const segments = toScreen(projectPart({ mesh: { positions: part.edges.segments, indices: new Uint32Array(0) }, offset: part.offset }, camera), fit);
      drawEdges(scene, creaseSegments(part.mesh, part.edges.segments, segments), lineWidth, bias, index + 1);
    });
  }
  if (options.outline ?? true) drawOutlines(scene, lineWidth, 1.5 / scale + depthRange * 2e-3);
  const shadow = options.shadow ?? true ? contactShadow(parts, camera, scene, centreX, centreY, scale) : null;
  return shade(scene, materials, camera, background, width, height, ss, shadow);
}

function projectPart(part: ScenePart, camera: { right: Vec3; up: Vec3; view: Vec3 }): Float64Array {
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

interface Fit {
  centreX: number;
  centreY: number;
  scale: number;
  W: number;
  H: number;
}

/** Camera coordinates to supersampled pixels (y down), in place. */
function toScreen(p: Float64Array, fit: Fit): Float64Array {
  for (let i = 0; i < p.length; i += 3) {
    p[i] = (p[i]! - fit.centreX) * fit.scale + fit.W / 2;
    p[i + 1] = fit.H / 2 - (p[i + 1]! - fit.centreY) * fit.scale;
  }
  return p;
}

function rasterize(parts: ScenePart[], projected: Float64Array[], W: number, H: number, view: Vec3): Scene {
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
      const gl = Math.hypot(gx, gy, gz) || 1;
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
function creaseSegments(mesh: PartMesh, world: Float32Array, screen: Float64Array): Float64Array {
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
function drawEdges(scene: Scene, segments: Float64Array, lineWidth: number, bias: number, mark: number): void {
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
 * jump in depth that neither surface's plane explains). The line lies on the nearer surface.
 */
function drawOutlines(scene: Scene, lineWidth: number, threshold: number): void {
  const { W, H, depth, triangle, zPlane, line } = scene;
  const boundary = new Uint8Array(W * H);
  const jumps = (i: number, j: number): boolean => {
    const a = triangle[i]!, b = triangle[j]!;
    if (a === b) return false;
    if (a < 0 || b < 0) return true;
    const xi = (i % W) + 0.5, yi = Math.floor(i / W) + 0.5, xj = (j % W) + 0.5, yj = Math.floor(j / W) + 0.5;
    const aAtJ = zPlane[a * 3]! + zPlane[a * 3 + 1]! * xj + zPlane[a * 3 + 2]! * yj;
    const bAtI = zPlane[b * 3]! + zPlane[b * 3 + 1]! * xi + zPlane[b * 3 + 2]! * yi;
    return Math.abs(aAtJ - depth[j]!) > threshold && Math.abs(bAtI - depth[i]!) > threshold;
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

// ---------------------------------------------------------------------------------------------
// Contact shadow: the parts seen from above, blurred, laid on the floor under them.

interface Shadow {
  /** How much the floor is darkened (0–1) at a supersample of the background. */
  at(x: number, y: number): number;
}

/** Cells across the parts' plan in the footprint map. */
const SHADOW_RES = 128;

function contactShadow(parts: ScenePart[], camera: { right: Vec3; up: Vec3; view: Vec3 }, scene: Scene, centreX: number, centreY: number, scale: number): Shadow | null {
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

// ---------------------------------------------------------------------------------------------
// Shading

interface Background {
  transparent: boolean;
  /** Linear RGB and alpha (0–1) per output row. */
  rows: Float32Array;
}

function resolveBackground(background: RenderBackground, height: number): Background {
  const rows = new Float32Array(height * 4);
  if (background === "transparent") return { transparent: true, rows };
  const [top, bottom] = typeof background === "string" ? [background, background] : [background.top, background.bottom];
  const a = parseHex(top), b = parseHex(bottom);
  for (let y = 0; y < height; y += 1) {
    const t = height > 1 ? y / (height - 1) : 0;
    for (let c = 0; c < 3; c += 1) rows[y * 4 + c] = toLinear(a[c]! + (b[c]! - a[c]!) * t);
    rows[y * 4 + 3] = (a[3] + (b[3] - a[3]) * t) / 255;
  }
  return { transparent: false, rows };
}

function shade(
  scene: Scene | null, materials: PartMaterial[], camera: { right: Vec3; up: Vec3; view: Vec3 }, background: Background,
  width: number, height: number, ss: number, shadow: Shadow | null,
): RenderedImage {
  const out = new Uint8ClampedArray(width * height * 4);
  const lut = encodeLut();
  const { right, up, view } = camera;
  // Lights placed relative to the camera, so every view gets the same studio.
  const key = combine([[-0.6, right], [0.8, up], [0.5, view]]);
  const fill = combine([[0.5, right], [0.1, up], [0.85, view]]);
  const half = combine([[1, key], [1, view]]);
  const [vx, vy, vz] = view;
  const looks = materials.map((m) => ({ base: linearRgb(m.color), line: linearRgb(m.line), metal: m.metal, specular: m.specular, shininess: m.shininess }));
  const samples = ss * ss;
  const W = width * ss;
  const H = height * ss;
  const colour = [0, 0, 0];

  const shadeSample = (t: number, sx: number, sy: number) => {
    const look = looks[scene!.partOf[t]!]!;
    const np = scene!.nPlane;
    const o = t * 9;
    let nx = np[o]! + np[o + 1]! * sx + np[o + 2]! * sy;
    let ny = np[o + 3]! + np[o + 4]! * sx + np[o + 5]! * sy;
    let nz = np[o + 6]! + np[o + 7]! * sx + np[o + 8]! * sy;
    const nl = Math.sqrt(nx * nx + ny * ny + nz * nz) || 1; // (Math.hypot is slow)
    nx /= nl;
    ny /= nl;
    nz /= nl;
    const nv = nx * vx + ny * vy + nz * vz;
    // The key is a large softbox: the light falls off gently away from the upper left of the frame.
    const du = sx / W - 0.35, dv = sy / H - 0.2;
    const falloff = 1.08 - 0.24 * (du * du + dv * dv);
    const diffuse =
      0.16 + 0.1 * nz + // sky above, floor below
      0.95 * Math.max(0, nx * key[0] + ny * key[1] + nz * key[2]) +
      0.22 * Math.max(0, nx * fill[0] + ny * fill[1] + nz * fill[2]);
    const nh = Math.max(0, nx * half[0] + ny * half[1] + nz * half[2]);
    const highlight = look.specular * nh ** look.shininess;
    // The studio mirrored by metals: dark floor, bright softbox overhead, a band at the horizon.
    const rz = 2 * nv * nz - vz;
    const env = rz < -0.1 ? 0.12 : rz < 0.15 ? 0.12 + (rz + 0.1) * 2.4 : rz < 0.45 ? 0.72 - (rz - 0.15) * 0.9 : 0.45 + (rz - 0.45) * 1.6;
    const m = look.metal;
    for (let c = 0; c < 3; c += 1) {
      const base = look.base[c]!;
      // Paint and plastic mirror a little of the studio too, untinted (what keeps black parts legible).
      colour[c] = toneMap(base * falloff * (diffuse * (1 - 0.7 * m) + env * m * 1.1) + (1 - m) * 0.05 * env + highlight * (m > 0 ? 0.6 + 0.4 * base : 1));
    }
  };

  for (let y = 0; y < height; y += 1) {
    const bgR = background.rows[y * 4]!, bgG = background.rows[y * 4 + 1]!, bgB = background.rows[y * 4 + 2]!, bgA = background.rows[y * 4 + 3]!;
    for (let x = 0; x < width; x += 1) {
      let r = 0, g = 0, b = 0, a = 0;
      for (let sy = 0; sy < ss; sy += 1) {
        const py = y * ss + sy;
        for (let sx = 0; sx < ss; sx += 1) {
          const px = x * ss + sx;
          const i = py * W + px;
          const t = scene ? scene.triangle[i]! : -1;
          if (scene && scene.line[i]) {
            const look = looks[scene.line[i]! - 1]!;
            r += look.line[0]!;
            g += look.line[1]!;
            b += look.line[2]!;
            a += 1;
          } else if (t >= 0) {
            shadeSample(t, px + 0.5, py + 0.5);
            r += colour[0]!;
            g += colour[1]!;
            b += colour[2]!;
            a += 1;
          } else {
            const dark = shadow ? shadow.at(px + 0.5, py + 0.5) : 0;
            if (background.transparent) {
              a += dark;
            } else {
              const keep = 1 - dark;
              r += bgR * bgA * keep;
              g += bgG * bgA * keep;
              b += bgB * bgA * keep;
              a += bgA + (1 - bgA) * dark;
            }
          }
        }
      }
      const o = (y * width + x) * 4;
      if (a <= 0) continue; // transparent
      // Colours summed premultiplied; written straight.
      out[o] = lut[Math.min(LUT_SIZE, Math.round((r / a) * LUT_SIZE))]!;
      out[o + 1] = lut[Math.min(LUT_SIZE, Math.round((g / a) * LUT_SIZE))]!;
      out[o + 2] = lut[Math.min(LUT_SIZE, Math.round((b / a) * LUT_SIZE))]!;
      out[o + 3] = Math.round((a / samples) * 255);
    }
  }
  return { data: out, width, height };
}
