import { createHash } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import { type RouteObject, type RouterContextProvider, createRequestHandler, matchRoutes, type ServerBuild } from "react-router";
import { routeTreeFromManifest } from "~/lib/app-shell/route-tree";
import { changeVersionOf, createLiveCache, type ChangeTopic } from "~/db/change-feed.server";
import { hasImpersonationCookie, hasSessionCookie } from "~/features/accounts/index.server";
import { cachedSessionVariantContext, LAYOUT_TOPICS, pageCachePolicy, PREVIEW_PARAMETER, type CachedSessionVariant, type PageCachePolicy } from "~/lib/page-cache";
import { compressOnce, sendCompressed, type CompressedBody } from "./compressed";
import { prepareFirstPaint } from "./critical-css";
import { contentSecurityPolicy, protectiveHeaders, STRICT_TRANSPORT_SECURITY } from "./security";

// Public pages are the same for every visitor and change only with a new build or with what staff
// publish, so their HTML is rendered once per process, compressed once, and served like a static
// file. Their inline scripts never change either, so the CSP allows them by hash instead of a nonce.
//
// Every page shows the business facts in its layout (the `ajustes` record, issue 16): a page is kept
// only while they are unchanged, in this or any other process (see app/db/change-feed.server.ts).
// Catalogue and content pages also follow the data they show (their handle's topics: stock and
// prices, the services, the questions…): their HTML is kept per URL (query included) only while
// that data is unchanged, and rendered again after any change. A preview of drafts
// (?vista-previa) is never answered from here.
//
// Pages with a public form carry a signed token issued when they were rendered: they are rendered
// again after their handle's period (docs/decisions/0031-cached-forms.md).
//
// Every page is kept in two variants, for requests with and without a session cookie: both are
// rendered without cookies, so the only difference is the header's "Mi cuenta" or "Iniciar sesión".
//
// A page kept and still current is answered before the rest of the middleware chain (`early`,
// docs/decisions/0042-page-cache-fast-path.md): its headers are computed once, when it is kept.

interface CachedPage {
  status: number;
  etag: string;
  /**
   * Every header of the answer but the request's own (X-Request-Id, HSTS over https) and the body's
   * encoding and length: computed once per kept page, the same whichever way the page is answered.
   */
  headers: [string, string][];
  body: CompressedBody;
}

/** A kept 200 page the early path may answer, for one exact address and session variant. */
interface ReadyPage {
  page: CachedPage;
  /** Until when it is current (a form page's period); Infinity for a build or live page. */
  renewAt: number;
  /** The data's version it was rendered at, over the page's topics (current only while unchanged). */
  topics: readonly ChangeTopic[];
  version: string;
}

interface KeptPage {
  page: Promise<CachedPage | undefined>;
  /** When it is rendered again (Infinity: kept until the layout's data changes). */
  renewAt: number;
  version: string;
}

/** Distinct catalogue URLs (searches, filters, pages) kept at once; the least recently used goes first. */
const LIVE_PAGES_MAX = 300;
/** Route matches remembered by path; cleared when full (product slugs are unbounded). */
const POLICIES_MAX = 2_000;
/**
 * Addresses the early path knows (per variant); the least recently kept goes first (it is then
 * answered by the normal path, and known again). Its pages are mostly the ones the caches above
 * hold, not copies.
 */
