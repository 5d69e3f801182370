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
    window.localStorage.removeItem(CONTENT_EDITOR_MARKER_KEY);
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

/** Whether the signed-in staff member's role edits the site's content (the public pages' «Editar esta página»). */
export const CONTENT_EDITOR_MARKER_KEY = "forja:admin-contenido";

/** Kept in step with the role on every panel page (a role changed meanwhile is seen at the next one). */
export function setContentEditorMarker(editsContent: boolean): void {
  try {
    if (editsContent) window.localStorage.setItem(CONTENT_EDITOR_MARKER_KEY, "1");
    else window.localStorage.removeItem(CONTENT_EDITOR_MARKER_KEY);
  } catch {
    // Storage disabled: the link stays hidden; the panel itself still works.
  }
}

export function hasContentEditorMarker(): boolean {
  try {
    return window.localStorage.getItem(CONTENT_EDITOR_MARKER_KEY) === "1";
  } catch {
    return false;
  }
}
