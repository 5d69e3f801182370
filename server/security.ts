import { randomBytes } from "node:crypto";
import type { NextFunction, Request, Response } from "express";

/** A fresh nonce per response; inline scripts without it do not run. */
export function createNonce(): string {
  return randomBytes(16).toString("base64");
}

/**
 * The policy for one response. Inline scripts are allowed by this response's nonce, or, for a
 * cached public page whose HTML never changes, by the hashes of its inline scripts.
 */
export function contentSecurityPolicy(allow: { nonce: string } | { hashes: string[] }, development: boolean, options: { cadWorker?: boolean } = {}): string {
  const inline = "nonce" in allow ? [`'nonce-${allow.nonce}'`] : allow.hashes.map((hash) => `'sha256-${hash}'`);
  // Only the /cotiza CAD worker's own script (a worker runs under its script's policy, never a page's)
  // may compile WebAssembly and eval: the OpenCascade kernel is WebAssembly, and its Embind glue builds
  // its call wrappers with `new Function` from the kernel's own signatures. The worker has no DOM and
  // no cookies; the customer's file is parsed by the kernel, never evaluated. See decision 0023.
  const cad = options.cadWorker ? ["'wasm-unsafe-eval'", "'unsafe-eval'"] : [];
  const script = development ? "'self' 'unsafe-inline' 'unsafe-eval'" : ["'self'", ...inline, ...cad].join(" ");
  return [
    "default-src 'self'",
    `script-src ${script}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src 'self'${development ? " ws: wss:" : ""}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** Exactly the paths of the files API routes (app/routes/api/files*.ts): they set PocketBase's own sandboxing policy. */
const FILES_API = /^\/api\/files\/(token|[^/]+\/[^/]+\/[^/]+)$/;

/**
 * Routes that serve stored files with every file header of their own (sandboxing policy and
 * nosniff, app/services/files/serve-headers.server.ts): request attachments for staff, product
 * photos, product CAD models, the media library's images and the record API's file downloads
 * (app/routes/admin/formulario-archivo.ts, catalogo/imagen.ts, catalogo/modelo.ts, medios-variante.ts, api/files.ts). Setting them here too would send each header twice.
 */
const FILE_ROUTES = [
  /^\/admin\/formularios\/[^/]+\/archivos\/[^/]+$/,
  /^\/imagenes\/productos\/[^/]+\/[^/]+$/,
  /^\/medios\/[^/]+\/[^/]+$/,
  /^\/catalogo\/[^/]+\/cad\/[^/]+\/[^/]+$/,
  /^\/api\/files\/[^/]+\/[^/]+\/[^/]+$/,
];

/** The hashed script of the /cotiza CAD worker (app/features/solicitudes/cad-worker.ts): a worker runs under its script's policy. */
const CAD_WORKER = /^\/assets\/cad-worker-[\w-]+\.js$/;

/** HSTS: sent only on requests that arrived over https (req.secure, behind a trusted proxy included). */
export const STRICT_TRANSPORT_SECURITY = ["Strict-Transport-Security", "max-age=31536000; includeSubDomains"] as const;

/**
 * Every protective header of a response to `path` but its policy and HSTS (which depend on the
 * response and the request): one list for the middleware below and for the page cache, which
 * computes it once per kept page (server/page-cache.ts).
 */
export function protectiveHeaders(path: string): [string, string][] {
  const fileRoute = FILE_ROUTES.some((pattern) => pattern.test(path));
  const headers: [string, string][] = [];
  if (!fileRoute) headers.push(["X-Content-Type-Options", "nosniff"]);
  headers.push(["X-Frame-Options", "DENY"], ["Referrer-Policy", "strict-origin-when-cross-origin"]);
  // Provider sign-in runs in a popup that reports back to its opener: any COOP other than
  // unsafe-none on /connect/* and /auth/* (redirects included) severs window.opener.
  if (!/^\/(connect|auth)\//.test(path)) headers.push(["Cross-Origin-Opener-Policy", "same-origin-allow-popups"]);
  headers.push(["Permissions-Policy", "camera=(), microphone=(), geolocation=()"]);
  return headers;
}

export function securityHeaders(development: boolean) {
  return (req: Request, res: Response, next: NextFunction) => {
    const nonce = createNonce();
    res.locals.cspNonce = nonce;
    // Stored files carry their own sandboxing policy, set by their routes (one policy header, not two).
    if (!FILE_ROUTES.some((pattern) => pattern.test(req.path)) && !FILES_API.test(req.path)) {
      res.setHeader("Content-Security-Policy", contentSecurityPolicy({ nonce }, development, { cadWorker: CAD_WORKER.test(req.path) }));
    }
    for (const [name, value] of protectiveHeaders(req.path)) res.setHeader(name, value);
    if (req.secure) res.setHeader(...STRICT_TRANSPORT_SECURITY);
    next();
  };
}
