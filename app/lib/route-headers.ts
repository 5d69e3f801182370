import type { HeadersFunction } from "react-router";

/**
 * Document responses keep only the headers a route's `headers` export gives. Forms that can answer
 * 429 need their action's Retry-After on the page response too.
 */
export const formHeaders: HeadersFunction = ({ actionHeaders, loaderHeaders }) => {
  const headers = new Headers(loaderHeaders);
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
};
