import { Worker } from "node:worker_threads";
import { logger } from "~/lib/logger.server";

// Jobs in worker threads under a budget (docs/decisions/0022, 0025, 0070): a V8 heap limit and a
// wall-clock limit per job. The thread answers each job with one message; whatever happens, the job's
// promise settles once. A thread that did not answer (out of time, out of memory, dead, aborted) is
// ended; one that answered may be kept for the next job (JobThread's `keep`), so a kernel it loaded
// (OpenCascade: about a second of CPU) is loaded once, not once per file. Heavy kernels never run on
// a request's thread.

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

/** How long a thread that answered stays for the next job, and for how many jobs at most. */
export interface KeepPolicy {
  /** Ended after this long without a job, ms (its memory goes back to the system). */
  idleMs: number;
  /** Ended after this many jobs (whatever a kernel leaks between jobs stays bounded). */
  maxJobs: number;
}

/** One job per thread: the thread ends with its answer. */
const ONE_JOB: KeepPolicy = { idleMs: 0, maxJobs: 1 };

/** Below a few dozen MB V8 cannot even create the thread's heap, and that failure ends the whole process. */
const MIN_OLD_GENERATION_MB = 64;

/**
 * Jobs for one worker module, one at a time, in one thread kept between jobs under `keep`. A job
 * asked for while another runs waits for it. `retire` on a job ends the thread after its answer (a
 * job that grew the thread's memory, which a WebAssembly heap never gives back).
 */
export class JobThread {
  private worker: Worker | undefined;
  private jobs = 0;
  /** Threads started so far: one for many jobs while each answers in time. */
  started = 0;
  private idleTimer: NodeJS.Timeout | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly workerFile: string,
    readonly maxOldGenerationMb: number,
    readonly keep: KeepPolicy = ONE_JOB,
  ) {}

  /** Posts `message` (transferring `transfer`) and resolves with the answer or why there is none. Never throws. */
  run<Answer>(message: unknown, transfer: ArrayBuffer[], options: { timeoutMs: number; signal?: AbortSignal; retire?: boolean }): Promise<ThreadOutcome<Answer>> {
    const outcome = this.queue.then(() => this.runNow<Answer>(message, transfer, options));
    this.queue = outcome;
    return outcome;
  }

  /** True while a thread is kept (between jobs, or in one). */
  get alive(): boolean {
    return this.worker !== undefined;
  }

  /** Ends the kept thread, if any (server shutdown). */
  async close(): Promise<void> {
    await this.end();
  }

  private start(): Worker | undefined {
    try {
      const worker = new Worker(this.workerFile, { resourceLimits: { maxOldGenerationSizeMb: Math.max(MIN_OLD_GENERATION_MB, this.maxOldGenerationMb) }, stdout: true, stderr: true });
      // A kept thread that fails between jobs is simply gone; the next job starts another.
      worker.on("error", () => {});
      worker.once("exit", () => {
        if (this.worker === worker) this.forget();
      });
      this.worker = worker;
      this.started += 1;
      return worker;
    } catch (error) {
      logger.error({ err: error, workerFile: this.workerFile }, "could not start a worker thread");
      return undefined;
    }
  }

  private forget(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    this.worker = undefined;
    this.jobs = 0;
  }

  private async end(): Promise<void> {
    const worker = this.worker;
    this.forget();
    if (worker) await worker.terminate();
  }

  private runNow<Answer>(message: unknown, transfer: ArrayBuffer[], options: { timeoutMs: number; signal?: AbortSignal; retire?: boolean }): Promise<ThreadOutcome<Answer>> {
    const { signal } = options;
    if (signal?.aborted) return Promise.resolve({ status: "aborted" });
    clearTimeout(this.idleTimer);
    const worker = this.worker ?? this.start();
    if (!worker) return Promise.resolve({ status: "failed" });
    worker.ref();
    return new Promise((resolve) => {
      let settled = false;
      const finish = (outcome: ThreadOutcome<Answer>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener("abort", abort);
        worker.off("message", onMessage);
        worker.off("error", onError);
        worker.off("exit", onExit);
        this.jobs += 1;
        // Only a thread that answered is known to be in a state to take the next job.
        if (outcome.status !== "answered" || options.retire || this.jobs >= this.keep.maxJobs) void this.end();
        else this.rest(worker);
        resolve(outcome);
      };
      const onMessage = (answer: Answer) => finish({ status: "answered", answer });
      const onError = (error: Error & { code?: string }) => {
        const memory = error.code === "ERR_WORKER_OUT_OF_MEMORY" || /memory/i.test(error.message);
        if (!memory) logger.warn({ err: error, workerFile: this.workerFile }, "worker thread failed");
        finish({ status: memory ? "out-of-memory" : "failed" });
      };
      const onExit = () => finish({ status: "failed" });
      const abort = () => finish({ status: "aborted" });
      const timer = setTimeout(() => finish({ status: "timeout" }), options.timeoutMs);
      signal?.addEventListener("abort", abort);
      worker.on("message", onMessage);
      worker.on("error", onError);
      worker.on("exit", onExit);
      worker.postMessage(message, transfer);
    });
  }

  /** Between jobs: the thread does not keep the process alive, and ends after `idleMs` without a job. */
  private rest(worker: Worker): void {
    worker.unref();
    this.idleTimer = setTimeout(() => void this.end(), this.keep.idleMs);
    this.idleTimer.unref();
  }
}

/**
 * Starts `workerFile`, posts `message` (transferring `transfer`), and resolves with its first answer
 * or with why there is none; the thread is gone afterwards. `signal` ends the thread at once (server
 * shutdown). Never throws.
 */
export function runInThread<Answer>(workerFile: string, message: unknown, transfer: ArrayBuffer[], budget: ThreadBudget, signal?: AbortSignal): Promise<ThreadOutcome<Answer>> {
  return new JobThread(workerFile, budget.maxOldGenerationMb).run<Answer>(message, transfer, { timeoutMs: budget.timeoutMs, signal });
}

/**
 * The thread kept for `workerFile` under `maxOldGenerationMb` in `threads` (one per module and heap
 * limit: a job with another limit needs a thread created with it), created on first use.
 */
export function keptThread(threads: Map<string, JobThread>, workerFile: string, maxOldGenerationMb: number, keep: KeepPolicy): JobThread {
  const key = `${maxOldGenerationMb}:${workerFile}`;
  let thread = threads.get(key);
  if (!thread) {
    thread = new JobThread(workerFile, maxOldGenerationMb, keep);
    threads.set(key, thread);
  }
  return thread;
}

/** Bytes copied into an ArrayBuffer of their own, ready to transfer (a small Buffer lives in Node's shared pool). */
export function transferableCopy(bytes: Uint8Array): ArrayBuffer {
  return new Uint8Array(bytes).buffer;
}
