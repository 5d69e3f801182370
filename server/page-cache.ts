import { createHash } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import { type RouteObject, type RouterContextProvider, createRequestHandler, matchRoutes, type ServerBuild } from "react-router";
import { routeTreeFromManifest } from "~/lib/app-shell/route-tree";
import { createLiveCache } from "~/db/change-feed.server";
import { hasSessionCookie } from "~/features/accounts/index.server";
import { cachedSessionVariantContext, pageCachePolicy, type CachedSessionVariant, type PageCachePolicy } from "~/lib/page-cache";
import { compressOnce, sendCompressed, type CompressedBody } from "./compressed";
import { prepareFirstPaint } from "./critical-css";
import { contentSecurityPolicy } from "./security";

// Public pages are the same for every visitor and change only with a new build, so their HTML is
// rendered once per process and build, compressed once, and served like a static file. Their
// inline scripts never change either, so the CSP allows them by hash instead of a nonce.
//
// Catalogue pages are the same for every visitor too, but show live stock and prices: their HTML
// is kept per URL (query included) only while the catalogue's tables are unchanged, in this or any
// other process (see app/db/change-feed.server.ts), and rendered again after any change.
//
// Pages with a public form carry a signed token issued when they were rendered: they are rendered
// again after their handle's period (docs/decisions/0031-cached-forms.md).
//
// Every page is kept in two variants, for requests with and without a session cookie: both are
// rendered without cookies, so the only difference is the header's "Mi cuenta" or "Iniciar sesión".

interface CachedPage {
  status: number;
  etag: string;
  headers: [string, string][];
  csp: string;
  body: CompressedBody;
}

interface KeptPage {
  page: Promise<CachedPage | undefined>;
  /** When it is rendered again (Infinity: kept for the life of the build). */
  renewAt: number;
}

/** Distinct catalogue URLs (searches, filters, pages) kept at once; the least recently used goes first. */
const LIVE_PAGES_MAX = 300;
/** Route matches remembered by path; cleared when full (product slugs are unbounded). */
const POLICIES_MAX = 2_000;

const KEPT_HEADERS = new Set(["content-type", "link", "location"]);
/** Answers of a live page sent as rendered for the cache (never kept), so they are not rendered twice. */
const SENT_AS_RENDERED = new Set([301, 302, 303, 307, 308, 404]);
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
  const pages = new Map<string, KeptPage>();
  const livePages = createLiveCache<CachedPage | undefined>("catalogo", LIVE_PAGES_MAX);
  const policies = new Map<string, PageCachePolicy | null>();
  let tree: RouteObject[] | undefined;
  let handler: ReturnType<typeof createRequestHandler> | undefined;
  let build: ServerBuild | undefined;

  async function policyFor(pathname: string): Promise<PageCachePolicy | null> {
    const known = policies.get(pathname);
    if (known !== undefined) return known;
    build ??= await options.getBuild();
    tree ??= routeTreeFromManifest(build.routes);
    const leaf = matchRoutes(tree, pathname)?.at(-1)?.route;
    const policy = leaf?.id ? pageCachePolicy(build.routes[leaf.id]?.module.handle) : null;
    if (policies.size >= POLICIES_MAX) policies.clear();
    policies.set(pathname, policy);
    return policy;
  }

  /**
   * Renders `url` as an anonymous visitor would see it. Undefined when the answer must go through
   * the normal handler instead: it sets a cookie, it is an error, or (for a build page) it is not a
   * plain 200.
   */
  async function render(url: string, req: Request, res: Response, live: boolean, variant: CachedSessionVariant): Promise<CachedPage | undefined> {
    handler ??= createRequestHandler(build!, "production");
    const request = new Request(new URL(url, options.publicUrl), { headers: { accept: "text/html" } });
    const context = options.createContext(req, res, "");
    context.set(cachedSessionVariantContext, variant);
    const response = await handler(request, context);
    const html = await prepareFirstPaint(await response.text());
    if (response.headers.has("set-cookie")) return undefined;
    if (response.status !== 200 && !(live && SENT_AS_RENDERED.has(response.status))) return undefined;
    return {
      status: response.status,
      etag: `"${createHash("sha256").update(html).digest("base64url").slice(0, 27)}"`,
      headers: [...response.headers.entries()].filter(([name]) => KEPT_HEADERS.has(name.toLowerCase())),
      csp: contentSecurityPolicy({ hashes: inlineScriptHashes(html) }, false),
      // A live page is compressed again after every change: a quicker level keeps that cheap.
      body: compressOnce(html, live ? "fast" : "best"),
    };
  }

  function buildPage(req: Request, res: Response, variant: CachedSessionVariant, renewAfterMs = Infinity): Promise<CachedPage | undefined> {
    const key = `${variant} ${req.path}`;
    const kept = pages.get(key);
    if (kept && Date.now() < kept.renewAt) return kept.page;
    // Counted from before the render, so a form's token is never older than the period when served.
    const entry: KeptPage = { page: render(req.path, req, res, false, variant), renewAt: Date.now() + renewAfterMs };
    pages.set(key, entry);
    // A page that failed or was not cacheable is rendered normally and tried again next time.
    const forget = () => pages.get(key) === entry && pages.delete(key);
    entry.page.then((page) => page ?? forget(), forget);
    return entry.page;
  }

  return async function pageCache(req: Request, res: Response, next: NextFunction) {
    if ((req.method !== "GET" && req.method !== "HEAD") || req.path.endsWith(".data")) return next();
    try {
      const policy = await policyFor(req.path);
      if (!policy) return next();
      let page: CachedPage | undefined;
      const variant: CachedSessionVariant = hasSessionCookie(req.get("cookie")) ? "sesion" : "anonima";
      // Only 200 pages are kept; a 404 or a redirect is sent as rendered, once.
      if (policy.liveData) page = await livePages.get(`${variant} ${req.url}`, () => render(req.url, req, res, true, variant), (rendered) => rendered?.status === 200);
      // Build pages take no query: one with a query (tracking tags, mistakes) is rendered normally.
      else if (!req.url.includes("?")) page = await buildPage(req, res, variant, policy.renewAfterMs);
      if (!page) return next();
      for (const [name, value] of page.headers) res.setHeader(name, value);
      res.setHeader("Content-Security-Policy", page.csp);
      res.setHeader("Cache-Control", "no-cache");
      res.vary("Cookie");
      res.status(page.status);
      if (page.status === 200) {
        res.setHeader("ETag", page.etag);
        if (req.get("if-none-match") === page.etag) return void res.status(304).end();
      }
      sendCompressed(req, res, page.body);
    } catch (error) {
      next(error);
    }
  };
}
