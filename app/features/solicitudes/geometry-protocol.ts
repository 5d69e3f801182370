// Messages between the geometry job (main thread) and its worker thread.
import type { CadFigures } from "./cad-units";

export type GeometryFormat = "step" | "iges" | "stl" | "obj" | "3mf";

export interface GeometryThreadRequest {
  format: GeometryFormat;
  bytes: ArrayBuffer;
}

export type GeometryThreadResponse =
  | { ok: true; figures: CadFigures; unit: string | null; elapsedMs: number }
  | { ok: false; reason: string };
