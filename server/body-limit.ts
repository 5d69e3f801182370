import type { NextFunction, Request, Response } from "express";
import { formatFileSize } from "~/lib/format";
import { SMALL_BODY_BYTES } from "~/lib/request-body";
import { MAX_BATCH_JSON_BYTES } from "~/services/records/batch.server";
import { MAX_JSON_BODY_BYTES, tooLarge as pocketBaseTooLarge } from "~/services/records/writes.server";
import { refuse } from "./refusal";

// Every request body has a bound, enforced while it is read (docs/decisions/0034): past
// Content-Length's promise the answer is a 413 at once, before a byte is read; a body without one
// (chunked) is counted as it arrives and refused as soon as it passes the bound. Either way the
// connection closes after the answer and nothing past the bound is ever buffered. Uploads are the
// one exception: their routes read multipart with their own streamed limits (UPLOAD_ROUTES).

/**
 * Any body that is not an upload and not named in OTHER_BOUNDS: a page's form, an API's small JSON
 * object or form. 64 KB, the bound of the API readers of small bodies (lib/request-body.ts).
 */
export const FORM_BODY_BYTES = SMALL_BODY_BYTES;
/** A JSON object to better-auth's own endpoints, which read their bodies without a bound of their own. */
export const JSON_BODY_BYTES = 1024 * 1024;

/**
 * Every route that takes multipart uploads, and the file that reads them with
 * parseMultipartUpload (services/files/multipart.server.ts) under its own limits. Only a multipart
 * body to one of these paths goes unbounded here; any other multipart body is a form (64 KB).
 */
export const UPLOAD_ROUTES: { path: RegExp; readBy: string; limits: string }[] = [
  { path: /^\/cotiza$/i, readBy: "app/routes/cotiza/submit-solicitud.server.ts", limits: "UPLOAD_LIMITS (features/solicitudes/forms.ts)" },
  { path: /^\/api\/cotiza$/i, readBy: "app/routes/cotiza/submit-solicitud.server.ts", limits: "UPLOAD_LIMITS (features/solicitudes/forms.ts)" },
  // Product photos, and with ?modelo the product's STEP model.
  { path: /^\/admin\/productos\/[^/]+$/i, readBy: "app/routes/admin/producto.tsx", limits: "IMAGE_LIMITS, MODEL_UPLOAD_LIMITS (features/catalogue)" },
  { path: /^\/api\/collections\/[^/]+\/records(\/[^/]+)?$/i, readBy: "app/services/records/writes.server.ts", limits: "WRITE_UPLOAD_LIMITS" },
  { path: /^\/api\/batch$/i, readBy: "app/services/records/batch.server.ts", limits: "WRITE_UPLOAD_LIMITS" },
  // The media library's images.
  { path: /^\/admin\/medios$/i, readBy: "app/routes/admin/medios.tsx", limits: "MEDIA_LIMITS (features/site/media/media.ts)" },
  // A backup archive made elsewhere (docs/decisions/0055).
  { path: /^\/api\/backups\/upload$/i, readBy: "app/routes/api/backups-upload.ts", limits: "UPLOAD_LIMITS (services/backups/upload.server.ts)" },
];

/**
 * Routes whose (non-multipart) body has another bound: never more than what the route's own reader
 * takes, so the answer past it is always this one (a reader that stops early drops the connection).
 */
