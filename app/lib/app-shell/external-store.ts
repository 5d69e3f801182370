import { useSyncExternalStore } from "react";

/**
 * A value that lives outside React (session, cart count, chunk error) and re-renders its readers
 * when it changes. The server snapshot is the initial value, so hydration matches the HTML.
 */
export function createStore<T>(initial: T, same: (a: T, b: T) => boolean = Object.is) {
  let value = initial;
  const listeners = new Set<() => void>();
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  };
  return {
    get: () => value,
    set(next: T) {
      if (same(value, next)) return;
      value = next;
      for (const listener of listeners) listener();
    },
    useValue(): T {
      return useSyncExternalStore(subscribe, () => value, () => initial);
    },
  };
}
