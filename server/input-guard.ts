import type { NextFunction, Request, Response } from "express";
import { isStorableText } from "~/lib/request-body";
import { refuse } from "./refusal";

// An address no page or API can mean: its path or query does not decode (a lone "%", "%zz", bytes
// that are not UTF-8) or decodes to NUL or another control character, which PostgreSQL refuses in
// text or no person types. Answered here with a 400 in Spanish, before the page cache, the router
// or a query sees it (docs/decisions/0035).

export const BAD_ADDRESS_MESSAGE = "La dirección tiene caracteres no válidos. Revísela o vuelva a la página de inicio.";

/** Decodes one part of an address; null when it is not valid percent-encoded UTF-8 or holds control characters. */
function decodePart(part: string, plusIsSpace: boolean): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(plusIsSpace ? part.replace(/\+/g, " ") : part);
  } catch {
    return null;
  }
  return isStorableText(decoded) ? decoded : null;
}

/** True when the request's path and every name and value of its query decode to text. */
export function isReadableAddress(url: string): boolean {
  const queryAt = url.indexOf("?");
  const pathname = queryAt >= 0 ? url.slice(0, queryAt) : url;
  if (decodePart(pathname, false) === null) return false;
  if (queryAt < 0) return true;
  const query = url.slice(queryAt + 1).split("#")[0]!;
  return query.split("&").every((pair) => pair.split("=").every((part) => decodePart(part, true) !== null));
}

/** PocketBase's literal for a request it cannot process (what its SDK clients know). */
const POCKETBASE_BAD_REQUEST = "Something went wrong while processing your request.";

export const METHOD_NOT_ALLOWED_MESSAGE = "Este método HTTP no se atiende aquí. Use GET para leer o POST para enviar.";

/**
 * Methods a web Request cannot carry (TRACE, which the fetch standard forbids, like CONNECT and
 * TRACK that Node's HTTP server never hands over): no page or API answers it, and handing it to
 * React Router would throw.
 */
const usableMethods = new Map<string, boolean>();
export function isUsableMethod(method: string): boolean {
  let usable = usableMethods.get(method);
  if (usable === undefined) {
    try {
      new globalThis.Request("http://127.0.0.1/", { method });
      usable = true;
    } catch {
      usable = false;
    }
    if (usableMethods.size < 64) usableMethods.set(method, usable);
  }
  return usable;
}

export function inputGuard() {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!isUsableMethod(req.method)) {
      res.setHeader("Allow", "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS");
      return refuse(req, res, { status: 405, title: "Método no permitido", message: METHOD_NOT_ALLOWED_MESSAGE });
    }
    if (isReadableAddress(req.originalUrl)) return next();
    refuse(req, res, { status: 400, title: "Dirección no válida", message: BAD_ADDRESS_MESSAGE, apiMessages: { pocketbase: POCKETBASE_BAD_REQUEST } });
  };
}
