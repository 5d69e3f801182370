// Background jobs give way to requests that write (docs/decisions/0073). A quote request with a
// 5 MB drawing needs the disk, libuv's threads and the database (on PGlite, the request's thread) at
// the same moments as the e-mail worker and the geometry job. While such a request is in flight, a
// job's next step waits for it to end, at most YIELD_MAX_MS: a job never stops for longer under a
// steady stream of writes. Reads (pages, files, the realtime stream, which stays open) never hold a
// job back.

/** The longest a job's step waits for the writes in flight to end. */
export const YIELD_MAX_MS = 2_000;

let writesInFlight = 0;
const waiting = new Set<() => void>();

/** A request that writes began; call what this returns once it is over (more calls do nothing). */
export function writeRequestStarted(): () => void {
  writesInFlight += 1;
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    writesInFlight -= 1;
    if (writesInFlight === 0) for (const wake of [...waiting]) wake();
  };
}

/** Resolves once no write request is in flight, after `maxMs` at most, or at once when `signal` aborts. */
export function writesSettled(signal?: AbortSignal, maxMs = YIELD_MAX_MS): Promise<void> {
  if (writesInFlight === 0 || signal?.aborted) return Promise.resolve();
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
  });
}

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Counts a request as a write (see writeRequestStarted) from now until its response closes. */
export function countIfWrite(method: string, response: { once(event: "close", listener: () => void): unknown }): void {
  if (READS.has(method.toUpperCase())) return;
  response.once("close", writeRequestStarted());
}
