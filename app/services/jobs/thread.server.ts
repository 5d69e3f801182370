import { Worker } from "node:worker_threads";
import { logger } from "~/lib/logger.server";

// One job in a fresh worker thread under a budget (docs/decisions/0022, 0025): a V8 heap limit and a
// wall-clock limit. The thread answers with one message; whatever happens, the promise settles once
// and the thread is gone afterwards. Heavy kernels (OpenCascade) never run on a request's thread.

export interface ThreadBudget {
  /** Wall-clock limit, ms; the thread is terminated when it runs out. */
  timeoutMs: number;
  /** V8 old-generation limit of the thread, MB (a WebAssembly heap is bounded by the kernel itself). */
  maxOldGenerationMb: number;
}

export type ThreadOutcome<Answer> =
  | { status: "answered"; answer: Answer }
  | { status: "timeout" }
  | { status: "out-of-memory" }
  | { status: "failed" }
  | { status: "aborted" };

/** Below a few dozen MB V8 cannot even create the thread's heap, and that failure ends the whole process. */
const MIN_OLD_GENERATION_MB = 64;

/**
 * Starts `workerFile`, posts `message` (transferring `transfer`), and resolves with its first answer
 * or with why there is none. `signal` ends the thread at once (server shutdown). Never throws.
 */
export function runInThread<Answer>(workerFile: string, message: unknown, transfer: ArrayBuffer[], budget: ThreadBudget, signal?: AbortSignal): Promise<ThreadOutcome<Answer>> {
  return new Promise((resolve) => {
    let settled = false;
    let worker: Worker;
    try {
      worker = new Worker(workerFile, { resourceLimits: { maxOldGenerationSizeMb: Math.max(MIN_OLD_GENERATION_MB, budget.maxOldGenerationMb) }, stdout: true, stderr: true });
    } catch (error) {
      logger.error({ err: error, workerFile }, "could not start a worker thread");
      resolve({ status: "failed" });
      return;
    }
    const finish = (outcome: ThreadOutcome<Answer>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", abort);
      void worker.terminate();
      resolve(outcome);
    };
    const timer = setTimeout(() => finish({ status: "timeout" }), budget.timeoutMs);
    const abort = () => finish({ status: "aborted" });
    if (signal?.aborted) return abort();
    signal?.addEventListener("abort", abort);
    worker.on("message", (answer: Answer) => finish({ status: "answered", answer }));
    worker.on("error", (error: Error & { code?: string }) => {
      const memory = error.code === "ERR_WORKER_OUT_OF_MEMORY" || /memory/i.test(error.message);
      if (!memory) logger.warn({ err: error, workerFile }, "worker thread failed");
      finish({ status: memory ? "out-of-memory" : "failed" });
    });
    worker.on("exit", () => finish({ status: "failed" }));
    worker.postMessage(message, transfer);
  });
}

/** Bytes copied into an ArrayBuffer of their own, ready to transfer (a small Buffer lives in Node's shared pool). */
export function transferableCopy(bytes: Uint8Array): ArrayBuffer {
  return new Uint8Array(bytes).buffer;
}
