import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startPoller } from "./poller.server";
import { runInThread } from "./thread.server";

// The background jobs' shared parts: a real worker thread that answers, hangs, dies, allocates
// without end or is aborted; and the poller's loop (drain, sleep, nudge, stop).

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
