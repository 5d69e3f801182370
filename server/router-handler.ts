import type { IncomingMessage } from "node:http";
import { writeReadableStreamToWritable } from "@react-router/node";
import type { Request, RequestHandler, Response } from "express";
import { createRequestHandler, type RouterContextProvider, type ServerBuild } from "react-router";
import { hasImpersonationCookie, hasSessionCookie } from "~/features/accounts/index.server";

// Express in front of React Router (docs/decisions/0072). React Router's Express adapter turns the
// request's body into a web stream that copies every chunk the HTTP parser hands over
// (`new Uint8Array(chunk)`). For a 5 MB upload that is 5 MB more to allocate, copy and collect per
// request, on the thread that serves every page; twenty at once made V8 run a full collection
// every few uploads. Here each chunk goes on as the parser made it: its own buffer, which the upload
// thread can then take without a copy (services/files/multipart.server.ts). The rest does what the
// adapter does: the request's address as Express sees it (behind a trusted proxy, the forwarded
// host and protocol), an abort signal when the client goes away, the response streamed back.

type Build = ServerBuild | (() => Promise<ServerBuild>);

/** A host is letters, digits, dots, dashes, an IPv6 literal and a port; anything else is not a host. */
const HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * The address the client asked for, as Express sees it (`trust proxy` decides whether X-Forwarded-*
 * count). A Host that is not a host name, or that the URL parser refuses (an IPv4 address past 255,
 * a port past 65535), is taken for localhost: a bad header must not make the page fail.
 */
export function requestUrl(req: Request): URL {
  const host = req.host && HOST.test(req.host) ? req.host : "localhost";
  try {
    return new URL(`${req.protocol}://${host}${req.originalUrl}`);
  } catch {
    return new URL(`${req.protocol}://localhost${req.originalUrl}`);
  }
}

/**
 * The body as a web stream of the parser's own chunks. Reading pauses the socket when the stream's
 * queue is full and resumes it when the reader asks for more. A body that fails (the client went
 * away, or body-limit.ts refused it) fails the stream; so does a connection that closes before the
 * body's end, so a reader never takes a truncated body for a whole one. A reader that cancels gets
 * nothing more, and what is left of the body is read and dropped.
 */
export function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let settled = false;
  const detach = () => {
    settled = true;
    req.off("data", onData);
    req.off("end", onEnd);
    req.off("error", onError);
    req.off("close", onClose);
  };
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const onData = (chunk: Buffer | string) => {
    controller.enqueue(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
    if ((controller.desiredSize ?? 0) <= 0) req.pause();
  };
  const onEnd = () => {
    detach();
    controller.close();
  };
  const onError = (error: Error) => {
    detach();
    controller.error(error);
  };
  const onClose = () => {
    if (!settled) onError(new Error("the connection closed before the end of the request body"));
  };
  return new ReadableStream<Uint8Array>(
    {
      start(given) {
        controller = given;
        req.on("data", onData);
        req.once("end", onEnd);
        req.once("error", onError);
        req.once("close", onClose);
      },
      pull() {
        if (!settled && req.readable) req.resume();
      },
      cancel() {
        // The reader wants no more (an upload refused before its end). Destroying an unfinished
        // request would destroy its socket, and the client would get a reset instead of the answer
        // still to be written: the rest is dropped instead, and the answer closes the connection
        // after it (closeAfterUnreadBody in app.ts, server/refusal.ts).
        detach();
        req.resume();
      },
    },
    // As much queued as Node's own stream would hold, counted in bytes.
    { highWaterMark: req.readableHighWaterMark, size: (chunk) => chunk.byteLength },
  );
}

/** React Router's request for Express's: address, method, headers, body and an abort signal. */
export function toWebRequest(req: Request, res: Response): globalThis.Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const each of value) headers.append(name, each);
    else if (value !== undefined) headers.set(name, value);
  }
  const controller = new AbortController();
  let answered = false;
  res.once("finish", () => (answered = true));
  res.once("close", () => answered || controller.abort());
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  return new globalThis.Request(requestUrl(req), {
    method: req.method,
    headers,
    signal: controller.signal,
    ...(hasBody ? { body: bodyStream(req), duplex: "half" } : {}),
  } as RequestInit);
}

const closed = (res: Response) => res.destroyed || res.writableEnded;

/** Where every answer is about one person (an account, a cart, an order, a quote, the staff's panel). */
const PRIVATE_PATHS = /^\/(?:admin|cuenta|quotes|checkout|carrito|login|registro|recuperar)(?:[/.?]|$)/i;

/**
 * Whether an answer is for one person only: a signed-in request (session cookie, impersonation or
 * an Authorization header), or a private area. Unless its route says otherwise, such an answer is
 * `private, no-store`: no shared cache keeps it, and the browser does not show it again from its
 * history after signing out. Public pages for visitors without a session keep their own headers (the
 * page cache serves them with `no-cache` and `Vary: Cookie`).
 */
export function isPersonalRequest(req: Pick<Request, "headers" | "path">): boolean {
  return Boolean(req.headers.authorization) || hasSessionCookie(req.headers.cookie) || hasImpersonationCookie(req.headers.cookie) || PRIVATE_PATHS.test(req.path);
}

/** Writes React Router's response to Express's, streaming its body. */
export async function sendWebResponse(res: Response, response: globalThis.Response, options: { personal?: boolean } = {}): Promise<void> {
  if (closed(res)) {
    await response.body?.cancel();
    return;
  }
  res.statusMessage = response.statusText;
  res.status(response.status);
  // Iterating Headers gives each Set-Cookie on its own.
  for (const [name, value] of response.headers) res.append(name, value);
  if (options.personal && !response.headers.has("cache-control")) res.setHeader("Cache-Control", "private, no-store");
  if (/text\/event-stream/i.test(response.headers.get("content-type") ?? "")) res.flushHeaders();
  if (!response.body) {
    res.end();
    return;
  }
  try {
    await writeReadableStreamToWritable(response.body, res);
  } catch (error) {
    if (!closed(res)) throw error;
  }
}

/** An Express handler that answers with React Router. */
export function reactRouterHandler(options: {
  build: Build;
  mode: "production" | "development";
  getLoadContext: (req: Request, res: Response) => RouterContextProvider | Promise<RouterContextProvider>;
}): RequestHandler {
  const handle = createRequestHandler(options.build, options.mode);
  return async (req, res, next) => {
    try {
      const response = await handle(toWebRequest(req, res), await options.getLoadContext(req, res));
      await sendWebResponse(res, response, { personal: isPersonalRequest(req) });
    } catch (error) {
      next(error);
    }
  };
}
