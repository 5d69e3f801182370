import fs from "node:fs/promises";
import path from "node:path";
import type { NextFunction, Request, Response } from "express";
import { compressOnce, sendCompressed, type CompressedBody } from "./compressed";

// Text assets worth compressing; anything else falls through to express.static.
const COMPRESSIBLE: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".json": "application/json",
};
const MAX_CACHED_BYTES = 64 * 1024 * 1024;
export const IMMUTABLE = "public, max-age=31536000, immutable";

/**
 * Hashed build assets (/assets/*): their content never changes, so each text file is read and
 * compressed once per process and served from memory with a one-year immutable cache header.
 */
export function hashedAssets(directory: string) {
  // Promises, so concurrent first requests share one read and compression.
  const cache = new Map<string, Promise<CompressedBody>>();
  let cachedBytes = 0;

  return async (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const name = req.path.slice(1);
    const type = COMPRESSIBLE[path.extname(name)];
    // Only plain file names: no directories, no traversal, no dotfiles.
    if (!type || !/^[\w.-]+$/.test(name) || name.startsWith(".")) return next();
    try {
      let pending = cache.get(name);
      if (!pending) {
        pending = fs.readFile(path.join(directory, name)).then(compressOnce);
        cache.set(name, pending);
        const body = await pending.catch((error) => {
          cache.delete(name);
          throw error;
        });
        cachedBytes += body.identity.length + body.gzip.length + body.br.length;
        if (cachedBytes > MAX_CACHED_BYTES) cache.delete(name);
      }
      const body = await pending;
      res.setHeader("Content-Type", type);
      res.setHeader("Cache-Control", IMMUTABLE);
      sendCompressed(req, res, body);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return next();
      next(error);
    }
  };
}
