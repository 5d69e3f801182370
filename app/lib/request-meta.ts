import type { RouterContextProvider } from "react-router";
import { clientIpContext } from "./request-context";

/** The request plus the client IP our server trusts (from the trusted-proxy setting). */
export interface RequestMeta {
  request: Request;
  ip: string;
}

/** What the accounts adapter needs to read a session: the request and the client IP. */
export function requestMeta(request: Request, context: Readonly<RouterContextProvider>): RequestMeta {
  return { request, ip: context.get(clientIpContext) };
}
