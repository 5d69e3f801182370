import { startTransition, useEffect, useState, useSyncExternalStore } from "react";

// Whether the page's first hydration is over (docs/decisions/0071). Set a task after the first
// effect of that hydration runs, so every component of it has checked its own snapshot first.
let hydrationDone = false;
let settling = false;

const subscribe = () => () => {};
const clientSnapshot = () => hydrationDone;
const serverSnapshot = () => false;

/**
 * False on the server and during hydration, true after it (in a transition that follows the
 * hydration's commit). Controls that need JavaScript stay inert until then; forms keep working without it.
 *
 * A component rendered on the client after the page's hydration (a client navigation) starts at
 * true. One that hydrates starts at false, as the server rendered it, and turns true in a
 * transition after its hydration commits: React renders that change in slices between other work,
 * where a store whose client value differs from the server's (useSyncExternalStore alone) forces a
 * synchronous render of every such component, the whole form of /cotiza in one long task.
 */
export function useHydrated(): boolean {
  const afterHydration = useSyncExternalStore(subscribe, clientSnapshot, serverSnapshot);
  const [hydrated, setHydrated] = useState(afterHydration);
  useEffect(() => {
    if (hydrated) return;
    if (!settling) {
      settling = true;
      setTimeout(() => {
        hydrationDone = true;
      }, 0);
    }
    startTransition(() => setHydrated(true));
  }, [hydrated]);
  return hydrated;
}
