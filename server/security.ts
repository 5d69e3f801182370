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
 * photos, product CAD models and the record API's file downloads (app/routes/admin/formulario-archivo.ts,
 * catalogo/imagen.ts, catalogo/modelo.ts, api/files.ts). Setting them here too would send each header twice.
 */
const FILE_ROUTES = [
  /^\/admin\/formularios\/[^/]+\/archivos\/[^/]+$/,
  /^\/imagenes\/productos\/[^/]+\/[^/]+$/,
  /^\/catalogo\/[^/]+\/cad\/[^/]+\/[^/]+$/,
  /^\/api\/files\/[^/]+\/[^/]+\/[^/]+$/,
];

/** The hashed script of the /cotiza CAD worker (app/features/solicitudes/cad-worker.ts): a worker runs under its script's policy. */
const CAD_WORKER = /^\/assets\/cad-worker-[\w-]+\.js$/;

export function securityHeaders(development: boolean) {
  return (req: Request, res: Response, next: NextFunction) => {
    const nonce = createNonce();
    res.locals.cspNonce = nonce;
    const fileRoute = FILE_ROUTES.some((pattern) => pattern.test(req.path));
    // Stored files carry their own sandboxing policy, set by their routes (one policy header, not two).
    if (!fileRoute && !FILES_API.test(req.path)) res.setHeader("Content-Security-Policy", contentSecurityPolicy({ nonce }, development, { cadWorker: CAD_WORKER.test(req.path) }));
    if (!fileRoute) res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("X-Frame-Options", "DENY");
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    // Provider sign-in runs in a popup that reports back to its opener: any COOP other than
    // unsafe-none on /connect/* and /auth/* (redirects included) severs window.opener.
    if (!/^\/(connect|auth)\//.test(req.path)) res.setHeader("Cross-Origin-Opener-Policy", "same-origin-allow-popups");
    res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
    if (req.secure) res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    next();
  };
}
