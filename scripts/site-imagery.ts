// Renders the public site's pictures and the industry examples' drawings (docs/decisions/0026), once,
// at build and dev start: bundled and run by scripts/build-site-imagery.mjs. Every picture is a
// composition of parts built with the catalogue's CAD models (app/features/site/imagery/scenes.ts),
// rendered by the catalogue's renderer and encoded to AVIF and WebP; every drawing is the catalogue's
// drawing of the example part. What a scene produced is kept in the CAD cache under a hash of the
// scene and of the code that draws it, so a build with unchanged scenes only copies files.
//
// Output: app/features/site/imagery/generated/ (not committed) with the files and manifest.json;
// the server bundles them as hashed assets (app/features/site/imagery/images.server.ts).
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { loadCadKernel, shapeSize } from "~/lib/cad-kernel";
import * as r from "replicad";
import { partEdges, partMesh } from "~/features/catalogue/cad/artifacts";
import { drawingSvg } from "~/features/catalogue/cad/drawing";
import { cadCacheDir } from "~/features/catalogue/cad/model-cache";
import { buildPart, type PartSpec } from "~/features/catalogue/cad/models";
import { encodePartImage } from "~/features/catalogue/cad/part-image.server";
import { projectViews } from "~/features/catalogue/cad/projections";
import { composeParts, DEFAULT_DIRECTION, type ScenePart, type Vec3 } from "~/features/catalogue/cad/render-part";
import { drawingId, EXAMPLE_PARTS, SCENE_SIZES, SITE_SCENES, type SceneItem, type SiteScene } from "~/features/site/imagery/scenes";
import type { SiteImageryManifest, SiteImageSource } from "~/features/site/imagery/manifest";

/** Bump to re-render everything when the output changes in a way the hashed sources do not show. */
const GENERATOR_VERSION = 1;
const FORMATS = ["avif", "webp"] as const;
/** Flat studio backgrounds and clean edges compress well; these keep the edges crisp. */
const QUALITY = { webp: 80, avif: 52 };

const root = process.cwd();
const outDir = path.join(root, "app/features/site/imagery/generated");
const cacheDir = path.join(cadCacheDir(), "site-imagery");

/** The code a picture depends on besides its scene: a change in any of them renders again. */
const PIPELINE_SOURCES = [
  "scripts/site-imagery.ts",
  "app/features/catalogue/cad/models.ts",
  "app/features/catalogue/cad/artifacts.ts",
  "app/features/catalogue/cad/render-part.ts",
  "app/features/catalogue/cad/render-raster.ts",
  "app/features/catalogue/cad/render-shadow.ts",
  "app/features/catalogue/cad/part-image.server.ts",
  "app/features/catalogue/cad/finishes.ts",
  "app/features/catalogue/cad/projections.ts",
  "app/features/catalogue/cad/drawing.ts",
  "app/features/catalogue/cad/types.ts",
  "node_modules/replicad/package.json",
  "node_modules/sharp/package.json",
];

function sha256(text: string | Uint8Array): string {
  return createHash("sha256").update(text).digest("hex");
}

const pipelineHash = sha256(PIPELINE_SOURCES.map((file) => sha256(fs.readFileSync(path.join(root, file)))).join(":"));
const keyOf = (value: unknown) => sha256(JSON.stringify({ version: GENERATOR_VERSION, pipeline: pipelineHash, value })).slice(0, 32);

const loadKernel = loadCadKernel;

/** A cached entry: a directory of files, written whole (a temporary directory renamed into place). */
function readCache(key: string): Map<string, Buffer> | null {
  const dir = path.join(cacheDir, key);
  if (!fs.existsSync(path.join(dir, "done"))) return null;
  const files = new Map<string, Buffer>();
  for (const name of fs.readdirSync(dir)) if (name !== "done") files.set(name, fs.readFileSync(path.join(dir, name)));
  return files;
}

function writeCache(key: string, files: Map<string, Uint8Array | string>): void {
  const dir = path.join(cacheDir, key);
  const tmp = `${dir}.${process.pid}.tmp`;
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.mkdirSync(tmp, { recursive: true });
  for (const [name, bytes] of files) fs.writeFileSync(path.join(tmp, name), bytes);
  fs.writeFileSync(path.join(tmp, "done"), "");
  fs.rmSync(dir, { recursive: true, force: true });
  fs.renameSync(tmp, dir);
}

