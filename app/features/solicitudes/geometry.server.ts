import fs from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { and, asc, eq, inArray, lt, or, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { solicitudFiles, type SolicitudFileGeometry, type SolicitudFileGeometryStatus } from "~/db/schema/solicitudes";
import { logger } from "~/lib/logger.server";
import { getFileStore } from "~/services/files/file-store.server";
import type { GeometryFormat, GeometryThreadRequest, GeometryThreadResponse } from "./geometry-protocol";

// Server-side geometry of CAD attachments (docs/decisions/0022). A solicitud is stored first, its
// files `pending`; a background job takes them one at a time and measures each in a worker thread
// with a memory limit and a wall-clock limit, never on a request's thread. Whatever happens, the row
// ends with figures or with the Spanish reason staff see.

export interface GeometryBudget {
  /**
   * Wall-clock limit per file, ms: `timeoutMs` plus `timeoutMsPerMb` for each MB of the file, at
   * most `maxTimeoutMs`; the thread is terminated when it runs out.
   */
  timeoutMs: number;
  timeoutMsPerMb: number;
  maxTimeoutMs: number;
  /** V8 old-generation limit of the thread, MB (the WebAssembly heap is bounded by the kernel itself). */
  maxOldGenerationMb: number;
  /** Files larger than this are not read at all, bytes. */
  maxBytes: number;
}

const MIN_OLD_GENERATION_MB = 64;

// Staff would rather wait two minutes for a big assembly than see no figures: 30 s, plus 2 s per MB
// (a 50 MB STEP gets 130 s; measured 0022), never more than 3 minutes.
export const DEFAULT_GEOMETRY_BUDGET: GeometryBudget = {
  timeoutMs: 30_000,
  timeoutMsPerMb: 2_000,
  maxTimeoutMs: 180_000,
  maxOldGenerationMb: 512,
  maxBytes: 100 * 1024 * 1024,
};

/** The wall-clock limit for a file of `bytes` under `budget`, ms. */
export function geometryTimeoutMs(budget: GeometryBudget, bytes: number): number {
  return Math.round(Math.min(budget.maxTimeoutMs, budget.timeoutMs + (budget.timeoutMsPerMb * bytes) / (1024 * 1024)));
}

/** The worker thread's bundle (scripts/build-geometry-worker.mjs), beside the server build. */
export function geometryWorkerFile(): string {
  return path.resolve(process.env.GEOMETRY_WORKER_FILE ?? "build/geometry-worker.mjs");
}

export type GeometryOutcome =
  | { status: "ok"; figures: SolicitudFileGeometry }
  | { status: "unreadable" | "over-budget"; reason: string };

const UNREADABLE = "No pudimos leer la geometría de este archivo.";

function seconds(ms: number): string {
  return new Intl.NumberFormat("es-MX", { maximumFractionDigits: 3 }).format(ms / 1000);
}

/**
 * Measures one file in a fresh worker thread under `budget`. A thread that runs out of time is
 * terminated; one that runs out of memory dies alone. Never throws.
 */
export function measureInWorker(
  format: GeometryFormat,
  bytes: Uint8Array,
  budget: GeometryBudget = DEFAULT_GEOMETRY_BUDGET,
  workerFile = geometryWorkerFile(),
  signal?: AbortSignal,
): Promise<GeometryOutcome | { status: "aborted" }> {
  return new Promise((resolve) => {
    let settled = false;
    let worker: Worker;
    try {
      // Below a few dozen MB V8 cannot even create the thread's heap, and that failure ends the whole process.
      const maxOldGenerationSizeMb = Math.max(MIN_OLD_GENERATION_MB, budget.maxOldGenerationMb);
      worker = new Worker(workerFile, { resourceLimits: { maxOldGenerationSizeMb }, stdout: true, stderr: true });
    } catch (error) {
      logger.error({ err: error }, "could not start the geometry worker");
      resolve({ status: "unreadable", reason: UNREADABLE });
      return;
    }
    const finish = (outcome: GeometryOutcome | { status: "aborted" }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", abort);
      void worker.terminate();
      resolve(outcome);
    };
    const timeoutMs = geometryTimeoutMs(budget, bytes.length);
    const timer = setTimeout(() => finish({ status: "over-budget", reason: `El archivo excede el tiempo de cálculo (${seconds(timeoutMs)} s).` }), timeoutMs);
    // The server is shutting down: the thread ends now and the file is measured after the restart.
    const abort = () => finish({ status: "aborted" });
    if (signal?.aborted) return abort();
    signal?.addEventListener("abort", abort);
    worker.on("message", (answer: GeometryThreadResponse) => {
      if (answer.ok) finish({ status: "ok", figures: { ...answer.figures, unit: answer.unit, elapsedMs: answer.elapsedMs } });
      else finish({ status: "unreadable", reason: answer.reason });
    });
    worker.on("error", (error: Error & { code?: string }) => {
      const memory = error.code === "ERR_WORKER_OUT_OF_MEMORY" || /memory/i.test(error.message);
      if (!memory) logger.warn({ err: error }, "geometry worker failed");
      finish(memory ? { status: "over-budget", reason: `El archivo excede la memoria de cálculo (${budget.maxOldGenerationMb} MB).` } : { status: "unreadable", reason: UNREADABLE });
    });
    worker.on("exit", () => finish({ status: "unreadable", reason: UNREADABLE }));
    // A copy goes to the thread (transferred, so it is not held twice). `new Uint8Array(view)` copies
    // into an ArrayBuffer of its own: a Buffer's `slice` is a view, and a small Buffer lives in
    // Node's shared pool, which cannot be transferred.
    const copy = new Uint8Array(bytes).buffer;
    worker.postMessage({ format, bytes: copy } satisfies GeometryThreadRequest, [copy]);
  });
}

const FORMAT_BY_KIND: Record<string, GeometryFormat | undefined> = { step: "step", iges: "iges", stl: "stl", obj: "obj", "3mf": "3mf" };

/** A claim older than this was lost (the process died mid-file): the file is taken again. */
const STALE_CLAIM_MS = 10 * 60_000;
/** A file that took the process down this many times is not tried again. */
const MAX_ATTEMPTS = 3;

interface Claimed {
  id: string;
  kind: string;
  storagePath: string;
  size: number;
  attempts: number;
}

/** Takes the oldest pending file (or one whose claim went stale), marking it computing. */
async function claimNext(): Promise<Claimed | null> {
  const db = getDb();
  const staleBefore = new Date(Date.now() - STALE_CLAIM_MS);
  const candidates = db
    .select({ id: solicitudFiles.id })
    .from(solicitudFiles)
    .where(or(eq(solicitudFiles.geometryStatus, "pending"), and(eq(solicitudFiles.geometryStatus, "computing"), lt(solicitudFiles.geometryClaimedAt, staleBefore))))
    .orderBy(asc(solicitudFiles.createdAt))
    .limit(1)
    .for("update", { skipLocked: true });
  const [row] = await db
    .update(solicitudFiles)
    .set({ geometryStatus: "computing", geometryClaimedAt: new Date(), geometryAttempts: sql`${solicitudFiles.geometryAttempts} + 1` })
    .where(inArray(solicitudFiles.id, candidates))
    .returning({ id: solicitudFiles.id, kind: solicitudFiles.kind, storagePath: solicitudFiles.storagePath, size: solicitudFiles.size, attempts: solicitudFiles.geometryAttempts });
  return row ?? null;
}

async function settle(id: string, status: Exclude<SolicitudFileGeometryStatus, "pending" | "computing">, figures: SolicitudFileGeometry | null, reason: string | null): Promise<void> {
  await getDb()
    .update(solicitudFiles)
    .set({ geometryStatus: status, geometry: figures, geometryReason: reason, geometryComputedAt: new Date(), geometryClaimedAt: null })
    .where(eq(solicitudFiles.id, id));
}

/** Measures one claimed file and stores the outcome. */
async function processFile(file: Claimed, budget: GeometryBudget, workerFile: string, signal: AbortSignal): Promise<void> {
  const format = FORMAT_BY_KIND[file.kind];
  if (!format) return settle(file.id, "not-cad", null, "Este archivo no es un modelo 3D que podamos medir (STEP, IGES, STL, 3MF u OBJ): no tiene cálculo de volumen.");
  if (file.attempts > MAX_ATTEMPTS) return settle(file.id, "unreadable", null, `${UNREADABLE} El cálculo se interrumpió varias veces.`);
  if (file.size > budget.maxBytes) {
    const mb = new Intl.NumberFormat("es-MX", { maximumFractionDigits: 0 }).format(budget.maxBytes / 1024 / 1024);
    return settle(file.id, "over-budget", null, `El archivo excede el tamaño máximo de cálculo (${mb} MB).`);
  }
  const bytes = await getFileStore().readBytes(file.storagePath, budget.maxBytes);
  if (!bytes) return settle(file.id, "unreadable", null, `${UNREADABLE} El archivo no está en el almacén.`);
  const outcome = await measureInWorker(format, bytes, budget, workerFile, signal);
  if (outcome.status === "aborted") {
    await getDb()
      .update(solicitudFiles)
      .set({ geometryStatus: "pending", geometryClaimedAt: null, geometryAttempts: sql`${solicitudFiles.geometryAttempts} - 1` })
      .where(eq(solicitudFiles.id, file.id));
    return;
  }
  if (outcome.status === "ok") await settle(file.id, "ok", outcome.figures, null);
  else await settle(file.id, outcome.status, null, outcome.reason);
  logger.info({ fileId: file.id, status: outcome.status, bytes: bytes.length }, "solicitud file geometry");
}

export interface GeometryJobOptions {
  intervalMs?: number;
  budget?: GeometryBudget;
  workerFile?: string;
}

export interface GeometryJob {
  stop(): Promise<void>;
}

let activeNudge: (() => void) | undefined;

/** Wakes the geometry job now (after a solicitud with files is committed); no-op when it is not running. */
export function nudgeGeometryJob(): void {
  activeNudge?.();
}

/**
 * The background job: one file at a time (one worker thread alive at most), polling for pending
 * files every `intervalMs` and woken at once by nudgeGeometryJob. Rows survive a crash: a file left
 * `computing` is taken again once its claim is stale.
 */
export function startGeometryJob(options: GeometryJobOptions = {}): GeometryJob {
  const intervalMs = options.intervalMs ?? 10_000;
  const budget = options.budget ?? DEFAULT_GEOMETRY_BUDGET;
  const workerFile = options.workerFile ?? geometryWorkerFile();
  if (!fs.existsSync(workerFile)) logger.warn({ workerFile }, "geometry worker bundle missing: run npm run build");
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> | undefined;
  let nudged = false;
  const shutdown = new AbortController();

  const runOnce = async () => {
    while (!stopped) {
      nudged = false;
      let file: Claimed | null;
      try {
        file = await claimNext();
      } catch (error) {
        logger.error({ err: error }, "geometry job could not read pending files");
        return;
      }
      if (!file) return;
      try {
        await processFile(file, budget, workerFile, shutdown.signal);
      } catch (error) {
        // The database went away mid-file: the claim goes stale and the file is taken again.
        logger.error({ err: error, fileId: file.id }, "geometry job could not store a result");
        return;
      }
    }
  };

  function run(): void {
    if (stopped) return;
    if (inFlight) {
      nudged = true;
      return;
    }
    clearTimeout(timer);
    inFlight = runOnce().finally(() => {
      inFlight = undefined;
      if (nudged && !stopped) setImmediate(run);
      else if (!stopped) {
        timer = setTimeout(run, intervalMs);
        timer.unref();
      }
    });
  }

  const nudge = () => run();
  activeNudge = nudge;
  setImmediate(run);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      shutdown.abort();
      if (activeNudge === nudge) activeNudge = undefined;
      await inFlight;
    },
  };
}
