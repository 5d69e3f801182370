// A small software renderer for catalogue parts (issue 12 §1): the picture on cards, Open Graph and
// JSON-LD, made on the server from the part's mesh without a browser or a GPU. Pure TypeScript on
// typed arrays, no Node APIs, so it runs in the model job's worker thread or anywhere else.
//
// How it works: an orthographic camera fitted to the parts, one z-buffer at `supersample`× the
// output size holding the nearest triangle per sample; feature edges and silhouettes are then marked
// with a depth test, and each output pixel is shaded from its samples (deferred, so hidden surfaces
// cost no shading) and box-filtered down, in linear light. The studio: a key light from the upper
// left, a fill from the right, a sky/ground ambient and, for metals, a soft studio reflection. The
// z-buffer and the lines are in render-raster.ts, the contact shadow in render-shadow.ts.
import type { PartFinish } from "./finishes";
import { contactShadow, type Shadow } from "./render-shadow";
import { creaseSegments, drawEdges, drawOutlines, projectPart, rasterize, toScreen, type Camera, type Fit, type Scene } from "./render-raster";
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
  /** The part's finish (default acero), or any material, which wins over it (a hex colour gives a satin paint). */
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

function cameraFrame(direction: Vec3): Camera {
  const view = normalize(direction);
  const forward: Vec3 = [-view[0], -view[1], -view[2]];
  // Looking straight down or up, the model's Y is up in the image.
  const worldUp: Vec3 = Math.abs(view[2]) > 0.999 ? [0, view[2] > 0 ? 1 : -1, 0] : [0, 0, 1];
  const right = normalize(cross(forward, worldUp));
  return { right, up: cross(right, forward), view };
}

// ---------------------------------------------------------------------------------------------
// The render

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
  scene: Scene | null, materials: PartMaterial[], camera: Camera, background: Background,
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