// --- Scenes --------------------------------------------------------------------------------------

type Vec = [number, number, number];
const AXES: Record<"x" | "y" | "z", Vec> = { x: [1, 0, 0], y: [0, 1, 0], z: [0, 0, 1] };

function unit(v: Vec): Vec {
  const length = Math.hypot(...v);
  return [v[0] / length, v[1] / length, v[2] / length];
}

/** The floor's "right in the picture" and "away from the camera" directions for a camera direction. */
function floorFrame(direction: Vec3): { right: Vec; back: Vec } {
  const view = unit([direction[0], direction[1], direction[2]]);
  return { right: unit([-view[1], view[0], 0]), back: unit([-view[0], -view[1], 0]) };
}

const solids = new Map<string, r.Shape3D>();
function solidOf(spec: PartSpec): r.Shape3D {
  const key = JSON.stringify(spec);
  let solid = solids.get(key);
  if (!solid) {
    solid = buildPart(r, spec);
    solids.set(key, solid);
  }
  return solid.clone();
}

function meshTolerance(shape: r.Shape3D) {
  const size = shapeSize(shape);
  return { tolerance: Math.max(0.02, Math.hypot(size.x, size.y, size.z) / 2000), angularTolerance: 0.1 };
}

type Box = { min: Vec; max: Vec };

/** Parts that stand in each other's place on the floor read as a mistake: the build says which. */
function warnOverlaps(scene: SiteScene, boxes: Box[]): void {
  const gap = 3;
  boxes.forEach((a, i) =>
    boxes.slice(i + 1).forEach((b, k) => {
      const apart = [0, 1, 2].some((axis) => a.max[axis] + gap <= b.min[axis] || b.max[axis] + gap <= a.min[axis]);
      if (!apart) console.warn(`Escena ${scene.id}: las piezas ${i + 1} y ${i + k + 2} ocupan el mismo lugar`);
    }),
  );
}

/** The item's part turned, centred, set on the floor and moved to its place. */
function placedPart(item: SceneItem, frame: { right: Vec; back: Vec }, boxes: Box[]): ScenePart {
  let shape = solidOf(item.part);
  for (const [axis, degrees] of item.rotate ?? []) shape = shape.rotate(degrees, [0, 0, 0], AXES[axis]);
  const [min, max] = shape.boundingBox.bounds;
  const [right, back, up = 0] = item.at ?? [0, 0, 0];
  const target: Vec = [0, 1, 2].map((i) => right * frame.right[i] + back * frame.back[i]) as Vec;
  shape = shape.translate([target[0] - (min[0] + max[0]) / 2, target[1] - (min[1] + max[1]) / 2, up - min[2]]);
  const [low, high] = shape.boundingBox.bounds;
  boxes.push({ min: [low[0], low[1], low[2]], max: [high[0], high[1], high[2]] });
  const tolerance = meshTolerance(shape);
  const look = typeof item.look === "string" ? { finish: item.look } : { color: item.look };
  return { mesh: partMesh(shape, tolerance), edges: partEdges(shape, tolerance), ...look };
}

const fileName = (id: string, width: number, format: string) => `${id}-${width}.${format}`;

async function renderScene(scene: SiteScene): Promise<Map<string, Uint8Array>> {
  await loadKernel();
  const direction = scene.direction ?? DEFAULT_DIRECTION;
  const frame = floorFrame(direction);
  const boxes: Box[] = [];
  const parts = scene.items.map((item) => placedPart(item, frame, boxes));
  warnOverlaps(scene, boxes);
  const files = new Map<string, Uint8Array>();
  for (const size of SCENE_SIZES[scene.format]) {
    const encoded = await encodePartImage(composeParts(parts, { ...size, direction, margin: scene.margin ?? 0.07 }), { formats: FORMATS, quality: QUALITY });
    for (const format of FORMATS) files.set(fileName(scene.id, size.width, format), encoded[format]);
  }
  return files;
}

