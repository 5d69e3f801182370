import type { RouterContextProvider } from "react-router";
import { clientIpContext } from "./request-context";

/** The request plus the client IP our server trusts: what feature commands need to know. */
export function requestMeta(request: Request, context: Readonly<RouterContextProvider>): { request: Request; ip: string } {
  return { request, ip: context.get(clientIpContext) };
}
