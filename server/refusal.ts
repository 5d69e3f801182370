import type { Socket } from "node:net";
import type { Request, Response } from "express";
import { pocketBaseError } from "~/services/records/auth-records.server";

// How the server refuses a request before React Router sees it (server/body-limit.ts,
// server/cross-site.ts, docs/decisions/0034): an API answers in its own error envelope, a page with
// a short Spanish page. Whatever the client still sends is dropped, and the connection closes.

export type Envelope = "pocketbase" | "strapi" | "better-auth";

/** The APIs that answer in Strapi's envelope (routes/api/auth.ts, users-me.ts, strapi-connect.ts). */
const STRAPI_PATHS = /^\/api\/(auth|users|connect)(\/|$)/i;
/** better-auth's own endpoints (routes/api/auth-sesion.ts). */
const BETTER_AUTH_PATHS = /^\/api\/sesion(\/|$)/i;

/** The error envelope of an API path (PocketBase's for every API not named above), or null for a page. */
function envelopeOf(path: string): Envelope | null {
  if (!/^\/api\//i.test(path)) return null;
  if (STRAPI_PATHS.test(path)) return "strapi";
  if (BETTER_AUTH_PATHS.test(path)) return "better-auth";
  return "pocketbase";
}

/** Strapi's error names for the statuses refused here (as STRAPI_ERRORS in routes/api/strapi-auth.server.ts). */
const STRAPI_NAMES = { 400: "ValidationError", 403: "ForbiddenError", 405: "MethodNotAllowedError", 413: "PayloadTooLargeError" } as const;

function apiBody(envelope: Envelope, status: Refusal["status"], message: string): unknown {
  switch (envelope) {
    case "strapi":
      return { data: null, error: { status, name: STRAPI_NAMES[status], message, details: {} } };
    case "better-auth":
      // As the 429 of features/accounts/auth-api.server.ts.
      return { code: status, message };
    case "pocketbase":
      return pocketBaseError(status, message);
  }
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

function page(title: string, message: string): string {
  return `<!doctype html>
<html lang="es-MX">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)} · Forja</title></head>
<body style="font-family: system-ui, sans-serif; margin: 3rem auto; max-width: 32rem; padding: 0 1rem; color: #1f2937">
<h1 style="font-size: 1.25rem">${escapeHtml(title)}</h1>
<p>${escapeHtml(message)}</p>
<p><a href="/">Ir al inicio</a> · <a href="/contact">Escríbanos</a></p>
</body>
</html>`;
}

/**
 * How long a refused request's connection keeps reading (and dropping) what the client still sends
 * after the answer. Closing at once with unread bytes makes the system answer them with a reset,
 * which can reach the client before it has read the answer.
 */
const LINGER_MS = 2_000;

/** Connections that close after their answer (closeAfterAnswer). */
const closing = new WeakSet<Socket>();

/**
 * Whether `socket` closes after an answer already given. A request pipelined behind that answer
 * is never answered (our side has ended), so it must not run either (see app.ts).
 */
export function isClosing(socket: Socket | undefined): boolean {
  return socket !== undefined && closing.has(socket);
}

/**
 * Closes the connection after the answer: our side first, then theirs, or after LINGER_MS. Until
 * then, what is left of the body is read and dropped; nothing reads it any more once the answer is
 * written: a reader or a pipe still attached is cut off.
 */
export function closeAfterAnswer(req: Request, res: Response): void {
  res.setHeader("Connection", "close");
  const socket = req.socket as Socket | undefined;
  if (!socket) return;
  closing.add(socket);
  // Node's server calls destroySoon once the answer of a "Connection: close" response is written.
  socket.destroySoon = function lingeringClose(this: Socket) {
    req.unpipe();
    req.removeAllListeners("data");
    req.removeAllListeners("readable");
    req.resume();
    this.end();
    const close = () => {
      clearTimeout(timer);
      this.destroy();
    };
    // The client already ended its side: nothing more will come.
    if (this.readableEnded) return close();
    const timer = setTimeout(close, LINGER_MS);
    this.once("end", close);
    this.once("close", () => clearTimeout(timer));
  };
}

export interface Refusal {
  status: 400 | 403 | 405 | 413;
  /** The page's heading. */
  title: string;
  /** One or two sentences, in Spanish, for a person. */
  message: string;
  /** An API's own literal for this answer, where its clients know one (their contract wins over `message`). */
  apiMessages?: Partial<Record<Envelope, string>>;
}

/**
 * Answers `refusal` in the request's own terms: JSON in its API's envelope under /api, the message
 * as text to a page's data request (`*.data`, shown by the page's error boundary), else a small
 * page. Does nothing once an answer has begun. Always closes the connection: the client may still
 * be sending a body nobody reads.
 */
export function refuse(req: Request, res: Response, refusal: Refusal): void {
  if (res.headersSent) return;
  res.status(refusal.status);
  closeAfterAnswer(req, res);
  res.setHeader("Cache-Control", "no-store");
  const envelope = envelopeOf(req.path);
  if (envelope) {
    res.json(apiBody(envelope, refusal.status, refusal.apiMessages?.[envelope] ?? refusal.message));
  } else if (req.path.endsWith(".data")) {
    res.type("text/plain; charset=utf-8").send(refusal.message);
  } else {
    res.type("text/html; charset=utf-8").send(page(refusal.title, refusal.message));
  }
}
