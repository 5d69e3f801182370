/**
 * Route `handle` that marks a page as public and identical for every visitor, so the server may
 * keep its HTML per build and serve it like a static file (see server/page-cache.ts).
 */
export const publicPageHandle = { publicCache: true } as const;

export function isPublicCacheHandle(handle: unknown): boolean {
  return typeof handle === "object" && handle !== null && (handle as { publicCache?: unknown }).publicCache === true;
}
