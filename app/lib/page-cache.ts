/**
 * Route `handle` that marks a page as public and identical for every visitor, so the server may
 * keep its HTML per build and serve it like a static file (see server/page-cache.ts).
 */
export const publicPageHandle = { publicCache: true } as const;

/**
 * Route `handle` for a public page, identical for every visitor, whose HTML depends on data that
 * changes (the catalogue's stock and prices): the server keeps its HTML per URL (query included)
 * only while the data of `topic` is unchanged (see app/db/change-feed.server.ts).
 */
export function liveDataPageHandle(topic: "catalogo") {
  return { publicCache: true, liveData: topic } as const;
}

export type PageCachePolicy = { liveData: null } | { liveData: "catalogo" };

/** How the server may cache a route with this handle, or null when it must render every request. */
export function pageCachePolicy(handle: unknown): PageCachePolicy | null {
  if (typeof handle !== "object" || handle === null) return null;
  const { publicCache, liveData } = handle as { publicCache?: unknown; liveData?: unknown };
  if (publicCache !== true) return null;
  if (liveData === undefined) return { liveData: null };
  return liveData === "catalogo" ? { liveData } : null;
}
