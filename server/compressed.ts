import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import type { Request, Response } from "express";

// A body compressed once and served many times: hashed assets and cached public pages.

export interface CompressedBody {
  identity: Buffer;
  gzip: Buffer;
  br: Buffer;
}

export function compressOnce(body: Buffer | string): CompressedBody {
  const identity = typeof body === "string" ? Buffer.from(body) : body;
  return {
    identity,
    gzip: gzipSync(identity, { level: 9 }),
    br: brotliCompressSync(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
  };
}

/** Sends the best encoding the client accepts; the compression middleware leaves it alone. */
export function sendCompressed(req: Request, res: Response, body: CompressedBody): void {
  const accepted = req.acceptsEncodings("br", "gzip", "identity");
  const encoding = accepted === "br" || accepted === "gzip" ? accepted : undefined;
  res.setHeader("Vary", "Accept-Encoding");
  if (encoding) res.setHeader("Content-Encoding", encoding);
  const payload = encoding ? body[encoding] : body.identity;
  res.setHeader("Content-Length", payload.length);
  if (req.method === "HEAD") res.end();
  else res.end(payload);
}
