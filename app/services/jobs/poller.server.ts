import { logger } from "~/lib/logger.server";

// The loop every background job of the server shares: run until there is nothing left to do, then
// sleep `intervalMs` (or until nudged); one run at a time; a nudge during a run runs again right
// after it; `stop()` waits for the run in flight. Rows, not this loop, carry the work across crashes.

export interface Poller {
  /** Runs now (or right after the current run). */
  nudge(): void;
  stop(): Promise<void>;
}

/**
 * `step` does one unit of work and says whether there may be more (true: call again at once).
 * It gets the poller's abort signal, aborted on stop.
 */
export function startPoller(name: string, intervalMs: number, step: (signal: AbortSignal) => Promise<boolean>): Poller {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> | undefined;
  let nudged = false;
  const shutdown = new AbortController();

  const runOnce = async () => {
    while (!stopped) {
      nudged = false;
      let more: boolean;
      try {
        more = await step(shutdown.signal);
      } catch (error) {
        logger.error({ err: error, job: name }, "background job step failed");
        return;
      }
      if (!more) return;
    }
  };

  function run(): void {
    if (stopped) return;
    if (inFlight) {
      nudged = true;
      return;
    }
    clearTimeout(timer);
    inFlight = runOnce().finally(() => {
      inFlight = undefined;
      if (nudged && !stopped) setImmediate(run);
      else if (!stopped) {
        timer = setTimeout(run, intervalMs);
        timer.unref();
      }
    });
  }

  setImmediate(run);
  return {
    nudge: run,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      shutdown.abort();
      await inFlight;
    },
  };
}
