import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import type { Request, Response } from "express";

// A body compressed once and served many times: hashed assets and cached public pages.

export interface CompressedBody {
  identity: Buffer;
  gzip: Buffer;
  br: Buffer;
}

/** "best" for bodies compressed once per build; "fast" for bodies compressed again after each data change. */
export function compressOnce(body: Buffer | string, effort: "best" | "fast" = "best"): CompressedBody {
  const identity = typeof body === "string" ? Buffer.from(body) : body;
  const best = effort === "best";
  return {
    identity,
    gzip: gzipSync(identity, { level: best ? 9 : 6 }),
    br: brotliCompressSync(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: best ? 11 : 5 } }),
  };
}

/** Sends the best encoding the client accepts; the compression middleware leaves it alone. */
export function sendCompressed(req: Request, res: Response, body: CompressedBody): void {
  const accepted = req.acceptsEncodings("br", "gzip", "identity");
  const encoding = accepted === "br" || accepted === "gzip" ? accepted : undefined;
  res.vary("Accept-Encoding");
  if (encoding) res.setHeader("Content-Encoding", encoding);
  const payload = encoding ? body[encoding] : body.identity;
  res.setHeader("Content-Length", payload.length);
  if (req.method === "HEAD") res.end();
  else res.end(payload);
}
