import { useEffect, useRef } from "react";
import { useRevalidator } from "react-router";
import type { LiveEvent } from "./live-client";

// Makes a page live (docs/decisions/0021): after hydration it loads the realtime client with a
// dynamic import() (so only the pages that call this download the `pocketbase` SDK), subscribes to
// `topics`, and on each accepted event asks React Router to load the page's data again. The loaders
// stay the single source of truth: an event only says "something changed", never what to show.
// Forms keep what is being typed, since a revalidation re-renders without remounting them. Without
// JavaScript nothing of this runs and the page is current on every load.

export type { LiveEvent };

export interface LiveUpdatesOptions {
  /** Only events this accepts refresh the page (e.g. the messages of one quote out of `mensajes/*`). */
  accept?: (event: LiveEvent) => boolean;
  /** Called for each accepted event before the refresh (a toast that names the new record). */
  onEvent?: (event: LiveEvent) => void;
}

/** Events that arrive together (a quote and its revision, several requests) cost one refresh. */
const COALESCE_MS = 250;

export function useLiveUpdates(topics: readonly string[], options: LiveUpdatesOptions = {}): void {
  const { revalidate } = useRevalidator();
  // The latest callbacks, read when an event arrives: new closures on each render do not resubscribe.
  const latest = useRef({ revalidate, options });
  latest.current = { revalidate, options };
  const key = topics.join("\n");

  useEffect(() => {
    let stopped = false;
    let unsubscribe: (() => Promise<void>) | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refreshSoon = () => {
      timer ??= setTimeout(() => {
        timer = undefined;
        if (!stopped) void latest.current.revalidate();
      }, COALESCE_MS);
    };

    import("./live-client")
      .then(({ subscribeLive }) =>
        subscribeLive(key.split("\n"), {
          onEvent(event) {
            const { accept, onEvent } = latest.current.options;
            if (stopped || (accept && !accept(event))) return;
            onEvent?.(event);
            refreshSoon();
          },
          // Back after a dropped stream: whatever happened meanwhile is in the loaders.
          onReconnect: refreshSoon,
        }),
      )
      .then((stop) => {
        if (stopped) void stop();
        else unsubscribe = stop;
      })
      .catch(() => {
        // The chunk failed to load (a new deploy, offline): the page stays as it is, current on reload.
      });

    return () => {
      stopped = true;
      clearTimeout(timer);
      void unsubscribe?.();
    };
  }, [key]);
}
