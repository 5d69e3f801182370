// Web Worker of /cotiza: reads a STEP or IGES file with OpenCascade (occt-import-js, WebAssembly)
// and measures it, off the page's main thread, and hands back its tessellation for the 3D preview.
// Pages create it (cad-reader.ts) only when such a file is to be read, so neither this code nor the
// 7.6 MB kernel is ever part of a page's first load.
import occtimportjs, { type Occt } from "occt-import-js";
import wasmUrl from "occt-import-js/dist/occt-import-js.wasm?url";
import { detectIgesUnit, detectStepUnit, type CadFigures, type CadFormat, type CadUnit } from "./cad-units";
import { mergeMeshes } from "./cad-mesh";
import { meshFigures, triangleSoup } from "./mesh-figures";

export interface CadWorkerRequest {
  id: number;
  format: CadFormat;
  bytes: ArrayBuffer;
}

/** The tessellation, for the 3D preview: positions (mm) and triangle indices, all the file's meshes in one. */
export interface CadWorkerMesh {
  positions: Float32Array;
  indices: Uint32Array;
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

async function read({ format, bytes }: CadWorkerRequest): Promise<Extract<CadWorkerAnswer, { ok: true }> | null> {
  const content = new Uint8Array(bytes);
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

const scope = self as unknown as {
  addEventListener(type: "message", listener: (event: MessageEvent<CadWorkerRequest>) => void): void;
  postMessage(message: CadWorkerResponse, transfer?: Transferable[]): void;
};

scope.addEventListener("message", (event) => {
  const { id } = event.data;
  read(event.data).then(
    // The mesh's buffers are transferred, not copied: the page owns them from now on.
    (answer) => (answer ? scope.postMessage({ id, ...answer }, [answer.mesh.positions.buffer, answer.mesh.indices.buffer]) : scope.postMessage({ id, ok: false })),
    () => {
      // An aborted WebAssembly instance is not reusable: the next file gets a fresh one.
      kernel = null;
      scope.postMessage({ id, ok: false });
    },
  );
});
