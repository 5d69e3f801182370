import type { NextFunction, Request, Response } from "express";
import { hasSessionCookie } from "~/features/accounts/index.server";
import { refuse } from "./refusal";

// Cross-site request forgery (docs/decisions/0034): a state-changing request a browser sends from
// another site is refused with a 403 before its body is read. What the browser says about where the
// request comes from decides, in this order: Origin (unless "null"), else Referer, else
// Sec-Fetch-Site; a request with none of them (curl, a server) is no browser's and goes through.
//
// What is checked is what a browser's cookies authorize:
// - every page's form post (any method but GET, HEAD and OPTIONS off /api), with or without cookies:
//   a forged sign-in (login CSRF) carries none;
// - an API call (/api/*) only when it carries the session cookie and no Authorization header. A call
//   authenticated by its header, or anonymous, forges nothing: the PocketBase and Strapi clients call
//   from any origin (server/cors.ts).
//
// Same origin is the site's public URL (PUBLIC_URL) or the request's own origin, the scheme and Host
// it arrived with; behind a proxy that is X-Forwarded-Proto and X-Forwarded-Host only when the proxy is
// trusted (TRUST_PROXY), else the proxy's own request, so set PUBLIC_URL to the address people use.

/** Methods that change nothing (RFC 9110 "safe"); every other one is checked. */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Provider callbacks that arrive as cross-site POSTs (an OAuth2 provider's response_mode=form_post).
 * Each checks the flow's own state instead, and none acts on a cookie the post carries:
 * - /api/oauth2-redirect: the PocketBase SDK's popup (routes/api/oauth2-redirect.ts), reads no cookie;
 * - /api/sesion/callback/{provider}, /api/sesion/oauth2/callback/{provider}: better-auth's provider
 *   callbacks (social and generic OAuth), which check the state against the flow's own cookie.
 */
export const CROSS_SITE_EXEMPT = [/^\/api\/oauth2-redirect$/, /^\/api\/sesion\/callback\/[^/]+$/, /^\/api\/sesion\/oauth2\/callback\/[^/]+$/];

export const CROSS_SITE_MESSAGE =
  "Por seguridad, esta acción solo puede enviarse desde el sitio de Forja. Vuelva a la página, recárguela y envíe el formulario desde ahí.";

/** The origin (scheme://host[:port]) of a URL, or null when it is not one. */
function originOf(value: string): string | null {
  try {
    const { origin } = new URL(value);
    return origin === "null" ? null : origin;
  } catch {
    return null;
  }
}

/** Whether the request's browser signals say it comes from one of `own` origins (true with no signal). */
export function comesFromOwnSite(headers: { origin?: string; referer?: string; secFetchSite?: string }, own: string[]): boolean {
  const { origin, referer, secFetchSite } = headers;
  if (origin !== undefined && origin !== "null") {
    const from = originOf(origin);
    return from !== null && own.includes(from);
  }
  if (referer !== undefined && referer !== "") {
    const from = originOf(referer);
    return from !== null && own.includes(from);
  }
  if (secFetchSite !== undefined) return secFetchSite === "same-origin" || secFetchSite === "none";
  return true;
}

/** What a browser's cookies would authorize on this request: every page post, and an API call by cookie. */
function needsCheck(req: Request): boolean {
  if (SAFE_METHODS.has(req.method)) return false;
  if (CROSS_SITE_EXEMPT.some((path) => path.test(req.path))) return false;
  if (!/^\/api\//i.test(req.path)) return true;
  return !req.get("authorization")?.trim() && hasSessionCookie(req.get("cookie"));
}

export function crossSiteChecks({ publicUrl }: { publicUrl: string }) {
  const publicOrigin = originOf(publicUrl);
  return (req: Request, res: Response, next: NextFunction) => {
    if (!needsCheck(req)) return next();
    // req.protocol and req.host follow X-Forwarded-* only from a trusted proxy ("trust proxy").
    const own = [publicOrigin, originOf(`${req.protocol}://${req.host ?? ""}`)].filter((origin): origin is string => origin !== null);
    const signals = { origin: req.get("origin"), referer: req.get("referer"), secFetchSite: req.get("sec-fetch-site") };
    if (comesFromOwnSite(signals, own)) return next();
    refuse(req, res, { status: 403, title: "No pudimos aceptar este envío", message: CROSS_SITE_MESSAGE });
  };
}
