import { useEffect } from "react";
import { useLocation, useRouteLoaderData } from "react-router";
import { createStore } from "~/lib/app-shell/external-store";
import { http } from "~/lib/http";
import { hasSessionHint, sessionHintCookie } from "~/lib/session-hint";

// The browser's idea of who is signed in, for the header of pages that are cached for everyone.
// Rules of the original app: set after login/register/reset (the hint cookie appears), cleared on
// logout and whenever fetching the current user fails; fetched at start when a session exists.
// Until then the header shows what the server rendered: the root loader's `signedIn` (from the
// session on a page rendered per request, from the session cookie's presence on a cached one).

/** The signed-in customer's own contact details, as their account has them. */
export interface OwnDetails {
  name: string;
  email: string;
  company?: string;
  phone?: string;
}

export interface SessionSnapshot {
  status: "unknown" | "signed-in" | "signed-out";
  details?: OwnDetails;
}

const sameDetails = (a?: OwnDetails, b?: OwnDetails) => a?.name === b?.name && a?.email === b?.email && a?.company === b?.company && a?.phone === b?.phone;
const store = createStore<SessionSnapshot>({ status: "unknown" }, (a, b) => a.status === b.status && sameDetails(a.details, b.details));
const publish = store.set;
let pending: Promise<void> | null = null;

/**
 * Asks for the current user when the readable hint cookie says there is a session, or when the
 * server rendered the page as signed in (the hint may be gone while the httpOnly session is not).
 */
export function syncSession(serverSignedIn = false): Promise<void> {
  if (!hasSessionHint(document.cookie) && !serverSignedIn) {
    publish({ status: "signed-out" });
    return Promise.resolve();
  }
  if (store.get().status === "signed-in" || pending) return pending ?? Promise.resolve();
  pending = http
    // The seed's user object itself (docs/decisions/0017): the name is its `username`. The profile
    // comes along for the forms on cached pages, which fill it in after hydration (0031).
    .get<{ username: string; email: string; profile?: { company: string | null; phone: string | null } }>("/api/users/me", { key: false, query: { populate: "profile" } })
    .then((response) =>
      publish({
        status: "signed-in",
        details: { name: response.username, email: response.email, company: response.profile?.company ?? undefined, phone: response.profile?.phone ?? undefined },
      }),
    )
    .catch(() => {
      document.cookie = sessionHintCookie(false, window.location.protocol === "https:");
      publish({ status: "signed-out" });
    })
    .finally(() => {
      pending = null;
    });
  return pending;
}

/** What the server rendered into the page for the header (see the root loader). */
export function useServerSignedIn(): boolean {
  // Typed locally: nothing outside routes imports the root module.
  const root = useRouteLoaderData("root") as { signedIn?: boolean } | undefined;
  return root?.signedIn === true;
}

/**
 * Who is signed in, re-checked after every navigation (sign-in and sign-out are navigations).
 * Before the first check it is the server's answer, so hydration matches the HTML.
 */
export function useSession(): { status: "signed-in" | "signed-out"; name?: string } {
  const location = useLocation();
  const serverSignedIn = useServerSignedIn();
  useEffect(() => {
    void syncSession(serverSignedIn);
  }, [location.key, serverSignedIn]);
  const session = store.useValue();
  if (session.status === "unknown") return { status: serverSignedIn ? "signed-in" : "signed-out" };
  return { status: session.status, name: session.details?.name };
}

/** The browser's snapshot as it is, for readers other than the header (own-details.ts). */
export const useSessionSnapshot = (): SessionSnapshot => store.useValue();
