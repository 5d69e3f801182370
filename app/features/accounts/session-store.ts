import { useEffect, useSyncExternalStore } from "react";
import { useLocation } from "react-router";
import { http } from "~/lib/http";
import { hasSessionHint, sessionHintCookie } from "./session-hint";

// The browser's idea of who is signed in, for the header of pages that are cached for everyone.
// Rules of the original app: set after login/register/reset (the hint cookie appears), cleared on
// logout and whenever fetching the current user fails; fetched at start when a session exists.

export interface SessionSnapshot {
  status: "unknown" | "signed-in" | "signed-out";
  name?: string;
}

let snapshot: SessionSnapshot = { status: "unknown" };
let pending: Promise<void> | null = null;
const listeners = new Set<() => void>();

function publish(next: SessionSnapshot) {
  snapshot = next;
  for (const listener of listeners) listener();
}

export function syncSession(): Promise<void> {
  if (!hasSessionHint(document.cookie)) {
    if (snapshot.status !== "signed-out") publish({ status: "signed-out" });
    return Promise.resolve();
  }
  if (snapshot.status === "signed-in" || pending) return pending ?? Promise.resolve();
  pending = http
    .get<{ data: { name: string } }>("/api/users/me", { key: false })
    .then((response) => publish({ status: "signed-in", name: response.data.name }))
    .catch(() => {
      document.cookie = sessionHintCookie(false, window.location.protocol === "https:");
      publish({ status: "signed-out" });
    })
    .finally(() => {
      pending = null;
    });
  return pending;
}

/** Who is signed in, re-checked after every navigation (sign-in and sign-out are navigations). */
export function useSession(): SessionSnapshot {
  const location = useLocation();
  useEffect(() => {
    void syncSession();
  }, [location.key]);
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => snapshot,
    () => snapshot,
  );
}
