import { http } from "~/lib/http";

// New build detection: every build has an id (VITE_BUILD_ID, baked into the client bundle) and
// writes it to /version.json. When the server's id differs, the next navigation is a full load.

export const BUILD_ID: string = import.meta.env.VITE_BUILD_ID ?? "dev";
export const FIRST_CHECK_MS = 1_000;
export const CHECK_INTERVAL_MS = 3_600_000;

let stale = false;
let lastCheck = 0;

export function isBuildStale(): boolean {
  return stale;
}

export async function checkBuild(): Promise<void> {
  lastCheck = Date.now();
  try {
    const latest = await http.get<{ id?: string }>("/version.json", { key: false, query: { t: lastCheck } });
    if (latest?.id && latest.id !== BUILD_ID) stale = true;
  } catch {
    // Offline or a deploy in progress: try again at the next interval.
  }
}

export function startBuildWatch(): () => void {
  const first = window.setTimeout(checkBuild, FIRST_CHECK_MS);
  const interval = window.setInterval(checkBuild, CHECK_INTERVAL_MS);
  const onFocus = () => {
    if (Date.now() - lastCheck >= CHECK_INTERVAL_MS) void checkBuild();
  };
  window.addEventListener("focus", onFocus);
  return () => {
    window.clearTimeout(first);
    window.clearInterval(interval);
    window.removeEventListener("focus", onFocus);
  };
}
