import type { NextFunction, Request, Response } from "express";
import { isStorableText } from "~/lib/request-body";

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

const PAGE = `<!DOCTYPE html><html lang="es-MX"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Dirección no válida | Forja</title></head><body><main><h1>Bad Request</h1><p>${BAD_ADDRESS_MESSAGE}</p><p><a href="/">Ir al inicio</a> · <a href="/cotiza">Solicitar una cotización</a></p></main></body></html>`;

export function inputGuard() {
  return (req: Request, res: Response, next: NextFunction) => {
    if (isReadableAddress(req.originalUrl)) return next();
    res.status(400).setHeader("Cache-Control", "no-store");
    // The API speaks JSON (PocketBase's error shape); pages get a short page in Spanish.
    if (req.originalUrl.startsWith("/api/")) res.json({ status: 400, message: BAD_ADDRESS_MESSAGE, data: {} });
    else res.type("html").send(PAGE);
  };
}
