// Messages between the geometry job (main thread) and its worker thread.
import type { CadFigures } from "./cad-units";

export type GeometryFormat = "step" | "iges" | "stl" | "obj" | "3mf";

export interface GeometryThreadRequest {
  format: GeometryFormat;
  bytes: ArrayBuffer;
  /** For STEP: the CAD kernel compiled once in the process (services/jobs/cad-kernel-module.server.ts). */
  kernel?: WebAssembly.Module;
}

export type GeometryThreadResponse =
  | { ok: true; figures: CadFigures; unit: string | null; elapsedMs: number }
  /**
   * `kernelFit`: the thread checked that its kernel still works after the failure (a file it could
   * not read, a mesh with no volume), so it may take the next file; without it the thread ends.
   */
  | { ok: false; reason: string; kernelFit?: boolean };
