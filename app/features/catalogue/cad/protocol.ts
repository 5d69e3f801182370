// Messages between the product model job (main thread) and its worker thread (docs/decisions/0025).
import type { PartFinish, PartSpec } from "./models";

export interface PartMeta {
  title: string;
  sku: string;
  material: string;
  notes: string[];
  finish: PartFinish;
}

export interface CadThreadRequest {
  source: { kind: "parametric"; spec: PartSpec } | { kind: "step"; bytes: ArrayBuffer };
  meta: PartMeta;
  /** The CAD kernel compiled once in the process (services/jobs/cad-kernel-module.server.ts). */
  kernel?: WebAssembly.Module;
}

export interface CadThreadResult {
  step: ArrayBuffer;
  stl: ArrayBuffer;
  drawing: string;
  /** The rendered image, RGBA. */
  image: { data: ArrayBuffer; width: number; height: number };
  volumeMm3: number;
  areaMm2: number;
  size: { x: number; y: number; z: number };
  elapsedMs: number;
}

export type CadThreadResponse = ({ ok: true } & CadThreadResult) | { ok: false; reason: string };
