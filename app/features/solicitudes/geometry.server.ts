import fs from "node:fs";
import path from "node:path";
import { and, asc, eq, inArray, lt, or, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { solicitudFiles, type SolicitudFileGeometry, type SolicitudFileGeometryStatus } from "~/db/schema/solicitudes";
import { logger } from "~/lib/logger.server";
import { sha256OfBytes, sha256OfStream } from "~/services/files/checksum.server";
import { getFileStore } from "~/services/files/file-store.server";
import { startPoller, type Poller } from "~/services/jobs/poller.server";
import { compiledCadKernel } from "~/services/jobs/cad-kernel-module.server";
import { KeptThreads, transferableCopy, type JobThread } from "~/services/jobs/thread.server";
import type { GeometryFormat, GeometryThreadRequest, GeometryThreadResponse } from "./geometry-protocol";

// Server-side geometry of CAD attachments (docs/decisions/0022). A solicitud is stored first, its
// files `pending`; a background job takes them one at a time and measures each in a worker thread
// with a memory limit and a time limit, never on a request's thread. The thread runs at
// background priority and is kept between files (docs/decisions/0070): OpenCascade loads once, not
// once per file. Whatever happens, the row ends with figures or with the Spanish reason staff see.
// It also records each new file's sha256 (docs/decisions/0080), hashed on the server's thread a
// MiB at a time between turns of its event loop, after the burst of requests that brought them.

export interface GeometryBudget {
  /**
   * Time limit per file, ms (the thread's CPU time; see ThreadBudget): `timeoutMs` plus
   * `timeoutMsPerMb` for each MB of the file, at most `maxTimeoutMs`; the thread is terminated when
   * it runs out.
   */
  timeoutMs: number;
  timeoutMsPerMb: number;
  maxTimeoutMs: number;
  /** V8 old-generation limit of the thread, MB (the WebAssembly heap is bounded by the kernel itself). */
  maxOldGenerationMb: number;
  /** Files larger than this are not read at all, bytes. */
  maxBytes: number;
}

// Staff would rather wait two minutes for a big assembly than see no figures: 30 s, plus 2 s per MB
// (a 50 MB STEP gets 130 s; measured 0022), never more than 3 minutes.
export const DEFAULT_GEOMETRY_BUDGET: GeometryBudget = {
  timeoutMs: 30_000,
  timeoutMsPerMb: 2_000,
  maxTimeoutMs: 180_000,
  maxOldGenerationMb: 512,
  maxBytes: 100 * 1024 * 1024,
};

/** The time limit for a file of `bytes` under `budget`, ms. */
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
 * How long the geometry thread waits for the next file (uploads come in bursts: a solicitud with
 * several files, several solicitudes in a morning) and how many it measures before a fresh one.
 */
const geometryThreads = new KeptThreads({ idleMs: 60_000, maxJobs: 100 });
/**
 * A file larger than this grows the kernel's WebAssembly memory, which is never given back: the
 * thread that read it ends after its answer.
 */
export const GEOMETRY_RETIRE_BYTES = 20 * 1024 * 1024;

/** The kept geometry thread for `workerFile` and `budget`'s heap limit (tests look at it). */
export function geometryThread(workerFile = geometryWorkerFile(), budget: GeometryBudget = DEFAULT_GEOMETRY_BUDGET): JobThread {
  return geometryThreads.for(workerFile, budget.maxOldGenerationMb);
}

/** Ends every kept geometry thread (server shutdown, the end of a test). */
export function closeGeometryThreads(): Promise<void> {
  return geometryThreads.close();
}

/**
 * Measures one file in the kept geometry thread under `budget`. A thread that runs out of time is
 * terminated; one that runs out of memory dies alone; either way the next file gets a fresh one.
 * Never throws.
 */
export async function measureInWorker(
  format: GeometryFormat,
  bytes: Uint8Array,
  budget: GeometryBudget = DEFAULT_GEOMETRY_BUDGET,
  workerFile = geometryWorkerFile(),
  signal?: AbortSignal,
): Promise<GeometryOutcome | { status: "aborted" }> {
  const timeoutMs = geometryTimeoutMs(budget, bytes.length);
  const kernel = format === "step" ? await compiledCadKernel() : undefined;
  const outcome = await geometryThread(workerFile, budget).run<GeometryThreadResponse>(
    () => {
      // A copy goes to the thread (transferred, so it is not held twice): see transferableCopy.
      const copy = transferableCopy(bytes);
      return { message: { format, bytes: copy, kernel } satisfies GeometryThreadRequest, transfer: [copy] };
    },
    // A kernel that could not read a file may be left unfit for the next one: a fresh thread then,
    // unless the thread checked that its kernel still works (kernelFit).
    { timeoutMs, signal, retire: bytes.length > GEOMETRY_RETIRE_BYTES, retireAfter: (answer) => !answer.ok && !answer.kernelFit },
  );
  switch (outcome.status) {
    case "answered": {
      const answer = outcome.answer;
      return answer.ok ? { status: "ok", figures: { ...answer.figures, unit: answer.unit, elapsedMs: answer.elapsedMs } } : { status: "unreadable", reason: answer.reason };
    }
    case "aborted":
      // The server is shutting down: the file is measured after the restart.
      return { status: "aborted" };
    case "timeout":
      return { status: "over-budget", reason: `El archivo excede el tiempo de cálculo (${seconds(timeoutMs)} s).` };
    case "out-of-memory":
      return { status: "over-budget", reason: `El archivo excede la memoria de cálculo (${budget.maxOldGenerationMb} MB).` };
    case "failed":
      return { status: "unreadable", reason: UNREADABLE };
  }
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
  sha256: string | null;
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
    .returning({ id: solicitudFiles.id, kind: solicitudFiles.kind, storagePath: solicitudFiles.storagePath, size: solicitudFiles.size, attempts: solicitudFiles.geometryAttempts, sha256: solicitudFiles.sha256 });
  return row ?? null;
}

/**
 * The outcome for the row, with the file's sha256 when one was taken (0080: a new request's files
 * get theirs here, once the burst that brought them is over; a file that had one is not hashed).
 */
async function settle(file: Claimed, status: Exclude<SolicitudFileGeometryStatus, "pending" | "computing">, figures: SolicitudFileGeometry | null, reason: string | null, sha256: string | null = null): Promise<void> {
  await getDb()
    .update(solicitudFiles)
    .set({ geometryStatus: status, geometry: figures, geometryReason: reason, geometryComputedAt: new Date(), geometryClaimedAt: null, ...(sha256 ? { sha256 } : {}) })
    .where(eq(solicitudFiles.id, file.id));
}

/**
 * The stored file's sha256, read as a stream (any size, no more than a chunk in memory); null when
 * it is not in the store or cannot be read (logged: the file settles all the same, without one).
 */
async function storedSha256(file: Claimed): Promise<string | null> {
  try {
    const stored = await getFileStore().open(file.storagePath);
    return stored ? await sha256OfStream(stored.body) : null;
  } catch (error) {
    logger.warn({ err: error, fileId: file.id }, "could not read a solicitud file for its sha256");
    return null;
  }
}

/** Measures one claimed file and stores the outcome. */
async function processFile(file: Claimed, budget: GeometryBudget, workerFile: string, signal: AbortSignal): Promise<void> {
  const format = FORMAT_BY_KIND[file.kind];
  // A file that is not read for its figures is read for its sha256 alone (when it has none yet).
  const streamed = async () => (file.sha256 ? null : storedSha256(file));
  if (!format) return settle(file, "not-cad", null, "Este archivo no es un modelo 3D que podamos medir (STEP, IGES, STL, 3MF u OBJ): no tiene cálculo de volumen.", await streamed());
  if (file.attempts > MAX_ATTEMPTS) return settle(file, "unreadable", null, `${UNREADABLE} El cálculo se interrumpió varias veces.`, await streamed());
  if (file.size > budget.maxBytes) {
    const mb = new Intl.NumberFormat("es-MX", { maximumFractionDigits: 0 }).format(budget.maxBytes / 1024 / 1024);
    return settle(file, "over-budget", null, `El archivo excede el tamaño máximo de cálculo (${mb} MB).`, await streamed());
  }
  const bytes = await getFileStore().readBytes(file.storagePath, budget.maxBytes);
  if (!bytes) return settle(file, "unreadable", null, `${UNREADABLE} El archivo no está en el almacén.`);
  const sha256 = file.sha256 ? null : await sha256OfBytes(bytes);
  const outcome = await measureInWorker(format, bytes, budget, workerFile, signal);
  if (outcome.status === "aborted") {
    await getDb()
      .update(solicitudFiles)
      .set({ geometryStatus: "pending", geometryClaimedAt: null, geometryAttempts: sql`${solicitudFiles.geometryAttempts} - 1` })
      .where(eq(solicitudFiles.id, file.id));
    return;
  }
  if (outcome.status === "ok") await settle(file, "ok", outcome.figures, null, sha256);
  else await settle(file, outcome.status, null, outcome.reason, sha256);
  logger.info({ fileId: file.id, status: outcome.status, bytes: bytes.length }, "solicitud file geometry");
}

export interface GeometryJobOptions {
  intervalMs?: number;
  budget?: GeometryBudget;
  workerFile?: string;
}

export type GeometryJob = Poller;

let active: Poller | undefined;

/** Wakes the geometry job now (after a solicitud with files is committed); no-op when it is not running. */
export function nudgeGeometryJob(): void {
  active?.nudge();
}

/**
 * The background job: one file at a time (one worker thread alive at most, kept between files),
 * polling for pending files every `intervalMs` and woken at once by nudgeGeometryJob. Rows survive a
 * crash: a file left `computing` is taken again once its claim is stale.
 */
export function startGeometryJob(options: GeometryJobOptions = {}): GeometryJob {
  const intervalMs = options.intervalMs ?? 10_000;
  const budget = options.budget ?? DEFAULT_GEOMETRY_BUDGET;
  const workerFile = options.workerFile ?? geometryWorkerFile();
  if (!fs.existsSync(workerFile)) logger.warn({ workerFile }, "geometry worker bundle missing: run npm run build");
  const poller = startPoller("solicitud-geometry", intervalMs, async (signal) => {
    const file = await claimNext();
    if (!file) return false;
    try {
      await processFile(file, budget, workerFile, signal);
    } catch (error) {
      // The database went away mid-file: the claim goes stale and the file is taken again.
      logger.error({ err: error, fileId: file.id }, "geometry job could not store a result");
      return false;
    }
    return !signal.aborted;
  });
  active = poller;
  return {
    nudge: poller.nudge,
    async stop() {
      if (active === poller) active = undefined;
      await poller.stop();
      await closeGeometryThreads();
    },
  };
}
