import { createContext } from "react-router";

/**
 * Route `handle` that marks a page as public and identical for every visitor, so the server may
 * keep its HTML per build and serve it like a static file (see server/page-cache.ts).
 */
export const publicPageHandle = { publicCache: true } as const;

/** How long a cached form page is kept before it is rendered again (docs/decisions/0031). */
export const FORM_PAGE_RENEW_MS = 60 * 60 * 1000;

/**
 * Route `handle` for a public page with a form: kept like a build page, but rendered again after
 * FORM_PAGE_RENEW_MS, so the signed token in its HTML (issued when it was rendered) is never older
 * than that when a visitor loads it.
 */
export const publicFormPageHandle = { publicCache: true, renewAfterMs: FORM_PAGE_RENEW_MS } as const;

/**
 * Route `handle` for a public page, identical for every visitor, whose HTML depends on data that
 * changes (the catalogue's stock and prices, the content staff publish): the server keeps its HTML
 * per URL (query included) only while the data of every topic listed is unchanged (see
 * app/db/change-feed.server.ts). List exactly what the page reads: publishing a question re-renders
 * /faqs, not the services. The layout's business facts (`contenido:ajustes`) are followed by every
 * cached page without being listed (LAYOUT_TOPICS).
 */
export function liveDataPageHandle(...topics: [LiveDataTopic, ...LiveDataTopic[]]) {
  return { publicCache: true, liveData: topics } as const;
}

/** Data a live page may follow: the catalogue, or one collection of the content staff publish (issue 16). */
export type LiveDataTopic = "catalogo" | `contenido:${string}`;

/**
 * What every cached public page shows through the site layout: the business facts (header, footer)
 * and the library's images (the logo; the pictures staff choose for pages, services and industries,
 * whose alt text and focal crops a page's HTML carries).
 */
export const LAYOUT_TOPICS: readonly LiveDataTopic[] = ["contenido:ajustes", "contenido:medios"];

const CONTENT_TOPIC = /^contenido:[a-z_]+$/;

function isLiveDataTopic(topic: unknown): topic is LiveDataTopic {
  return topic === "catalogo" || (typeof topic === "string" && CONTENT_TOPIC.test(topic));
}

/**
 * `topics`: what the page follows besides the layout (null: only the layout, kept per path without
 * query; a form page is also renewed after `renewAfterMs`).
 */
export type PageCachePolicy = { liveData: null; renewAfterMs?: number } | { liveData: readonly LiveDataTopic[] };

/** How the server may cache a route with this handle, or null when it must render every request. */
export function pageCachePolicy(handle: unknown): PageCachePolicy | null {
  if (typeof handle !== "object" || handle === null) return null;
  const { publicCache, liveData, renewAfterMs } = handle as { publicCache?: unknown; liveData?: unknown; renewAfterMs?: unknown };
  if (publicCache !== true) return null;
  if (renewAfterMs !== undefined) {
    // Only build pages renew by time; a malformed period would keep a form's token forever.
    const valid = typeof renewAfterMs === "number" && Number.isFinite(renewAfterMs) && renewAfterMs > 0;
    return valid && liveData === undefined ? { liveData: null, renewAfterMs } : null;
  }
  if (liveData === undefined) return { liveData: null };
  // An unknown topic would never be invalidated: such a page is not cached at all.
  return Array.isArray(liveData) && liveData.length > 0 && liveData.every(isLiveDataTopic) ? { liveData: [...new Set(liveData)] } : null;
}

/** A request to see drafts at a page's real address (issue 16, «Vista previa»): never cached. */
export const PREVIEW_PARAMETER = "vista-previa";

/**
 * The variant of a cached page being rendered: the server keeps one for visitors whose request
 * carries a session cookie and one for everyone else, and renders both without any cookie, so
 * only the header's label differs (never anyone's data). Null outside the page cache.
 */
export type CachedSessionVariant = "sesion" | "anonima";
export const cachedSessionVariantContext = createContext<CachedSessionVariant | null>(null);
