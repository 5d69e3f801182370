// Entry of the server's geometry worker thread (bundled on its own to build/geometry-worker.mjs by
// scripts/build-geometry-worker.mjs; see docs/decisions/0022). It measures one stored attachment per
// message and never touches the database: the job on the main thread owns the row.
import { parentPort } from "node:worker_threads";
import occtimportjs, { type Occt } from "occt-import-js";
import { detectIgesUnit, detectStepUnit } from "./cad-units";
import type { GeometryThreadRequest, GeometryThreadResponse } from "./geometry-protocol";
import { meshFigures, triangleSoup } from "./mesh-figures";
import { parseStl, StlParseError } from "./stl-geometry";

let kernel: Promise<Occt> | undefined;

function loadKernel(): Promise<Occt> {
  // In Node, Emscripten finds occt-import-js.wasm beside its script in node_modules by itself.
  kernel ??= occtimportjs({ print: () => {}, printErr: () => {} });
  return kernel;
}

const UNREADABLE = "No pudimos leer la geometría de este archivo.";

async function measure({ format, bytes }: GeometryThreadRequest): Promise<GeometryThreadResponse> {
  const started = performance.now();
  const content = new Uint8Array(bytes);
  if (format === "stl") {
    try {
      const figures = meshFigures(parseStl(content).triangles);
      if (!(figures.volumeMm3 > 0)) return { ok: false, reason: `${UNREADABLE} La malla no encierra ningún volumen.` };
      return { ok: true, figures, unit: null, elapsedMs: Math.round(performance.now() - started) };
    } catch (error) {
      return { ok: false, reason: error instanceof StlParseError ? error.message : UNREADABLE };
    }
  }
  const text = new TextDecoder("latin1").decode(content);
  const unit = format === "step" ? detectStepUnit(text) : detectIgesUnit(text);
  const occt = await loadKernel();
  // The kernel converts to millimetres from the declared unit; tessellation to 1/1000 of the part's
  // size, the same parameters as the browser, so both sides agree.
  const result = occt.ReadFile(format, content, { linearUnit: "millimeter", linearDeflectionType: "bounding_box_ratio", linearDeflection: 0.001, angularDeflection: 0.5 });
  if (!result.success || !result.meshes?.length) return { ok: false, reason: UNREADABLE };
  const soup = triangleSoup(result.meshes);
  const figures = meshFigures(soup);
  if (!(figures.volumeMm3 > 0)) return { ok: false, reason: `${UNREADABLE} No contiene sólidos con volumen.` };
  return { ok: true, figures, unit, elapsedMs: Math.round(performance.now() - started) };
}

parentPort?.on("message", (request: GeometryThreadRequest) => {
  measure(request).then(
    (answer) => parentPort?.postMessage(answer),
    () => parentPort?.postMessage({ ok: false, reason: UNREADABLE } satisfies GeometryThreadResponse),
  );
});
