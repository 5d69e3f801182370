import type { NextFunction, Request, Response } from "express";
import { type RouteObject, type RouterContextProvider, createRequestHandler, matchRoutes, type ServerBuild } from "react-router";
import { routeTreeFromManifest } from "~/lib/app-shell/route-tree";
import { isPublicCacheHandle } from "~/lib/page-cache";

// Public pages are the same for every visitor and only change with a new build, so their HTML is
// rendered once per process and build and then served like a static file. The nonce is rendered
// as a placeholder and replaced per response, so every response still has its own CSP nonce.

export const NONCE_PLACEHOLDER = "FORJAcspNONCEplaceholder0000000";

interface CachedPage {
  status: number;
  headers: [string, string][];
  body: string;
}

const SKIPPED_HEADERS = new Set(["content-length", "set-cookie", "date", "connection", "transfer-encoding"]);

export function createPageCache(options: {
  getBuild: () => Promise<ServerBuild>;
  createContext: (req: Request, res: Response, nonce: string) => RouterContextProvider;
  publicUrl: string;
}) {
  const pages = new Map<string, CachedPage>();
  let tree: RouteObject[] | undefined;
  let handler: ReturnType<typeof createRequestHandler> | undefined;
  let build: ServerBuild | undefined;

  async function isCacheable(pathname: string): Promise<boolean> {
    build ??= await options.getBuild();
    tree ??= routeTreeFromManifest(build.routes);
    const matches = matchRoutes(tree, pathname);
    const leaf = matches?.at(-1)?.route;
    return Boolean(leaf?.id && isPublicCacheHandle(build.routes[leaf.id]?.module.handle));
  }

  function send(res: Response, page: CachedPage) {
    const nonce = String(res.locals.cspNonce ?? "");
    res.status(page.status);
    for (const [name, value] of page.headers) res.setHeader(name, value);
    res.setHeader("X-Page-Cache", "hit");
    res.send(page.body.replaceAll(NONCE_PLACEHOLDER, nonce));
  }

  return async function pageCache(req: Request, res: Response, next: NextFunction) {
    try {
      if (req.method !== "GET" || req.url.includes("?") || req.path.endsWith(".data")) return next();
      const cached = pages.get(req.path);
      if (cached) return send(res, cached);
      if (!(await isCacheable(req.path))) return next();

      handler ??= createRequestHandler(build!, "production");
      const request = new Request(new URL(req.originalUrl, options.publicUrl), { headers: { accept: "text/html" } });
      const response = await handler(request, options.createContext(req, res, NONCE_PLACEHOLDER));
      const body = await response.text();
      const headers = [...response.headers.entries()].filter(([name]) => !SKIPPED_HEADERS.has(name.toLowerCase()));
      const page = { status: response.status, headers, body };
      if (response.status === 200 && !response.headers.has("set-cookie")) pages.set(req.path, page);
      send(res, page);
    } catch (error) {
      next(error);
    }
  };
}
