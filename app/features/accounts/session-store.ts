import { useEffect } from "react";
import { useLocation } from "react-router";
import { createStore } from "~/lib/app-shell/external-store";
import { http } from "~/lib/http";
import { hasSessionHint, sessionHintCookie } from "~/lib/session-hint";

// The browser's idea of who is signed in, for the header of pages that are cached for everyone.
// Rules of the original app: set after login/register/reset (the hint cookie appears), cleared on
// logout and whenever fetching the current user fails; fetched at start when a session exists.

export interface SessionSnapshot {
  status: "unknown" | "signed-in" | "signed-out";
  name?: string;
}

const store = createStore<SessionSnapshot>({ status: "unknown" }, (a, b) => a.status === b.status && a.name === b.name);
const publish = store.set;
let pending: Promise<void> | null = null;

export function syncSession(): Promise<void> {
  if (!hasSessionHint(document.cookie)) {
    publish({ status: "signed-out" });
    return Promise.resolve();
  }
  if (store.get().status === "signed-in" || pending) return pending ?? Promise.resolve();
  pending = http
    // The seed's user object itself (docs/decisions/0017): the name is its `username`.
    .get<{ username: string }>("/api/users/me", { key: false })
    .then((response) => publish({ status: "signed-in", name: response.username }))
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
  return store.useValue();
}
