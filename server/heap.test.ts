import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

// tuneHeap (docs/decisions/0077), in a process of its own as the server sets it: a heap the size of
// the app's, then 1.28 GB of short-lived 64 KiB buffers, as a burst of uploads reads them. Counted:
// the full (mark-compact) collections while they are read.

const heapModule = pathToFileURL(path.join(path.dirname(fileURLToPath(import.meta.url)), "heap.ts")).href;

function majorCollections(tuned: boolean): number {
  const script = `
    import { constants, PerformanceObserver } from "node:perf_hooks";
    import { setImmediate as turn } from "node:timers/promises";
    if (${tuned}) (await import(${JSON.stringify(heapModule)})).tuneHeap();
    globalThis.kept = Array.from({ length: 1_000_000 }, (_, i) => ({ i, text: "pieza " + i, next: { i } }));
    let majors = 0;
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) if (entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) majors += 1;
    });
    await turn();
    observer.observe({ entryTypes: ["gc"] });
    let sum = 0;
    for (let read = 0; read < 20480; read += 1) {
      const chunk = Buffer.allocUnsafe(64 * 1024);
      chunk[read % chunk.length] = read & 0xff;
      sum += chunk[read % chunk.length];
      if (read % 16 === 0) await turn();
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    observer.disconnect();
    console.log(JSON.stringify({ majors, sum }));
  `;
  const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", timeout: 60_000 });
  expect(result.status, result.stderr).toBe(0);
  return (JSON.parse(result.stdout.trim().split("\n").pop()!) as { majors: number }).majors;
}

describe("tuneHeap", () => {
  it("reading buffers outside the heap no longer starts a full collection of the heap every 100 MB or so", { timeout: 60_000 }, () => {
    const untuned = majorCollections(false);
    const tuned = majorCollections(true);
    // By default: one for every 100 MB or so that is read (twelve for 1.28 GB); tuned, a third of that at most.
    console.log(`full collections while 1.28 GB of buffers are read: ${untuned} by default, ${tuned} tuned`);
    expect(untuned).toBeGreaterThanOrEqual(8);
    expect(tuned * 3).toBeLessThanOrEqual(untuned);
  });
});
