import fs from "node:fs";
import os from "node:os";
import path from "node:path";

// A background job's thread (CAD geometry, product models) yields the processor to the threads that
// answer requests: on a small machine a second of OpenCascade must not slow every upload and page
// being served meanwhile (docs/decisions/0070). On Linux the nice value belongs to each thread, so
// the job's thread lowers its own and the process's other threads keep theirs. No dependencies: the
// worker bundles and the tests import it as it is.

/** The nice value of a background thread: under load it gets about a tenth of a request thread's share. */
export const BACKGROUND_NICE = 10;

/** The calling thread's id in the system (Linux), or null where there is no /proc/thread-self. */
export function systemThreadId(): number | null {
  try {
    const id = Number(path.basename(fs.readlinkSync("/proc/thread-self")));
    return Number.isInteger(id) && id > 0 ? id : null;
  } catch {
    return null;
  }
}

/**
 * Lowers the calling thread's priority to BACKGROUND_NICE (never raises it: a process already
 * started nicer keeps its value). True when the thread now runs at background priority; false where
 * the system has no per-thread priority, and then nothing changed.
 */
export function runAtBackgroundPriority(): boolean {
  const id = systemThreadId();
  if (id === null) return false;
  // A thread inherits the nice value of the thread that creates it, and libuv creates its pool (every
  // thread's file system, crypto and compression work) on the process's first request to it. Asking
  // for one now, at normal priority, makes sure it is never this thread's lowered one that the pool's
  // threads inherit.
  fs.access(".", () => {});
  try {
    os.setPriority(id, Math.max(os.getPriority(id), BACKGROUND_NICE));
    return true;
  } catch {
    return false;
  }
}
