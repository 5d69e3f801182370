import { createContext } from "react-router";

/** Per-response CSP nonce, set by the server for every request (see server/app.ts). */
export const cspNonceContext = createContext<string>("");

/** The client IP as seen by the server after trusted proxies (rate limits, audit records). */
export const clientIpContext = createContext<string>("");

/** Request id shared with the access log so a Spanish error page can quote it to support. */
export const requestIdContext = createContext<string>("");
