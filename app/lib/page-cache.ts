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
 * changes (the catalogue's stock and prices, published content): the server keeps its HTML per URL (query included)
 * only while the data of `topic` is unchanged (see app/db/change-feed.server.ts).
 */
export function liveDataPageHandle(topic: LiveDataTopic) {
  return { publicCache: true, liveData: topic } as const;
}

/** The data a live page may follow: the catalogue, or the content staff publish (issue 16). */
export type LiveDataTopic = "catalogo" | "contenido";
const LIVE_DATA_TOPICS: readonly unknown[] = ["catalogo", "contenido"] satisfies LiveDataTopic[];

export type PageCachePolicy = { liveData: null; renewAfterMs?: number } | { liveData: LiveDataTopic };

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
  return LIVE_DATA_TOPICS.includes(liveData) ? { liveData: liveData as LiveDataTopic } : null;
}

/**
 * The variant of a cached page being rendered: the server keeps one for visitors whose request
 * carries a session cookie and one for everyone else, and renders both without any cookie, so
 * only the header's label differs (never anyone's data). Null outside the page cache.
 */
export type CachedSessionVariant = "sesion" | "anonima";
export const cachedSessionVariantContext = createContext<CachedSessionVariant | null>(null);
