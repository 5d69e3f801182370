// Entry of the product model worker thread (bundled on its own to build/cad-worker.mjs by
// scripts/build-geometry-worker.mjs; docs/decisions/0025). It builds one part per message, from its
// parameters or from a STEP, and never touches the database: the job on the main thread owns the row.
import { parentPort } from "node:worker_threads";
import * as r from "replicad";
import { loadCadKernel } from "~/lib/cad-kernel";
import { runAtBackgroundPriority } from "~/services/jobs/background-priority";
import { partArtifacts } from "./artifacts";
import { buildPart } from "./models";
import type { CadThreadRequest, CadThreadResponse } from "./protocol";

// Background work: the request threads come first (docs/decisions/0070).
runAtBackgroundPriority();

const UNREADABLE = "No pudimos leer el modelo STEP.";

async function solidOf(request: CadThreadRequest): Promise<r.Shape3D | null> {
  if (request.source.kind === "parametric") return buildPart(r, request.source.spec);
  const shape = await r.importSTEP(new Blob([request.source.bytes]));
  return r.isShape3D(shape) ? shape : null;
}

async function build(request: CadThreadRequest): Promise<CadThreadResponse> {
  const started = performance.now();
  await loadCadKernel(request.kernel);
  let shape: r.Shape3D | null;
  try {
    shape = await solidOf(request);
  } catch {
    return { ok: false, reason: request.source.kind === "step" ? UNREADABLE : "El modelo paramétrico no se pudo construir." };
  }
  if (!shape) return { ok: false, reason: `${UNREADABLE} No contiene un sólido.` };
  const volume = r.measureVolume(shape);
  if (!(volume > 0)) return { ok: false, reason: `${UNREADABLE} No contiene sólidos con volumen.` };
  const artifacts = await partArtifacts(r, shape, request.meta);
  return {
    ok: true,
    step: new Uint8Array(artifacts.step).buffer,
    stl: new Uint8Array(artifacts.stl).buffer,
    drawing: artifacts.drawing,
    image: { data: new Uint8Array(artifacts.image.data).buffer, width: artifacts.image.width, height: artifacts.image.height },
    volumeMm3: artifacts.volumeMm3,
    areaMm2: artifacts.areaMm2,
    size: artifacts.size,
    elapsedMs: Math.round(performance.now() - started),
  };
}

parentPort?.on("message", (request: CadThreadRequest) => {
  build(request).then(
    (answer) => {
      const transfer = answer.ok ? [answer.step, answer.stl, answer.image.data] : [];
      parentPort?.postMessage(answer, transfer);
    },
    () => parentPort?.postMessage({ ok: false, reason: UNREADABLE } satisfies CadThreadResponse),
  );
});
