import { createHash } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import { type RouteObject, type RouterContextProvider, createRequestHandler, matchRoutes, type ServerBuild } from "react-router";
import { routeTreeFromManifest } from "~/lib/app-shell/route-tree";
import { isPublicCacheHandle } from "~/lib/page-cache";
import { compressOnce, sendCompressed, type CompressedBody } from "./compressed";
import { contentSecurityPolicy } from "./security";

// Public pages are the same for every visitor and change only with a new build, so their HTML is
// rendered once per process and build, compressed once, and served like a static file. Their
// inline scripts never change either, so the CSP allows them by hash instead of a nonce.

interface CachedPage {
  etag: string;
  headers: [string, string][];
  csp: string;
  body: CompressedBody;
}

const KEPT_HEADERS = new Set(["content-type", "link"]);
const INLINE_SCRIPT = /<script(?![^>]*\ssrc=)([^>]*)>([\s\S]*?)<\/script>/g;

/** sha256 (base64) of every executable inline script: the CSP sources for the cached page. */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const [, attributes, content] of html.matchAll(INLINE_SCRIPT)) {
    if (/type="application\/(ld\+)?json"/.test(attributes)) continue;
    hashes.add(createHash("sha256").update(content).digest("base64"));
  }
  return [...hashes];
}

export function createPageCache(options: {
  getBuild: () => Promise<ServerBuild>;
  createContext: (req: Request, res: Response, nonce: string) => RouterContextProvider;
  publicUrl: string;
}) {
  // Promises, so concurrent first requests for a page share one render.
  const pages = new Map<string, Promise<CachedPage | undefined>>();
  let tree: RouteObject[] | undefined;
  let handler: ReturnType<typeof createRequestHandler> | undefined;
  let build: ServerBuild | undefined;

  async function isCacheable(pathname: string): Promise<boolean> {
    build ??= await options.getBuild();
    tree ??= routeTreeFromManifest(build.routes);
    const leaf = matchRoutes(tree, pathname)?.at(-1)?.route;
    return Boolean(leaf?.id && isPublicCacheHandle(build.routes[leaf.id]?.module.handle));
  }

  async function render(req: Request, res: Response): Promise<CachedPage | undefined> {
    handler ??= createRequestHandler(build!, "production");
    const request = new Request(new URL(req.path, options.publicUrl), { headers: { accept: "text/html" } });
    const response = await handler(request, options.createContext(req, res, ""));
    const html = await response.text();
    if (response.status !== 200 || response.headers.has("set-cookie")) return undefined;
    return {
      etag: `"${createHash("sha256").update(html).digest("base64url").slice(0, 27)}"`,
      headers: [...response.headers.entries()].filter(([name]) => KEPT_HEADERS.has(name.toLowerCase())),
      csp: contentSecurityPolicy({ hashes: inlineScriptHashes(html) }, false),
      body: compressOnce(html),
    };
  }

  return async function pageCache(req: Request, res: Response, next: NextFunction) {
    if ((req.method !== "GET" && req.method !== "HEAD") || req.url.includes("?") || req.path.endsWith(".data")) return next();
    try {
      let pending = pages.get(req.path);
      if (!pending) {
        if (!(await isCacheable(req.path))) return next();
        pending = render(req, res);
        pages.set(req.path, pending);
        // A page that failed or was not cacheable is rendered normally and tried again next time.
        pending.then((page) => page ?? pages.delete(req.path), () => pages.delete(req.path));
      }
      const page = await pending;
      if (!page) return next();
      for (const [name, value] of page.headers) res.setHeader(name, value);
      res.setHeader("Content-Security-Policy", page.csp);
      res.setHeader("Cache-Control", "no-cache");
      res.setHeader("ETag", page.etag);
      if (req.get("if-none-match") === page.etag) return void res.status(304).end();
      sendCompressed(req, res, page.body);
    } catch (error) {
      next(error);
    }
  };
}
