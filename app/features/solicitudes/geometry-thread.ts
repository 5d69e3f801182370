// Entry of the server's geometry worker thread (bundled on its own to build/geometry-worker.mjs by
// scripts/build-geometry-worker.mjs; see docs/decisions/0022). It measures one stored attachment per
// message and never touches the database: the job on the main thread owns the row.
import { parentPort } from "node:worker_threads";
import occtimportjs, { type Occt } from "occt-import-js";
import * as r from "replicad";
import { loadCadKernel } from "~/lib/cad-kernel";
import { runAtBackgroundPriority } from "~/services/jobs/background-priority";
import { detectIgesUnit, detectStepUnit } from "./cad-units";
import type { GeometryThreadRequest, GeometryThreadResponse } from "./geometry-protocol";
import { meshFigures, triangleSoup, type IndexedMesh } from "./mesh-figures";
import { MeshFormatError, readMeshFile } from "./mesh-formats";
import { parseStl, StlParseError } from "./stl-geometry";

// Background work: the request threads come first (docs/decisions/0070).
runAtBackgroundPriority();

let importer: Promise<Occt> | undefined;

/** occt-import-js: OpenCascade's IGES reader, the kernel the browser reads with. */
function loadImporter(): Promise<Occt> {
  // In Node, Emscripten finds occt-import-js.wasm beside its script in node_modules by itself.
  importer ??= occtimportjs({ print: () => {}, printErr: () => {} });
  return importer;
}

const UNREADABLE = "No pudimos leer la geometría de este archivo.";
const NO_VOLUME = `${UNREADABLE} No contiene sólidos con volumen.`;

type Answer = Extract<GeometryThreadResponse, { ok: true }>;

/** Tessellation to 1/1000 of the part's mean size (the box's three sides averaged), as in the browser. */
const DEFLECTION_RATIO = 0.001;
const ANGULAR_DEFLECTION = 0.5;

/**
 * STEP through OpenCascade's plain STEP reader (STEPControl_Reader). The browser's occt-import-js
 * reads through the XDE document reader, which also builds every colour, name and layer, and
 * tessellates each top-level shape in one piece: on the server a 50 MB assembly took 74 s and
 * 2.3 GB and came out with no triangles. Here each solid is tessellated on its own, to 1/1000 of its
 * own size (for a one-solid part, exactly the browser's parameters), which keeps the kernel's memory
 * flat; a file with no solids (surfaces only) is tessellated whole. Figures on every fixture are the
 * same as before (docs/decisions/0022, "Measured").
 */
async function measureStep(content: Uint8Array, kernel: WebAssembly.Module | undefined): Promise<Omit<Answer, "ok" | "elapsedMs"> | null> {
  // The full OpenCascade build (replicad-opencascadejs), for STEP: its plain STEP reader.
  await loadCadKernel(kernel);
  let shape: r.AnyShape;
  try {
    shape = await r.importSTEP(new Blob([content as Uint8Array<ArrayBuffer>]));
  } catch {
    return null;
  }
  const meshes: IndexedMesh[] = [];
  const tessellate = (part: r.AnyShape) => {
    if (!r.isShape3D(part)) return;
    const box = part.boundingBox;
    const size = (box.width + box.height + box.depth) / 3;
    if (!(size > 0)) return;
    const mesh = part.mesh({ tolerance: size * DEFLECTION_RATIO, angularTolerance: ANGULAR_DEFLECTION });
    meshes.push({ attributes: { position: { array: mesh.vertices } }, index: { array: mesh.triangles } });
  };
  for (const solid of r.iterTopo(shape.wrapped, "solid")) {
    const part = r.cast(solid);
    tessellate(part);
    part.delete();
  }
  if (meshes.length === 0) tessellate(shape);
  shape.delete();
  if (meshes.length === 0) return null;
  return { figures: meshFigures(triangleSoup(meshes)), unit: detectStepUnit(new TextDecoder("latin1").decode(content)) };
}

/**
 * After a STEP the reader refused: does the kernel still build and measure a solid? A file that is
 * not a STEP at all is refused by the reader without harm, and the thread (its kernel loaded, its
 * code compiled) can take the next file; a kernel left broken fails here and its thread ends.
 */
function kernelStillWorks(): boolean {
  try {
    const probe = r.makeBaseBox(10, 10, 10);
    const volume = r.measureVolume(probe);
    probe.delete();
    return Math.abs(volume - 1000) < 1e-3;
  } catch {
    return false;
  }
}

/**
 * Whether the thread may take the next file after this one failed: meshes are read in JavaScript
 * (no kernel involved), a STEP went through the kernel, which is checked; IGES's reader is not.
 */
function kernelFitAfter(format: GeometryThreadRequest["format"]): boolean {
  if (format === "step") return kernelStillWorks();
  return format !== "iges";
}

async function measure({ format, bytes, kernel }: GeometryThreadRequest): Promise<GeometryThreadResponse> {
  const started = performance.now();
  const content = new Uint8Array(bytes);
  const done = (answer: Omit<Answer, "ok" | "elapsedMs">, noVolume: string): GeometryThreadResponse =>
    answer.figures.volumeMm3 > 0
      ? { ok: true, ...answer, elapsedMs: Math.round(performance.now() - started) }
      : { ok: false, reason: noVolume, kernelFit: kernelFitAfter(format) };
  if (format === "stl") {
    try {
      return done({ figures: meshFigures(parseStl(content).triangles), unit: null }, `${UNREADABLE} La malla no encierra ningún volumen.`);
    } catch (error) {
      return { ok: false, reason: error instanceof StlParseError ? error.message : UNREADABLE, kernelFit: kernelFitAfter(format) };
    }
  }
  if (format === "obj" || format === "3mf") {
    try {
      const read = await readMeshFile(format, content);
      return done({ figures: meshFigures(read.triangles), unit: read.unit }, `${UNREADABLE} La malla no encierra ningún volumen.`);
    } catch (error) {
      return { ok: false, reason: error instanceof MeshFormatError ? error.message : UNREADABLE, kernelFit: kernelFitAfter(format) };
    }
  }
  if (format === "step") {
    const answer = await measureStep(content, kernel);
    return answer ? done(answer, NO_VOLUME) : { ok: false, reason: UNREADABLE, kernelFit: kernelFitAfter(format) };
  }
  const unit = detectIgesUnit(new TextDecoder("latin1").decode(content));
  const occt = await loadImporter();
  // The kernel converts to millimetres from the declared unit; tessellation as in the browser.
  const result = occt.ReadFile("iges", content, { linearUnit: "millimeter", linearDeflectionType: "bounding_box_ratio", linearDeflection: DEFLECTION_RATIO, angularDeflection: ANGULAR_DEFLECTION });
  if (!result.success || !result.meshes?.length) return { ok: false, reason: UNREADABLE };
  return done({ figures: meshFigures(triangleSoup(result.meshes)), unit }, NO_VOLUME);
}

parentPort?.on("message", (request: GeometryThreadRequest) => {
  measure(request).then(
    (answer) => parentPort?.postMessage(answer),
    () => parentPort?.postMessage({ ok: false, reason: UNREADABLE } satisfies GeometryThreadResponse),
  );
});
