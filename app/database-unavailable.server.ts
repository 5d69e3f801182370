import { createContext, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import { DATABASE_RETRY_AFTER_SECONDS, databaseUnavailableReason } from "~/db/unavailable.server";
import { UNAVAILABLE_MESSAGE, unavailable } from "~/lib/errors";
import { pocketBaseError } from "~/services/records/auth-records.server";

// A request that failed because the database cannot be reached is answered 503 with Retry-After,
// not 500 (docs/decisions/0052). React Router hands every error a loader, an action or a render
// threw to handleError (entry.server.tsx) with the request's context, before it renders the error
// or answers a resource route; handleError marks the request here, and the root route's middleware,
// around everything, turns the request's answer into the 503.

const databaseWasUnavailable = createContext(false);

/** Marks the request when `error` says the database is unreachable; then why (a code or the driver's message), else undefined. */
export function noteDatabaseUnavailable(error: unknown, context: Readonly<RouterContextProvider> | undefined): string | undefined {
  const reason = databaseUnavailableReason(error);
  // The context handleError receives is the request's own provider, typed read-only there.
  if (reason) (context as RouterContextProvider | undefined)?.set(databaseWasUnavailable, true);
  return reason;
}

/**
 * The root route's middleware: a marked request's answer is replaced. The record API (/api/*)
 * answers PocketBase's error body; a page (or its .data request) is rendered again with the root
 * error boundary showing the 503 page, as if the root had thrown it.
 */
export const answerDatabaseUnavailable: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const response = await next();
  if (!context.get(databaseWasUnavailable)) return response;
  await response.body?.cancel().catch(() => {});
  if (new URL(request.url).pathname.startsWith("/api/")) {
    return Response.json(pocketBaseError(503, UNAVAILABLE_MESSAGE), {
      status: 503,
      headers: { "Retry-After": String(DATABASE_RETRY_AFTER_SECONDS), "Cache-Control": "no-store" },
    });
  }
  unavailable(DATABASE_RETRY_AFTER_SECONDS);
};