const OTHER_BOUNDS: { path: RegExp; bytes: number }[] = [
  // A record's JSON or urlencoded fields (services/records/writes.server.ts).
  { path: /^\/api\/collections\/[^/]+\/records(\/[^/]+)?$/i, bytes: MAX_JSON_BODY_BYTES },
  { path: /^\/api\/batch$/i, bytes: MAX_BATCH_JSON_BYTES },
  // The realtime subscriptions and the OAuth2 form_post: MAX_SUBSCRIBE_BODY_BYTES in
  // routes/api/realtime.ts and MAX_BODY_BYTES in routes/api/oauth2-redirect.ts (routes: server/ cannot import them).
  { path: /^\/api\/realtime$/i, bytes: 3 * 1024 * 1024 },
  { path: /^\/api\/oauth2-redirect$/i, bytes: 16 * 1024 },
  { path: /^\/api\/sesion\//i, bytes: JSON_BODY_BYTES },
  // The staff's quote editor: up to 100 lines of 500 characters each, urlencoded (features/quotes/forms.ts).
  { path: /^\/admin\/cotizaciones\/[^/]+$/i, bytes: 1024 * 1024 },
];

/** The route's path as React Router matches it: without a data request's `.data` and a trailing slash. */
export function routePath(path: string): string {
  const bare = path.endsWith("/_.data") ? path.slice(0, -"_.data".length) : path.replace(/\.data$/, "");
  return bare.length > 1 ? bare.replace(/\/+$/, "") : bare;
}

const isMultipart = (contentType: string) => contentType.startsWith("multipart/form-data");

/** The most bytes the request's body may have, or null for an upload read under its own limits. */
export function bodyLimit(path: string, contentType: string | undefined): number | null {
  const route = routePath(path);
  const type = (contentType ?? "").toLowerCase().trim();
  if (isMultipart(type)) return UPLOAD_ROUTES.some((upload) => upload.path.test(route)) ? null : FORM_BODY_BYTES;
  return OTHER_BOUNDS.find((entry) => entry.path.test(route))?.bytes ?? FORM_BODY_BYTES;
}

/**
 * The 413: in Spanish for pages and better-auth's endpoints; in PocketBase's and Strapi's own
 * literals for theirs, which their clients and tests know (services/records/writes.server.ts,
 * invalidBody in routes/api/strapi-auth.server.ts).
 */
function tooLarge(req: Request, res: Response, limit: number): void {
  const api = /^\/api\//i.test(req.path);
  refuse(req, res, {
    status: 413,
    title: "El formulario es demasiado grande",
    message: api
      ? `La petición es demasiado grande: admite hasta ${formatFileSize(limit)}.`
      : `El formulario es demasiado grande: admite hasta ${formatFileSize(limit)}. Revise el texto que escribió y envíelo de nuevo; para adjuntar archivos use el formulario de cotización.`,
    apiMessages: { pocketbase: (pocketBaseTooLarge().body as { message: string }).message, strapi: "Request entity too large" },
  });
}

/** What the body's reader gets when the body passed its bound (it never sees the rest). */
class BodyTooLargeError extends Error {
  readonly status = 413;
  constructor() {
    super("request body too large");
  }
}

/**
 * Counts the body's bytes where the HTTP parser hands them to the request stream, so whoever reads
 * it (React Router's adapter, a piped stream) gets no byte past `limit`. Past it the request is
 * answered 413 at once and its reader fails — it never takes a truncated body for a whole one —
 * while the rest is read and dropped until the connection closes (server/refusal.ts).
 */
function countWhileReading(req: Request, res: Response, limit: number): void {
  let received = 0;
  let over = false;
  const push = req.push.bind(req);
  req.push = (chunk: unknown, encoding?: BufferEncoding) => {
    if (chunk === null || chunk === undefined) return over || push(chunk, encoding);
    if (over) return true;
    received += typeof chunk === "string" ? Buffer.byteLength(chunk, encoding) : (chunk as Uint8Array).byteLength;
    if (received <= limit) return push(chunk, encoding);
    over = true;
    tooLarge(req, res, limit);
    // Failing the reader through the stream's own event keeps the socket open for the answer
    // (destroying the request would destroy its socket with it).
    if (req.listenerCount("error") > 0) req.emit("error", new BodyTooLargeError());
    req.resume();
    return true;
  };
}

/** Whether the request comes with a body: chunked, or a Content-Length other than 0. */
export function hasBody(req: Request): boolean {
  const declared = req.headers["content-length"];
  return req.headers["transfer-encoding"] !== undefined || (declared !== undefined && declared !== "0");
}

export function bodyLimits() {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!hasBody(req)) return next();
    const declared = req.headers["content-length"];
    const limit = bodyLimit(req.path, req.headers["content-type"]);
    if (limit === null) return next();
    if (declared !== undefined && Number(declared) > limit) return tooLarge(req, res, limit);
    countWhileReading(req, res, limit);
    next();
  };
}
