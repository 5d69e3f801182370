// Background jobs give way to requests that write (docs/decisions/0073, 0075). A quote request with a
// 5 MB drawing needs the disk, libuv's threads and the database (on PGlite, the request's thread) at
// the same moments as the e-mail worker and the geometry job. While such requests keep coming, a
// job's next step waits until none has been in flight for QUIET_MS, at most YIELD_MAX_MS: a job
// never stops for longer under a steady stream of writes. Reads (pages, files, the realtime stream,
// which stays open) never hold a job back.

/** The longest a job's step waits for the writes in flight to end. */
export const YIELD_MAX_MS = 2_000;

/**
 * Writes are over once none has been in flight for this long. On a busy server the count touches
 * zero between one answer and the next request, which waits in its socket until this thread reads
 * it: a zero that lasts an instant is not a pause (measured in 0075: a burst of 20 uploads at once
 * let the geometry job through 13 times in 3.5 s).
 */
export const QUIET_MS = 250;

let writesInFlight = 0;
/** When the last write ended (performance.now()); -Infinity before the first. */
let lastEnded = Number.NEGATIVE_INFINITY;
let quietTimer: NodeJS.Timeout | undefined;
const waiting = new Set<() => void>();

function quietFor(): number {
  return writesInFlight > 0 ? 0 : performance.now() - lastEnded;
}

/** Wakes the waiting steps once no write has been in flight for QUIET_MS (checked again when that time is up). */
function wakeWhenQuiet(): void {
  clearTimeout(quietTimer);
  quietTimer = undefined;
  if (writesInFlight > 0 || waiting.size === 0) return;
  const left = QUIET_MS - quietFor();
  if (left <= 0) {
    for (const wake of [...waiting]) wake();
    return;
  }
  quietTimer = setTimeout(wakeWhenQuiet, left);
  quietTimer.unref();
}

/** A request that writes began; call what this returns once it is over (more calls do nothing). */
export function writeRequestStarted(): () => void {
  writesInFlight += 1;
  clearTimeout(quietTimer);
  quietTimer = undefined;
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    writesInFlight -= 1;
    lastEnded = performance.now();
    if (writesInFlight === 0) wakeWhenQuiet();
  };
}

/**
 * Resolves once no write request has been in flight for QUIET_MS, after `maxMs` at most, or at once
 * when `signal` aborts.
 */
export function writesSettled(signal?: AbortSignal, maxMs = YIELD_MAX_MS): Promise<void> {
  if (quietFor() >= QUIET_MS || signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      waiting.delete(done);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, maxMs);
    waiting.add(done);
    signal?.addEventListener("abort", done, { once: true });
    wakeWhenQuiet();
  });
}

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Counts a request as a write (see writeRequestStarted) from now until its response closes. */
export function countIfWrite(method: string, response: { once(event: "close", listener: () => void): unknown }): void {
  if (READS.has(method.toUpperCase())) return;
  response.once("close", writeRequestStarted());
}
