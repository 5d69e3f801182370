import { describe, expect, it } from "vitest";
import { SharedRuns } from "./shared-runs";

/** Work whose runs the test ends one at a time; `log` says when each started and ended. */
function controlledWork() {
  const log: string[] = [];
  const endings: ((error?: Error) => void)[] = [];
  let started = 0;
  const work = () => {
    const run = ++started;
    log.push(`start ${run}`);
    return new Promise<void>((resolve, reject) => {
      endings.push((error) => {
        log.push(`end ${run}`);
        if (error) reject(error);
        else resolve();
      });
    });
  };
  const endNext = async (error?: Error) => {
    endings.shift()!(error);
    // Let the promise callbacks run.
    for (let turn = 0; turn < 5; turn += 1) await Promise.resolve();
  };
  return { log, work, endNext, runs: () => started };
}

describe("SharedRuns", () => {
  it("runs at once when idle, and again for every later call", async () => {
    const { log, work, endNext } = controlledWork();
    const shared = new SharedRuns(work);
    const first = shared.run();
    expect(log).toEqual(["start 1"]);
    await endNext();
    await first;
    const second = shared.run();
    expect(log).toEqual(["start 1", "end 1", "start 2"]);
    await endNext();
    await second;
  });

  it("makes the calls that arrive during a run wait for one next run that starts after it ends", async () => {
    const { log, work, endNext, runs } = controlledWork();
    const shared = new SharedRuns(work);
    const settled: string[] = [];
    const first = shared.run().then(() => settled.push("first"));
    const during = [shared.run(), shared.run(), shared.run()].map((call, index) => call.then(() => settled.push(`during ${index}`)));
    expect(runs()).toBe(1);

    await endNext();
    // The first call is served; the three others need the run that starts now.
    expect(settled).toEqual(["first"]);
    expect(log).toEqual(["start 1", "end 1", "start 2"]);
    const later = shared.run().then(() => settled.push("later"));

    await endNext();
    await Promise.all([first, ...during]);
    expect(settled.slice(0, 4).sort()).toEqual(["during 0", "during 1", "during 2", "first"]);
    // A call made during the second run is not served by it: a third run starts for it.
    expect(settled).not.toContain("later");
    expect(log).toEqual(["start 1", "end 1", "start 2", "end 2", "start 3"]);
    await endNext();
    await later;
    expect(runs()).toBe(3);
  });

  it("gives a failed run's error to every call it served, and the next call runs again", async () => {
    const { work, endNext, runs } = controlledWork();
    const shared = new SharedRuns(work);
    const first = shared.run();
    const waiting = [shared.run(), shared.run()];
    await endNext();
    await first;
    await endNext(new Error("el disco no respondió"));
    for (const call of waiting) await expect(call).rejects.toThrow("el disco no respondió");
    const again = shared.run();
    expect(runs()).toBe(3);
    await endNext();
    await again;
  });

  it("starts the next run after a failed one for the calls that waited on it", async () => {
    const { log, work, endNext } = controlledWork();
    const shared = new SharedRuns(work);
    const first = shared.run();
    const waiting = shared.run();
    await endNext(new Error("falló"));
    await expect(first).rejects.toThrow("falló");
    expect(log).toEqual(["start 1", "end 1", "start 2"]);
    await endNext();
    await waiting;
  });
});
