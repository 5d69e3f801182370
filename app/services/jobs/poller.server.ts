import { logger } from "~/lib/logger.server";
import { writesSettled } from "./foreground.server";

// The loop every background job of the server shares: run until there is nothing left to do, then
// sleep `intervalMs` (or until nudged); one run at a time; a nudge during a run runs again right
// after it; `stop()` waits for the run in flight. Each step first lets the write requests in flight
// end (foreground.server.ts, at most two seconds). Rows, not this loop, carry the work across crashes.

export interface Poller {
  /** Runs now (or right after the current run). */
  nudge(): void;
  stop(): Promise<void>;
}

export interface PollerOptions {
  /** A run does at most this many steps, then sleeps like an idle one: a drain loop must not starve the process. */
  maxStepsPerRun?: number;
}

/**
 * `step` does one unit of work and says whether there may be more (true: call again at once).
 * It gets the poller's abort signal, aborted on stop.
 */
export function startPoller(name: string, intervalMs: number, step: (signal: AbortSignal) => Promise<boolean>, options: PollerOptions = {}): Poller {
  const maxSteps = options.maxStepsPerRun ?? Number.POSITIVE_INFINITY;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> | undefined;
  let nudged = false;
  const shutdown = new AbortController();

  const runOnce = async () => {
    for (let steps = 0; steps < maxSteps && !stopped; steps += 1) {
      await writesSettled(shutdown.signal);
      if (stopped) return;
      nudged = false;
      let more: boolean;
      try {
        more = await step(shutdown.signal);
      } catch (error) {
        logger.error({ err: error, job: name }, "background job step failed");
        return;
      }
      // A nudge during the step may mean new work even when the step found none.
      if (!more && !nudged) return;
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
      // A nudge that arrived after the last step checked for one is not lost.
      if (nudged && !stopped) {
        nudged = false;
        setImmediate(run);
      } else if (!stopped) {
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
