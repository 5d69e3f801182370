import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { BACKGROUND_NICE, systemThreadId } from "./background-priority";
import { writeRequestStarted } from "./foreground.server";
import { startPoller } from "./poller.server";
import { JobThread, type ThreadBudget, type ThreadOutcome } from "./thread.server";

// The background jobs' shared parts: a real worker thread that answers, hangs, dies, allocates
// without end or is aborted; a thread kept between jobs; and the poller's loop (drain, sleep, nudge,
// stop).

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "forja-jobs-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function worker(name: string, body: string): string {
  const file = path.join(dir, `${name}.mjs`);
  fs.writeFileSync(file, `import { parentPort } from "node:worker_threads";\nparentPort.on("message", (message) => {\n${body}\n});\n`);
  return file;
}

const budget = { timeoutMs: 5_000, maxOldGenerationMb: 64 };

/** One job in a thread of its own (JobThread's default: the thread ends with its answer). */
function runInThread<Answer>(workerFile: string, message: unknown, transfer: ArrayBuffer[], limits: ThreadBudget, signal?: AbortSignal): Promise<ThreadOutcome<Answer>> {
  return new JobThread(workerFile, limits.maxOldGenerationMb).run<Answer>(() => ({ message, transfer }), { timeoutMs: limits.timeoutMs, signal });
}

describe("JobThread, one job per thread", () => {
  it("answers with the thread's message, the transferred bytes intact", async () => {
    const file = worker("answer", "parentPort.postMessage({ sum: new Uint8Array(message.bytes).reduce((a, b) => a + b, 0) });");
    const bytes = new Uint8Array([1, 2, 3, 4]).buffer;
    expect(await runInThread(file, { bytes }, [bytes], budget)).toEqual({ status: "answered", answer: { sum: 10 } });
  });

  it("ends a thread that runs out of time, of memory, or dies, and says which", async () => {
    expect(await runInThread(worker("hang", "for (;;) {}"), {}, [], { ...budget, timeoutMs: 300 })).toEqual({ status: "timeout" });
    expect(await runInThread(worker("grow", "const keep = []; for (;;) keep.push(new Array(1e5).fill(Math.random()));"), {}, [], budget)).toEqual({ status: "out-of-memory" });
    expect(await runInThread(worker("throw", "throw new Error('boom');"), {}, [], budget)).toEqual({ status: "failed" });
    expect(await runInThread(path.join(dir, "missing.mjs"), {}, [], budget)).toEqual({ status: "failed" });
  });

  it("is aborted at once when the server shuts down", async () => {
    const controller = new AbortController();
    const started = Date.now();
    const outcome = runInThread(worker("slow", "setTimeout(() => parentPort.postMessage('late'), 10_000);"), {}, [], budget, controller.signal);
    setTimeout(() => controller.abort(), 100);
    expect(await outcome).toEqual({ status: "aborted" });
    expect(Date.now() - started).toBeLessThan(4_000);
  });
});

