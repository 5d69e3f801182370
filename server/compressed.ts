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

type Encoding = "br" | "gzip" | "identity";

/** Accept-Encoding values seen, with the encoding chosen for each: clients send few distinct ones. */
const chosenEncodings = new Map<string, Encoding>();
const CHOSEN_ENCODINGS_MAX = 64;
const CHOSEN_ENCODING_HEADER_MAX = 256;

/**
 * The encoding to send: brotli or gzip when the client accepts it (its preference first), else the
 * plain body (also when it refuses identity: better than a 406). The choice depends only on the
 * Accept-Encoding header, so it is worked out once per distinct header value.
 */
export function chosenEncoding(req: Request): Encoding {
  const header = req.headers["accept-encoding"] ?? "";
  const known = chosenEncodings.get(header);
  if (known) return known;
  const accepted = req.acceptsEncodings("br", "gzip", "identity");
  const encoding: Encoding = accepted === "br" || accepted === "gzip" ? accepted : "identity";
  if (header.length <= CHOSEN_ENCODING_HEADER_MAX) {
    if (chosenEncodings.size >= CHOSEN_ENCODINGS_MAX) chosenEncodings.clear();
    chosenEncodings.set(header, encoding);
  }
  return encoding;
}

/** Sends the best encoding the client accepts; the compression middleware leaves it alone. */
export function sendCompressed(req: Request, res: Response, body: CompressedBody): void {
  const encoding = chosenEncoding(req);
  res.vary("Accept-Encoding");
  if (encoding !== "identity") res.setHeader("Content-Encoding", encoding);
  const payload = body[encoding];
  res.setHeader("Content-Length", payload.length);
  if (req.method === "HEAD") res.end();
  else res.end(payload);
}