const READY_MAX = 2 * LIVE_PAGES_MAX;

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
  // One per set of topics a handle lists: a page is kept while the data it follows is unchanged.
  const livePages = new Map<string, ReturnType<typeof createLiveCache<CachedPage | undefined>>>();
  const policies = new Map<string, { policy: PageCachePolicy; topics: readonly ChangeTopic[] } | null>();

  function livePagesFor(topics: readonly ChangeTopic[]) {
    const key = topics.join(" ");
    let cache = livePages.get(key);
    if (!cache) livePages.set(key, (cache = createLiveCache<CachedPage | undefined>(topics, LIVE_PAGES_MAX)));
    return cache;
  }
  let tree: RouteObject[] | undefined;
  let handler: ReturnType<typeof createRequestHandler> | undefined;
  let build: ServerBuild | undefined;

  async function policyFor(pathname: string) {
    const known = policies.get(pathname);
    if (known !== undefined) return known;
    build ??= await options.getBuild();
    tree ??= routeTreeFromManifest(build.routes);
    const leaf = matchRoutes(tree, pathname)?.at(-1)?.route;
    const policy = leaf?.id ? pageCachePolicy(build.routes[leaf.id]?.module.handle) : null;
    const found = policy && { policy, topics: [...LAYOUT_TOPICS, ...(policy.liveData ?? []).filter((topic) => !LAYOUT_TOPICS.includes(topic))] };
    if (policies.size >= POLICIES_MAX) policies.clear();
    policies.set(pathname, found);
    return found;
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
    const etag = `"${createHash("sha256").update(html).digest("base64url").slice(0, 27)}"`;
    return {
      status: response.status,
      etag,
      headers: [
        ...[...response.headers.entries()].filter(([name]) => KEPT_HEADERS.has(name.toLowerCase())),
        ["Content-Security-Policy", contentSecurityPolicy({ hashes: inlineScriptHashes(html) }, false)],
        ...protectiveHeaders(req.path),
        ["Cache-Control", "no-cache"],
        ["Vary", "Cookie, Accept-Encoding"],
        ...(response.status === 200 ? [["ETag", etag] as [string, string]] : []),
      ],
      // A live page is compressed again after every change: a quicker level keeps that cheap.
      body: compressOnce(html, live ? "fast" : "best"),
    };
  }

  function buildPage(req: Request, res: Response, variant: CachedSessionVariant, version: string, renewAfterMs = Infinity): KeptPage {
    const key = `${variant} ${req.path}`;
    const kept = pages.get(key);
    if (kept && Date.now() < kept.renewAt && kept.version === version) return kept;
    // Counted from before the render, so a form's token is never older than the period when served.
    const entry: KeptPage = { page: render(req.path, req, res, false, variant), renewAt: Date.now() + renewAfterMs, version };
    pages.set(key, entry);
    // A page that failed or was not cacheable is rendered normally and tried again next time.
    const forget = () => pages.get(key) === entry && pages.delete(key);
    entry.page.then((page) => page ?? forget(), forget);
    return entry;
  }

  // What the early path answers, by session variant and the exact address as received. Only the
  // normal path below adds to it, after the whole chain let that very address through (input
  // guard, static files, canonical redirect): the early path never answers an address the chain
  // has not seen, and the chain's answer to an address depends on nothing else for a bodiless GET.
  const ready = new Map<string, ReadyPage>();

  function remember(key: string, entry: ReadyPage): void {
    ready.delete(key);
    ready.set(key, entry);
    if (ready.size > READY_MAX) ready.delete(ready.keys().next().value!);
  }

  function isCurrent(entry: ReadyPage): boolean {
    if (Date.now() >= entry.renewAt) return false;
    const version = changeVersionOf(entry.topics);
    // While changes cannot be followed (PostgreSQL is away, or its notifications are), the page kept
    // last is served as it is rather than rendered against a database that cannot answer (a 503);
    // when the feed listens again its epoch changes, and every page kept before is rendered again.
    return version === undefined || version === entry.version;
  }

  async function serve(req: Request, res: Response, next: NextFunction) {
    // React Router's own answers: data, and route discovery (/__manifest, immutable per build, docs/decisions/0064).
    if ((req.method !== "GET" && req.method !== "HEAD") || req.path.endsWith(".data") || req.path === "/__manifest") return next();
    if (isPreview(req.url) || hasImpersonationCookie(req.headers.cookie)) return next();
    try {
      const found = await policyFor(req.path);
      if (!found) return next();
      const { policy, topics } = found;
      let page: CachedPage | undefined;
      const variant = sessionVariant(req);
      const key = `${variant} ${req.originalUrl}`;
      // Read before the cache does, in the same tick: the version the page it gives was rendered at.
      // None while changes cannot be followed: the page is then rendered for every request.
      const version = changeVersionOf(topics);
      // Only 200 pages are kept; a 404 or a redirect is sent as rendered, once.
      if (policy.liveData) {
        page = await livePagesFor(topics).get(`${variant} ${req.url}`, () => render(req.url, req, res, true, variant), (rendered) => rendered?.status === 200);
        if (page?.status === 200 && version !== undefined) remember(key, { page, renewAt: Infinity, topics, version });
      } else if (version !== undefined && !req.url.includes("?")) {
        // Build pages take no query: one with a query (tracking tags, mistakes) is rendered normally.
        const kept = buildPage(req, res, variant, version, policy.renewAfterMs);
        page = await kept.page;
        if (page) remember(key, { page, renewAt: kept.renewAt, topics, version });
      }
      if (!page) return next();
      sendPage(req, res, page);
    } catch (error) {
      next(error);
    }
  }

  /**
   * The early path, before the middleware chain (right after the access log): a bodiless GET or
   * HEAD of an address whose page is kept and current is answered from memory; anything else goes
   * on through the chain. The answer is the same, header for header, as the normal path's.
   */
  function early(req: Request, res: Response, next: NextFunction) {
    if ((req.method !== "GET" && req.method !== "HEAD") || hasBody(req)) return next();
    // An admin seeing the site as a customer gets every page rendered, with its banner (0063).
    if (hasImpersonationCookie(req.headers.cookie)) return next();
    const entry = ready.get(`${sessionVariant(req)} ${req.originalUrl}`);
    if (!entry || !isCurrent(entry)) return next();
    res.locals.earlyPage = true;
    sendPage(req, res, entry.page);
  }

  return { early, serve };
}

const PREVIEW = new RegExp(`[?&]${PREVIEW_PARAMETER}(?:[=&]|$)`);

/** A staff preview of drafts: rendered for its request, never kept nor answered from memory. */
function isPreview(url: string): boolean {
  return url.includes("?") && PREVIEW.test(url);
}

/** A GET may carry a body: such a request takes the whole chain (body limits and all). */
function hasBody(req: Request): boolean {
  const length = req.headers["content-length"];
  return req.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}

function sessionVariant(req: Request): CachedSessionVariant {
  return hasSessionCookie(req.headers.cookie) ? "sesion" : "anonima";
}

/** A kept page's answer: its headers as computed once, then 304 or the body in the accepted encoding. */
function sendPage(req: Request, res: Response, page: CachedPage): void {
  for (const [name, value] of page.headers) res.setHeader(name, value);
  if (req.secure) res.setHeader(...STRICT_TRANSPORT_SECURITY);
  if (page.status === 200 && req.headers["if-none-match"] === page.etag) {
    res.statusCode = 304;
    return void res.end();
  }
  res.statusCode = page.status;
  sendCompressed(req, res, page.body);
}
