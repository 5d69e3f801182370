import type { NextFunction, Request, Response } from "express";

// CORS for the APIs (/api/*), as PocketBase answers by default: any origin may call them from a
// browser, without credentials. `Access-Control-Allow-Origin: *` never lets a page on another site
// read an answer to a request that carried our cookies (browsers refuse `*` with credentials), so
// what a cookie authorizes stays same-site; the SDK clients, which authenticate with the
// `Authorization` header, work from any origin. Pages outside /api send no CORS headers.

const ALLOWED_METHODS = "GET, HEAD, PUT, PATCH, POST, DELETE";
/** How long a browser may reuse a preflight answer (seconds). */
const PREFLIGHT_MAX_AGE_S = 86_400;

export function apiCors() {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!req.path.startsWith("/api/")) return next();
    res.setHeader("Access-Control-Allow-Origin", "*");
    res.setHeader("Access-Control-Expose-Headers", "Retry-After, Content-Disposition");
    const preflight = req.method === "OPTIONS" && req.get("access-control-request-method");
    if (!preflight) return next();
    res.setHeader("Access-Control-Allow-Methods", ALLOWED_METHODS);
    const headers = req.get("access-control-request-headers");
    if (headers) res.setHeader("Access-Control-Allow-Headers", headers);
    res.setHeader("Access-Control-Max-Age", String(PREFLIGHT_MAX_AGE_S));
    res.vary("Access-Control-Request-Headers");
    res.status(204).end();
  };
}
