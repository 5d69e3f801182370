import { useEffect } from "react";
import { useLocation } from "react-router";
import { hasSessionHint } from "~/lib/session-hint";
import { createStore } from "~/lib/app-shell/external-store";
import { http } from "~/lib/http";

// The header's cart count, learned after hydration like the session (see accounts/session-store):
// cached pages are the same for everyone, so the count never goes into their HTML. The browser asks
// /api/carrito only when it may have a cart — the readable hint cookie of a guest cart, or a session
// — and asks again after every navigation, since adding, updating and checking out are navigations.

/** Must match CART_HINT_COOKIE in http.server.ts (a server module the browser cannot import). */
const CART_HINT = "forja_carrito_hint=1";

export interface CartSnapshot {
  status: "unknown" | "known";
  quantity: number;
}

const store = createStore<CartSnapshot>({ status: "unknown", quantity: 0 }, (a, b) => a.status === b.status && a.quantity === b.quantity);
const publish = store.set;

function mayHaveCart(cookies: string): boolean {
  return hasSessionHint(cookies) || cookies.split(/;\s*/).includes(CART_HINT);
}

export function syncCartCount(): Promise<void> {
  if (!mayHaveCart(document.cookie)) {
    publish({ status: "known", quantity: 0 });
    return Promise.resolve();
  }
  return http
    .get<{ data: { quantity: number } }>("/api/carrito")
    .then((response) => publish({ status: "known", quantity: response.data.quantity }))
    .catch(() => {
      // Offline or replaced by a newer request: keep what we had.
    });
}

export function useCartCount(): CartSnapshot {
  const location = useLocation();
  useEffect(() => {
    void syncCartCount();
  }, [location.key]);
  return store.useValue();
}
