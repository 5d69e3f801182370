/**
 * The address of the page a request is for. On client navigations React Router asks loaders for
 * "/path.data" ("/_.data" for "/") with a `_routes` parameter; people and redirects want "/path".
 */
export function pageUrl(request: Request | string): URL {
  const url = new URL(typeof request === "string" ? request : request.url);
  if (url.pathname.endsWith("/_.data")) url.pathname = url.pathname.slice(0, -"_.data".length) || "/";
  else if (url.pathname.endsWith(".data")) url.pathname = url.pathname.slice(0, -".data".length);
  url.searchParams.delete("_routes");
  return url;
}

/** Path and query of the page, for `redirectTo` parameters. */
export function pagePathWithSearch(request: Request): string {
  const url = pageUrl(request);
  return url.pathname + url.search;
}
