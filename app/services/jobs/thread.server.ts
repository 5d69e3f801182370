import { Worker } from "node:worker_threads";
import { logger } from "~/lib/logger.server";

// Jobs in worker threads under a budget (docs/decisions/0022, 0025, 0070): a V8 heap limit and a
// time limit per job. The thread answers each job with one message; whatever happens, the job's
// promise settles once. A thread that did not answer (out of time, out of memory, dead, aborted) is
// ended; one that answered may be kept for the next job (JobThread's `keep`), so a kernel it loaded
// (OpenCascade: about a second of CPU) is loaded once, not once per file. Heavy kernels never run on
// a request's thread.

export interface ThreadBudget {
  /**
   * Time limit, ms: the thread's own CPU time, so a thread at background priority waiting for the
   * processor is not cut short by a busy machine; never more than WALL_CLOCK_FACTOR times this in
   * wall-clock time. The thread is terminated when it runs out.
   */
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

/** A job: its message and what it transfers, made anew for each attempt (a transferred buffer is gone). */
export type ThreadJob = () => { message: unknown; transfer: ArrayBuffer[] };

export interface JobOptions<Answer> {
  timeoutMs: number;
  signal?: AbortSignal;
  /** Ends the thread after this job's answer (a job that grew memory a WebAssembly heap never gives back). */
  retire?: boolean;
  /** Ends the thread after an answer for which this is true (a kernel that failed may be left unfit). */
  retireAfter?: (answer: Answer) => boolean;
}

/** One job per thread (the default): the thread ends with its answer. */
const ONE_JOB: KeepPolicy = { idleMs: 0, maxJobs: 1 };

/** A job may wait for the processor this many times its time limit in wall-clock time, not longer. */
export const WALL_CLOCK_FACTOR = 4;

/** Below a few dozen MB V8 cannot even create the thread's heap, and that failure ends the whole process. */
const MIN_OLD_GENERATION_MB = 64;

/** The worker thread's CPU time so far, ms; null when it cannot be read (not running yet, or gone). */
async function cpuMs(worker: Worker): Promise<number | null> {
  try {
    const usage = await worker.cpuUsage();
    return (usage.user + usage.system) / 1000;
  } catch {
    return null;
  }
}

/**
 * Jobs for one worker module, one at a time, in one thread kept between jobs under `keep`. A job
 * asked for while another runs waits for it. A job that fails or runs out of memory in a thread that
 * had already run others is tried once more in a fresh thread: the thread, not the job, may be what
 * failed (it died between jobs, or its heap was filled by the jobs before).
 */
export class JobThread {
  private worker: Worker | undefined;
  private jobs = 0;
  private idleTimer: NodeJS.Timeout | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  /** Ends the job in progress, if any (close). */
  private interrupt: (() => void) | undefined;
  /** The termination in progress, if any (close waits for it). */
  private ending: Promise<unknown> = Promise.resolve();
  /** Threads started so far: one for many jobs while each answers in time. */
  started = 0;

  constructor(
    readonly workerFile: string,
    readonly maxOldGenerationMb: number,
    readonly keep: KeepPolicy = ONE_JOB,
  ) {}

  /** Runs `job` and resolves with the answer or why there is none. Never throws. */
  run<Answer>(job: ThreadJob, options: JobOptions<Answer>): Promise<ThreadOutcome<Answer>> {
    const outcome = this.queue.then(() => this.runWithRetry<Answer>(job, options));
    this.queue = outcome.catch(() => {});
    return outcome;
  }

  /** True while a thread is kept (between jobs, or in one). */
  get alive(): boolean {
    return this.worker !== undefined;
  }

  /** Ends the kept thread, if any (server shutdown); a job in progress ends as aborted. */
  async close(): Promise<void> {
    this.interrupt?.();
    this.end();
    await this.ending;
  }

  private async runWithRetry<Answer>(job: ThreadJob, options: JobOptions<Answer>): Promise<ThreadOutcome<Answer>> {
    const reused = this.worker !== undefined && this.jobs > 0;
    const outcome = await this.runNow<Answer>(job, options);
    if (reused && (outcome.status === "failed" || outcome.status === "out-of-memory")) return this.runNow<Answer>(job, options);
    return outcome;
  }