describe("JobThread", () => {
  // Each answer says how many jobs this thread has taken: 1 again means a fresh thread.
  const counting = () =>
    worker(
      "counting",
      "globalThis.jobs = (globalThis.jobs ?? 0) + 1; if (message === 'hang') for (;;) {} if (message === 'wait') return void setTimeout(() => parentPort.postMessage(globalThis.jobs), 700); if (message === 'long wait') return void setTimeout(() => parentPort.postMessage(globalThis.jobs), 5_000); parentPort.postMessage(globalThis.jobs);",
    );
  const run = (thread: JobThread, message: unknown = "job", options: { timeoutMs?: number; retire?: boolean; retireAfter?: (answer: number) => boolean } = {}) =>
    thread.run<number>(() => ({ message, transfer: [] }), { timeoutMs: options.timeoutMs ?? 5_000, retire: options.retire, retireAfter: options.retireAfter });
  const answered = (answer: number) => ({ status: "answered", answer });

  it("keeps the thread for the next job, up to maxJobs, and ends it when idle", async () => {
    const thread = new JobThread(counting(), 64, { idleMs: 400, maxJobs: 3 });
    const answers = [await run(thread), await run(thread), await run(thread), await run(thread)];
    expect(answers).toEqual([1, 2, 3, 1].map(answered));
    expect(thread.started).toBe(2);
    expect(thread.alive).toBe(true);
    await expect.poll(() => thread.alive, { timeout: 3_000 }).toBe(false);
    expect(await run(thread)).toEqual(answered(1));
    expect(thread.started).toBe(3);
    await thread.close();
    expect(thread.alive).toBe(false);
  });

  it("gives the job after a timeout, a retiring job or an answer it retires after a fresh thread", async () => {
    const thread = new JobThread(counting(), 64, { idleMs: 60_000, maxJobs: 100 });
    expect(await run(thread)).toEqual(answered(1));
    expect(await run(thread, "hang", { timeoutMs: 300 })).toEqual({ status: "timeout" });
    expect(await run(thread)).toEqual(answered(1));
    expect(await run(thread, "job", { retire: true })).toEqual(answered(2));
    expect(thread.alive).toBe(false);
    expect(await run(thread)).toEqual(answered(1));
    expect(await run(thread, "job", { retireAfter: (answer) => answer === 3 })).toEqual(answered(2));
    expect(thread.alive).toBe(true);
    expect(await run(thread, "job", { retireAfter: (answer) => answer === 3 })).toEqual(answered(3));
    expect(thread.alive).toBe(false);
    expect(thread.started).toBe(3);
    await thread.close();
  });

  it("counts the thread's CPU time, not its wait, up to four times the limit in wall-clock time", async () => {
    const thread = new JobThread(counting(), 64, { idleMs: 60_000, maxJobs: 100 });
    // Waiting 700 ms uses almost no CPU: within a 300 ms limit. Waiting 5 s is past 4 × 300 ms.
    expect(await run(thread, "wait", { timeoutMs: 300 })).toEqual(answered(1));
    const started = Date.now();
    expect(await run(thread, "long wait", { timeoutMs: 300 })).toEqual({ status: "timeout" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(4 * 300);
    expect(Date.now() - started).toBeLessThan(4_000);
    await thread.close();
  });

  it("runs jobs asked for at once one after another, each with its own answer", async () => {
    const thread = new JobThread(counting(), 64, { idleMs: 60_000, maxJobs: 100 });
    const answers = await Promise.all([run(thread), run(thread), run(thread)]);
    expect(answers).toEqual([1, 2, 3].map(answered));
    expect(thread.started).toBe(1);
    await thread.close();
  });

  it("starts again after its kept thread dies between jobs", async () => {
    const file = worker("dies-later", "parentPort.postMessage('done'); setTimeout(() => process.exit(1), 50);");
    const thread = new JobThread(file, 64, { idleMs: 60_000, maxJobs: 100 });
    const job = () => ({ message: {}, transfer: [] });
    expect(await thread.run<string>(job, { timeoutMs: 5_000 })).toEqual({ status: "answered", answer: "done" });
    await expect.poll(() => thread.alive, { timeout: 3_000 }).toBe(false);
    expect(await thread.run<string>(job, { timeoutMs: 5_000 })).toEqual({ status: "answered", answer: "done" });
    expect(thread.started).toBe(2);
    await thread.close();
  });

  it("tries a job that failed in a reused thread once more, in a fresh one, with the job made anew", async () => {
    // A thread that fails on its second job, whatever the job: the job is not to blame.
    const file = worker("fails-second", "globalThis.jobs = (globalThis.jobs ?? 0) + 1; if (globalThis.jobs === 2) throw new Error('roto'); parentPort.postMessage(new Uint8Array(message.bytes).length);");
    const thread = new JobThread(file, 64, { idleMs: 60_000, maxJobs: 100 });
    let made = 0;
    const job = () => {
      made += 1;
      const bytes = new Uint8Array([1, 2, 3]).buffer;
      return { message: { bytes }, transfer: [bytes] };
    };
    const [first, second] = await Promise.all([thread.run<number>(job, { timeoutMs: 5_000 }), thread.run<number>(job, { timeoutMs: 5_000 })]);
    expect([first, second]).toEqual([answered(3), answered(3)]);
    expect(made).toBe(3);
    expect(thread.started).toBe(2);
    await thread.close();
  });

  it("fails only the job whose message cannot be sent, and ends a job in progress as aborted when closed", async () => {
    const thread = new JobThread(counting(), 64, { idleMs: 60_000, maxJobs: 100 });
    expect(await thread.run<number>(() => ({ message: () => "no se puede copiar", transfer: [] }), { timeoutMs: 5_000 })).toEqual({ status: "failed" });
    expect(await run(thread)).toEqual(answered(1));
    const waiting = run(thread, "long wait");
    await new Promise((resolve) => setTimeout(resolve, 100));
    await thread.close();
    expect(await waiting).toEqual({ status: "aborted" });
    expect(thread.alive).toBe(false);
  });
});

/** Field 19 of a thread's stat is its nice value, the 17th after the command in parentheses. */
const NICE_OF_STAT = `(stat) => Number(stat.split(") ")[1].split(" ")[16])`;

describe("runAtBackgroundPriority", () => {
  // Under `nice` (10 or more) there is nothing lower to go to: the helper leaves the value alone.
  const perThread = systemThreadId() !== null && os.getPriority() < BACKGROUND_NICE;
  const helper = pathToFileURL(path.resolve("app/services/jobs/background-priority.ts")).href;

  it.runIf(perThread)("lowers the calling thread's priority only, not the process's other threads", async () => {
    const file = path.join(dir, "nice.mjs");
    fs.writeFileSync(
      file,
      `import fs from "node:fs";\nimport { parentPort } from "node:worker_threads";\nimport { runAtBackgroundPriority, systemThreadId } from ${JSON.stringify(helper)};\n` +
        `const lowered = runAtBackgroundPriority();\n` +
        `const nice = (${NICE_OF_STAT})(fs.readFileSync("/proc/thread-self/stat", "utf8"));\n` +
        `parentPort.postMessage({ lowered, nice, id: systemThreadId() });\n`,
    );
    const before = os.getPriority();
    const outcome = await runInThread<{ lowered: boolean; nice: number; id: number }>(file, {}, [], budget);
    expect(outcome).toMatchObject({ status: "answered", answer: { lowered: true, nice: BACKGROUND_NICE } });
    expect(outcome.status === "answered" && outcome.answer.id).not.toBe(systemThreadId());
    expect(os.getPriority()).toBe(before);
  });

  it.runIf(perThread)("leaves libuv's pool at normal priority when a lowered thread is the first to use it", () => {
    // A fresh process whose main thread never used the pool: the worker lowers itself, then reads a
    // file asynchronously (the pool's first job), and the process counts its threads at nice 10.
    // The worker stays until the process exits: one that ended first would not be counted.
    const script = `
      import fs from "node:fs";
      import { Worker } from "node:worker_threads";
      const code = ${JSON.stringify(`import fs from "node:fs"; import { parentPort } from "node:worker_threads"; import { runAtBackgroundPriority } from ${JSON.stringify(helper)}; runAtBackgroundPriority(); await fs.promises.stat("."); parentPort.postMessage("listo"); setInterval(() => {}, 60_000);`)};
      const worker = new Worker(new URL("data:text/javascript," + encodeURIComponent(code)));
      worker.once("message", () => {
        const nice = ${NICE_OF_STAT};
        const lowered = fs.readdirSync("/proc/self/task").filter((task) => nice(fs.readFileSync("/proc/self/task/" + task + "/stat", "utf8")) === ${BACKGROUND_NICE});
        console.log(lowered.length);
        process.exit(0);
      });`;
    const output = execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", timeout: 30_000 });
    expect(Number(output.trim())).toBe(1);
  });
});

describe("startPoller", () => {
  it("drains the work, sleeps, wakes when nudged, and stop waits for the step in flight", async () => {
    let work = 3;
    const done: number[] = [];
    let release: () => void = () => {};
    const poller = startPoller("test", 60_000, async () => {
      if (work === 0) return false;
      if (work === 1) await new Promise<void>((resolve) => (release = resolve));
      done.push(work);
      work -= 1;
      return true;
    });
    await expect.poll(() => done.length).toBe(2);
    // The third unit is in flight; stop waits for it.
    const stopped = poller.stop();
    let finished = false;
    void stopped.then(() => (finished = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(finished).toBe(false);
    release();
    await stopped;
    expect(done).toEqual([3, 2, 1]);
  });

  it("runs again at once when nudged while asleep", async () => {
    let runs = 0;
    const poller = startPoller("test", 60_000, async () => {
      runs += 1;
      return false;
    });
    await expect.poll(() => runs).toBe(1);
    poller.nudge();
    await expect.poll(() => runs).toBe(2);
    await poller.stop();
  });

  it("waits with its next step while a write request is in flight, and takes it once the write ends", async () => {
    const ended = writeRequestStarted();
    let runs = 0;
    const poller = startPoller("test", 60_000, async () => {
      runs += 1;
      return false;
    });
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(runs).toBe(0);
      ended();
      await expect.poll(() => runs).toBe(1);
    } finally {
      ended();
      await poller.stop();
    }
  });

  it("takes its step after two seconds at most when writes never stop, and stop does not wait for them", async () => {
    const ended = writeRequestStarted();
    let runs = 0;
    const started = Date.now();
    const poller = startPoller("test", 60_000, async () => {
      runs += 1;
      return false;
    });
    try {
      await expect.poll(() => runs, { timeout: 5_000 }).toBe(1);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
      // Nudged while the write still runs: the step waits again, and stop ends that wait at once.
      poller.nudge();
      const stopping = Date.now();
      await poller.stop();
      expect(Date.now() - stopping).toBeLessThan(1_000);
      expect(runs).toBe(1);
    } finally {
      ended();
    }
  });
});
