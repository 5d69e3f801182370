// A tiny readable cookie that only says "this browser has a session". The session cookie itself
// is httpOnly; the hint lets cached public pages decide whether to ask for the current user.
export const SESSION_HINT_COOKIE = "forja_sesion";

export function sessionHintCookie(signedIn: boolean, secure: boolean): string {
  const attributes = ["Path=/", "SameSite=Lax", ...(secure ? ["Secure"] : [])];
  return signedIn
    ? `${SESSION_HINT_COOKIE}=1; Max-Age=${60 * 60 * 24 * 30}; ${attributes.join("; ")}`
    : `${SESSION_HINT_COOKIE}=; Max-Age=0; ${attributes.join("; ")}`;
}

export function hasSessionHint(cookieHeader: string): boolean {
  return cookieHeader.split(/;\s*/).some((part) => part === `${SESSION_HINT_COOKIE}=1`);
}
