import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import type { RenderToPipeableStreamOptions } from "react-dom/server";
import { renderToPipeableStream } from "react-dom/server";
import type { EntryContext, HandleDataRequestFunction, HandleErrorFunction, RouterContextProvider } from "react-router";
import { ServerRouter, isRouteErrorResponse } from "react-router";
import { noteDatabaseUnavailable } from "~/database-unavailable.server";
import { DATABASE_RETRY_AFTER_SECONDS } from "~/db/unavailable.server";
import { cachedSessionVariantContext } from "~/lib/page-cache";
import { cspNonceContext } from "~/lib/request-context";
import { logger } from "~/lib/logger.server";

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  // The only 503 a page gets: the database is away for a moment (app/database-unavailable.server.ts).
  if (responseStatusCode === 503) responseHeaders.set("Retry-After", String(DATABASE_RETRY_AFTER_SECONDS));
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const nonce = loadContext.get(cspNonceContext) || undefined;

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    // Crawlers get the complete document at once; people get the shell as soon as it is ready. The
    // page cache (server/page-cache.ts) reads the whole document before it serves it, so it gets it
    // complete at once too: every Suspense boundary then arrives resolved, in place, instead of as
    // hidden content a script moves after the first paint (a relayout of the whole page, and a
    // task Lighthouse counts; docs/decisions/0068).
    const wholeDocument = (userAgent && isbot(userAgent)) || routerContext.isSpaMode || loadContext.get(cachedSessionVariantContext) !== null;
    const readyOption: keyof RenderToPipeableStreamOptions = wholeDocument ? "onAllReady" : "onShellReady";
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);

    const { pipe, abort } = renderToPipeableStream(
      <ServerRouter context={routerContext} url={request.url} nonce={nonce} />,
      {
        nonce,
        // A whole document keeps every resolved boundary in place, however long the page: by
        // default React moves a boundary out (and reveals it with a script) once 12 800 bytes have
        // been written before it.
        ...(wholeDocument ? { progressiveChunkSize: Number.POSITIVE_INFINITY } : {}),
        [readyOption]() {
          shellRendered = true;
          const body = new PassThrough({
            final(callback) {
              clearTimeout(timeoutId);
              timeoutId = undefined;
              callback();
            },
          });
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          pipe(body);
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) logger.error({ err: error }, "error while streaming a page");
        },
      },
    );
  });
}

export const handleError: HandleErrorFunction = (error, { request, context }) => {
  // Marked even for an aborted request: its answer is still the 503 (page cache renders included).
  const databaseDown = noteDatabaseUnavailable(error, context);
  if (request.signal.aborted) return;
  // A 4xx (a method a route does not take, a refused body) is the sender's mistake, not the server's.
  if (isRouteErrorResponse(error) && error.status < 500) return;
  if (databaseDown) return void logger.warn({ url: request.url, reason: databaseDown }, "database unavailable: answered 503");
  logger.error({ err: error, url: request.url }, "unhandled error in loader or action");
};

/** The .data answer of a page whose database was away carries Retry-After as the page does. */
export const handleDataRequest: HandleDataRequestFunction = (response) => {
  if (response.status === 503) response.headers.set("Retry-After", String(DATABASE_RETRY_AFTER_SECONDS));
  return response;
};
