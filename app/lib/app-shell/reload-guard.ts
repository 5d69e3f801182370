// A full page load used to recover from a new build or a missing chunk. The guard in
// sessionStorage stops a reload loop when the reload itself does not fix the problem.

export const RELOAD_GUARD_KEY = "forja:reload-guard";
export const RELOAD_GUARD_MS = 10_000;

function readGuard(storage: Storage, now: number): boolean {
  const stamp = Number(storage.getItem(RELOAD_GUARD_KEY));
  return Number.isFinite(stamp) && stamp > 0 && now - stamp < RELOAD_GUARD_MS;
}

export function isReloadGuardActive(now = Date.now()): boolean {
  try {
    return readGuard(window.sessionStorage, now);
  } catch {
    return false;
  }
}

/** Loads `url` in full unless a guarded reload happened in the last 10 s; returns whether it did. */
export function guardedFullLoad(url: string, now = Date.now()): boolean {
  if (isReloadGuardActive(now)) return false;
  try {
    window.sessionStorage.setItem(RELOAD_GUARD_KEY, String(now));
  } catch {
    // Without sessionStorage there is no guard; one reload is still better than a broken page.
  }
  window.location.assign(url);
  return true;
}