async function renderDrawing(slug: keyof typeof EXAMPLE_PARTS): Promise<Map<string, string>> {
  await loadKernel();
  const example = EXAMPLE_PARTS[slug];
  const shape = buildPart(r, example.part);
  const size = shapeSize(shape);
  const svg = drawingSvg({
    title: example.name,
    sku: example.code,
    // An example project, not a catalogue part: its code is a «clave», not a SKU.
    codeLabel: "Clave",
    material: example.material,
    views: projectViews(r, shape),
    size,
    notes: example.notes.map((text) => ({ text })),
  });
  return new Map([[`${drawingId(slug)}.svg`, svg]]);
}

// --- Output --------------------------------------------------------------------------------------

function writeIfChanged(file: string, bytes: Uint8Array | string): boolean {
  const next = typeof bytes === "string" ? Buffer.from(bytes) : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (fs.existsSync(file) && fs.readFileSync(file).equals(next)) return false;
  fs.writeFileSync(file, next);
  return true;
}

async function cached<T extends Uint8Array | string>(key: string, make: () => Promise<Map<string, T>>): Promise<{ files: Map<string, Uint8Array | string>; hit: boolean }> {
  const hit = readCache(key);
  if (hit) return { files: hit, hit: true };
  const files = await make();
  writeCache(key, files);
  return { files, hit: false };
}

async function main(): Promise<void> {
  const started = performance.now();
  fs.mkdirSync(outDir, { recursive: true });
  const manifest: SiteImageryManifest = { scenes: {}, drawings: {} };
  const written = new Set<string>(["manifest.json"]);
  let rendered = 0;
  let changed = 0;

  for (const scene of SITE_SCENES) {
    const { items, direction, margin, format } = scene;
    const { files, hit } = await cached(keyOf({ scene: { items, direction, margin, format }, sizes: SCENE_SIZES[format], formats: FORMATS }), () => renderScene(scene));
    if (!hit) rendered += 1;
    const [largest] = SCENE_SIZES[format];
    const sources = Object.fromEntries(FORMATS.map((type) => [type, [] as SiteImageSource[]])) as Record<(typeof FORMATS)[number], SiteImageSource[]>;
    for (const size of SCENE_SIZES[format]) {
      for (const type of FORMATS) {
        const name = fileName(scene.id, size.width, type);
        const bytes = files.get(name);
        if (!bytes) throw new Error(`The cache entry of ${scene.id} has no ${name}`);
        if (writeIfChanged(path.join(outDir, name), bytes)) changed += 1;
        written.add(name);
        sources[type].push({ file: name, width: size.width, bytes: bytes.length });
      }
    }
    manifest.scenes[scene.id] = { width: largest.width, height: largest.height, sources };
  }

  for (const slug of Object.keys(EXAMPLE_PARTS) as Array<keyof typeof EXAMPLE_PARTS>) {
    const { files, hit } = await cached(keyOf({ drawing: EXAMPLE_PARTS[slug] }), () => renderDrawing(slug));
    if (!hit) rendered += 1;
    const name = `${drawingId(slug)}.svg`;
    const svg = files.get(name);
    if (svg === undefined) throw new Error(`The cache entry of ${name} is empty`);
    const text = svg.toString();
    const match = /<svg[^>]*\swidth="([\d.]+)"[^>]*\sheight="([\d.]+)"/.exec(text);
    if (!match) throw new Error(`${name} has no width and height`);
    if (writeIfChanged(path.join(outDir, name), text)) changed += 1;
    written.add(name);
    manifest.drawings[slug] = { file: name, width: Number(match[1]), height: Number(match[2]), bytes: Buffer.byteLength(text) };
  }

  if (writeIfChanged(path.join(outDir, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`)) changed += 1;
  for (const name of fs.readdirSync(outDir)) if (!written.has(name)) fs.rmSync(path.join(outDir, name), { force: true });

  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`Imágenes del sitio: ${SITE_SCENES.length} escenas y ${Object.keys(EXAMPLE_PARTS).length} dibujos (${rendered} generados, ${changed} archivos actualizados) en ${seconds} s`);
}

await main();
