// The original app's browser-side admin guard: a marker in localStorage set after a staff sign-in
// and removed on logout or session loss. The server guard stays the authority.
export const ADMIN_MARKER_KEY = "forja:admin-auth";

export function setAdminMarker(): void {
  try {
    window.localStorage.setItem(ADMIN_MARKER_KEY, "1");
  } catch {
    // Storage disabled: the server guard still protects every admin page.
  }
}

export function clearAdminMarker(): void {
  try {
    window.localStorage.removeItem(ADMIN_MARKER_KEY);
  } catch {
    // See above.
  }
}

export function hasAdminMarker(): boolean {
  try {
    return window.localStorage.getItem(ADMIN_MARKER_KEY) === "1";
  } catch {
    return true;
  }
}
