// The page's side of the CAD worker (cad-worker.ts): one module Web Worker, created on the first
// file, answering each file by id. /cotiza reads the chosen files with it (STEP, IGES, OBJ and 3MF);
// the staff detail page reads a stored file with it for the 3D view. Vite makes the worker its own
// chunk (and the kernel's .wasm an asset), fetched only when a reader first reads.
import type { ViewerMesh } from "~/components/part-viewer/viewer-mesh";
import { cadFormat } from "./cad-units";
import type { CadWorkerAnswer, CadWorkerRequest, CadWorkerResponse, WorkerFormat } from "./cad-worker";
import { meshFormat } from "./mesh-formats";

/** The format the worker reads a file as, by its name: STEP, IGES, OBJ or 3MF; null for any other. */
export function workerFormat(fileName: string): WorkerFormat | null {
  return cadFormat(fileName) ?? meshFormat(fileName);
}

export interface CadReader {
  /**
   * Sends the bytes (transferred: `bytes` is empty afterwards) and resolves with the worker's answer,
   * `ok: false` when the file cannot be read (by the kernel, or as an OBJ or 3MF). Rejects when the worker itself fails (its script
   * or the kernel could not load); the next read starts a fresh worker.
   */
  read(format: WorkerFormat, bytes: ArrayBuffer): Promise<CadWorkerAnswer>;
  /** Stops the worker; reads still waiting reject. */
  dispose(): void;
}

let nextId = 1;

export function createCadReader(): CadReader {
  let worker: Worker | null = null;
  const waiting = new Map<number, { resolve: (answer: CadWorkerAnswer) => void; reject: (reason: unknown) => void }>();

  const failAll = (reason: unknown) => {
    for (const pending of waiting.values()) pending.reject(reason);
    waiting.clear();
  };
  const stop = () => {
    worker?.terminate();
    worker = null;
  };
  const start = (): Worker => {
    const created = new Worker(new URL("./cad-worker.ts", import.meta.url), { type: "module", name: "forja-cad" });
    created.addEventListener("message", (event: MessageEvent<CadWorkerResponse>) => {
      const pending = waiting.get(event.data.id);
      if (!pending) return;
      waiting.delete(event.data.id);
      pending.resolve(event.data);
    });
    // The worker script or the kernel could not load (offline, blocked): every waiting file fails.
    created.addEventListener("error", (event) => {
      if (worker !== created) return;
      stop();
      failAll(event.error ?? new Error("El lector de CAD no pudo iniciar."));
    });
    return created;
  };

  return {
    read(format, bytes) {
      worker ??= start();
      const id = nextId++;
      const answer = new Promise<CadWorkerAnswer>((resolve, reject) => waiting.set(id, { resolve, reject }));
      worker.postMessage({ id, format, bytes } satisfies CadWorkerRequest, [bytes]);
      return answer;
    },
    dispose() {
      stop();
      failAll(new Error("Lector cerrado."));
    },
  };
}

/**
 * Fetches a stored STEP, IGES, OBJ or 3MF file (same origin, with the session) and reads it for the 3D
 * view (STEP and IGES tessellated by the kernel). Throws when the file cannot be fetched or read.
 */
export async function loadCadMesh(url: string, format: WorkerFormat, signal: AbortSignal): Promise<ViewerMesh> {
  const response = await fetch(url, { credentials: "same-origin", signal });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const bytes = await response.arrayBuffer();
  const reader = createCadReader();
  const stopReading = () => reader.dispose();
  signal.addEventListener("abort", stopReading);
  try {
    const answer = await reader.read(format, bytes);
    if (!answer.ok) throw new Error("El archivo no se pudo leer.");
    return answer.mesh;
  } finally {
    signal.removeEventListener("abort", stopReading);
    reader.dispose();
  }
}
