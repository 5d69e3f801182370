// Web Worker of /cotiza: reads a STEP or IGES file with OpenCascade (occt-import-js, WebAssembly)
// and measures it, off the page's main thread, and hands back its tessellation for the 3D preview.
// OBJ and 3MF meshes are read here too (mesh-reading.ts), without the kernel: its .wasm is fetched
// only for the first STEP or IGES. Pages create the worker (cad-reader.ts) only when such a file is to
// be read, so neither this code nor the 7.6 MB kernel is ever part of a page's first load.
import occtimportjs, { type Occt } from "occt-import-js";
import wasmUrl from "occt-import-js/dist/occt-import-js.wasm?url";
import { detectIgesUnit, detectStepUnit, type CadFigures, type CadFormat, type CadUnit } from "./cad-units";
import { mergeMeshes } from "./cad-mesh";
import { meshFigures, triangleSoup } from "./mesh-figures";
import type { MeshFormat } from "./mesh-formats";
import { readMeshForEstimate } from "./mesh-reading";

/** What the worker reads: STEP and IGES with the kernel, OBJ and 3MF without it. */
export type WorkerFormat = CadFormat | MeshFormat;

export interface CadWorkerRequest {
  id: number;
  format: WorkerFormat;
  bytes: ArrayBuffer;
}

/**
 * The mesh for the 3D preview, in mm: for STEP and IGES the tessellation (all the file's meshes in one,
 * indexed); for OBJ and 3MF the triangles as read, without indices (every three vertices a triangle).
 */
export interface CadWorkerMesh {
  positions: Float32Array;
  indices?: Uint32Array;
}

export type CadWorkerAnswer = { ok: true; figures: CadFigures; unit: CadUnit | null; mesh: CadWorkerMesh } | { ok: false };

export type CadWorkerResponse = CadWorkerAnswer & { id: number };

let kernel: Promise<Occt> | null = null;

function loadKernel(): Promise<Occt> {
  if (kernel) return kernel;
  let fail: (reason: unknown) => void = () => {};
  const failed = new Promise<never>((_, reject) => {
    fail = reject;
  });
  const loading = occtimportjs({
    locateFile: () => wasmUrl,
    // A module worker has neither `window` nor `importScripts`, so Emscripten would not know how to
    // fetch its binary: compile it here, streaming, from the hashed asset.
    instantiateWasm(imports, receive) {
      WebAssembly.instantiateStreaming(fetch(wasmUrl, { credentials: "same-origin" }), imports)
        .then((result) => receive(result.instance))
        .catch(fail);
      return {};
    },
    // OpenCascade prints its parse errors; the form shows its own note instead.
    print: () => {},
    printErr: () => {},
  });
  kernel = Promise.race([loading, failed]);
  // A kernel that could not load is tried again with the next file.
  kernel.catch(() => {
    kernel = null;
  });
  return kernel;
}

type ReadAnswer = Extract<CadWorkerAnswer, { ok: true }>;

async function readCad(format: CadFormat, content: Uint8Array): Promise<ReadAnswer | null> {
  // Units are declared in the text (STEP's DATA section, IGES's Global section): latin1 keeps every byte.
  const text = new TextDecoder("latin1").decode(content);
  const unit = format === "step" ? detectStepUnit(text) : detectIgesUnit(text);
  const occt = await loadKernel();
  // The kernel converts to millimetres from the declared unit. Tessellation follows the surfaces to
  // 1/1000 of the part's size, so a curved part's volume is within a fraction of a percent.
  const result = occt.ReadFile(format, content, { linearUnit: "millimeter", linearDeflectionType: "bounding_box_ratio", linearDeflection: 0.001, angularDeflection: 0.5 });
  if (!result.success || !result.meshes?.length) return null;
  const soup = triangleSoup(result.meshes);
  if (soup.length === 0) return null;
  const figures = meshFigures(soup);
  if (!(figures.volumeMm3 > 0)) return null;
  return { ok: true, unit, figures, mesh: mergeMeshes(result.meshes) };
}

const isMesh = (format: WorkerFormat): format is MeshFormat => format === "obj" || format === "3mf";

const scope = self as unknown as {
  addEventListener(type: "message", listener: (event: MessageEvent<CadWorkerRequest>) => void): void;
  postMessage(message: CadWorkerResponse, transfer?: Transferable[]): void;
};

scope.addEventListener("message", (event) => {
  const { id, format, bytes } = event.data;
  const content = new Uint8Array(bytes);
  const reading: Promise<ReadAnswer | null> = isMesh(format) ? readMeshForEstimate(format, content).then((read) => read && { ok: true as const, ...read }) : readCad(format, content);
  reading.then(
    // The mesh's buffers are transferred, not copied: the page owns them from now on.
    (answer) => {
      if (!answer) return scope.postMessage({ id, ok: false });
      const { positions, indices } = answer.mesh;
      scope.postMessage({ id, ...answer }, indices ? [positions.buffer, indices.buffer] : [positions.buffer]);
    },
    () => {
      // An aborted WebAssembly instance is not reusable: the next file gets a fresh one. (An OBJ or 3MF
      // never touches the kernel, so its failure leaves a loaded one in place.)
      if (!isMesh(format)) kernel = null;
      scope.postMessage({ id, ok: false });
    },
  );
});
