import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { BACKGROUND_NICE, systemThreadId } from "./background-priority";
import { startPoller } from "./poller.server";
import { JobThread, runInThread } from "./thread.server";

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

describe("runInThread", () => {
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
  const counting = () => worker("counting", "globalThis.jobs = (globalThis.jobs ?? 0) + 1; if (message === 'hang') for (;;) {} parentPort.postMessage(globalThis.jobs);");
  const run = (thread: JobThread, message: unknown = "job", options: { timeoutMs?: number; retire?: boolean } = {}) =>
    thread.run<number>(message, [], { timeoutMs: options.timeoutMs ?? 5_000, retire: options.retire });

  it("keeps the thread for the next job, up to maxJobs, and ends it when idle", async () => {
    const thread = new JobThread(counting(), 64, { idleMs: 400, maxJobs: 3 });
    const answers = [await run(thread), await run(thread), await run(thread), await run(thread)];
    expect(answers).toEqual([1, 2, 3, 1].map((answer) => ({ status: "answered", answer })));
    expect(thread.started).toBe(2);
    expect(thread.alive).toBe(true);
    await expect.poll(() => thread.alive, { timeout: 3_000 }).toBe(false);
    expect(await run(thread)).toEqual({ status: "answered", answer: 1 });
    expect(thread.started).toBe(3);
    await thread.close();
    expect(thread.alive).toBe(false);
  });

  it("gives the job after a timeout, or after a retiring job, a fresh thread", async () => {
    const thread = new JobThread(counting(), 64, { idleMs: 60_000, maxJobs: 100 });
    expect(await run(thread)).toEqual({ status: "answered", answer: 1 });
    expect(await run(thread, "hang", { timeoutMs: 300 })).toEqual({ status: "timeout" });
    expect(await run(thread)).toEqual({ status: "answered", answer: 1 });
    expect(await run(thread, "job", { retire: true })).toEqual({ status: "answered", answer: 2 });
    expect(thread.alive).toBe(false);
    expect(await run(thread)).toEqual({ status: "answered", answer: 1 });
    expect(thread.started).toBe(3);
    await thread.close();
  });

  it("runs jobs asked for at once one after another, each with its own answer", async () => {
    const thread = new JobThread(counting(), 64, { idleMs: 60_000, maxJobs: 100 });
    const answers = await Promise.all([run(thread), run(thread), run(thread)]);
    expect(answers.map((outcome) => outcome.status === "answered" && outcome.answer)).toEqual([1, 2, 3]);
    expect(thread.started).toBe(1);
    await thread.close();
  });

  it("starts again after its kept thread dies between jobs", async () => {
    const file = worker("dies-later", "parentPort.postMessage('done'); setTimeout(() => process.exit(1), 50);");
    const thread = new JobThread(file, 64, { idleMs: 60_000, maxJobs: 100 });
    expect(await thread.run<string>({}, [], { timeoutMs: 5_000 })).toEqual({ status: "answered", answer: "done" });
    await expect.poll(() => thread.alive, { timeout: 3_000 }).toBe(false);
    expect(await thread.run<string>({}, [], { timeoutMs: 5_000 })).toEqual({ status: "answered", answer: "done" });
    expect(thread.started).toBe(2);
    await thread.close();
  });
});

describe("runAtBackgroundPriority", () => {
  it.runIf(systemThreadId() !== null)("lowers the calling thread's priority only, not the process's other threads", async () => {
    const helper = pathToFileURL(path.resolve("app/services/jobs/background-priority.ts")).href;
    const file = path.join(dir, "nice.mjs");
    fs.writeFileSync(
      file,
      `import fs from "node:fs";
import { parentPort } from "node:worker_threads";
import { runAtBackgroundPriority, systemThreadId } from ${JSON.stringify(helper)};
` +
        `const lowered = runAtBackgroundPriority();
` +
        // Field 19 of /proc/<tid>/stat is the thread's nice value (after the command in parentheses).
        `const nice = Number(fs.readFileSync("/proc/thread-self/stat", "utf8").split(") ")[1].split(" ")[16]);
` +
        `parentPort.postMessage({ lowered, nice, id: systemThreadId() });
`,
    );
    const before = os.getPriority();
    const outcome = await runInThread<{ lowered: boolean; nice: number; id: number }>(file, {}, [], budget);
    expect(outcome).toMatchObject({ status: "answered", answer: { lowered: true, nice: BACKGROUND_NICE } });
    expect(outcome.status === "answered" && outcome.answer.id).not.toBe(systemThreadId());
    expect(os.getPriority()).toBe(before);
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
});