  private start(): Worker | undefined {
    try {
      const worker = new Worker(this.workerFile, { resourceLimits: { maxOldGenerationSizeMb: Math.max(MIN_OLD_GENERATION_MB, this.maxOldGenerationMb) }, stdout: true, stderr: true });
      // Whatever a kernel prints is read and dropped, so it does not pile up in a kept thread.
      worker.stdout.resume();
      worker.stderr.resume();
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

  private end(): void {
    const worker = this.worker;
    this.forget();
    if (worker) this.ending = Promise.all([this.ending, worker.terminate()]);
  }

  private runNow<Answer>(job: ThreadJob, options: JobOptions<Answer>): Promise<ThreadOutcome<Answer>> {
    const { signal } = options;
    if (signal?.aborted) return Promise.resolve({ status: "aborted" });
    clearTimeout(this.idleTimer);
    const worker = this.worker ?? this.start();
    if (!worker) return Promise.resolve({ status: "failed" });
    worker.ref();
    return new Promise((resolve) => {
      let settled = false;
      const started = Date.now();
      const cpuAtStart = cpuMs(worker);
      const finish = (outcome: ThreadOutcome<Answer>) => {
        if (settled) return;
        settled = true;
        this.interrupt = undefined;
        clearTimeout(timer);
        signal?.removeEventListener("abort", abort);
        worker.off("message", onMessage);
        worker.off("error", onError);
        worker.off("exit", onExit);
        if (this.worker === worker) {
          this.jobs += 1;
          // Only a thread that answered is known to be in a state to take the next job.
          const keep = outcome.status === "answered" && !options.retire && !options.retireAfter?.(outcome.answer) && this.jobs < this.keep.maxJobs;
          if (keep) this.rest(worker);
          else this.end();
        }
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
      // The limit counts the thread's CPU time: a thread that waited for the processor gets the rest
      // of its time, up to WALL_CLOCK_FACTOR times the limit in wall-clock time.
      const check = async () => {
        const [before, now] = await Promise.all([cpuAtStart, cpuMs(worker)]);
        if (settled) return;
        // A thread not yet running when the job began (a fresh one) spent all of its time on the job.
        const used = now === null ? options.timeoutMs : now - (before ?? 0);
        const left = Math.min(options.timeoutMs - used, started + options.timeoutMs * WALL_CLOCK_FACTOR - Date.now());
        if (left <= 0) finish({ status: "timeout" });
        else timer = setTimeout(() => void check(), Math.max(left, 10));
      };
      let timer = setTimeout(() => void check(), options.timeoutMs);
      this.interrupt = abort;
      signal?.addEventListener("abort", abort);
      worker.on("message", onMessage);
      worker.on("error", onError);
      worker.on("exit", onExit);
      try {
        const { message, transfer } = job();
        worker.postMessage(message, transfer);
      } catch (error) {
        logger.warn({ err: error, workerFile: this.workerFile }, "could not send a job to a worker thread");
        finish({ status: "failed" });
      }
    });
  }

  /** Between jobs: the thread does not keep the process alive, and ends after `idleMs` without a job. */
  private rest(worker: Worker): void {
    worker.unref();
    this.idleTimer = setTimeout(() => this.end(), this.keep.idleMs);
    this.idleTimer.unref();
  }
}

/**
 * A job's kept threads under one policy: one per worker module and heap limit (a job with another
 * limit needs a thread created with it), each created on first use.
 */
export class KeptThreads {
  private readonly threads = new Map<string, JobThread>();

  constructor(readonly keep: KeepPolicy) {}

  for(workerFile: string, maxOldGenerationMb: number): JobThread {
    const key = `${maxOldGenerationMb}:${workerFile}`;
    let thread = this.threads.get(key);
    if (!thread) {
      thread = new JobThread(workerFile, maxOldGenerationMb, this.keep);
      this.threads.set(key, thread);
    }
    return thread;
  }

  /** Ends every one of them (the job stops, a test ends). */
  async close(): Promise<void> {
    await Promise.all([...this.threads.values()].map((thread) => thread.close()));
  }
}

/** Bytes copied into an ArrayBuffer of their own, ready to transfer (a small Buffer lives in Node's shared pool). */
export function transferableCopy(bytes: Uint8Array): ArrayBuffer {
  return new Uint8Array(bytes).buffer;
}
