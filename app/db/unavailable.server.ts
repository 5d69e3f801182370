// Which failures mean "the database cannot be reached right now" (docs/decisions/0052): the one
// place that decides it. A request that failed for such a reason is answered 503 with Retry-After
// (app/database-unavailable.server.ts), never 500; anything else stays a server error.

/** Seconds a client is asked to wait (Retry-After) before trying again while the database is away. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

// Socket errors of a connection that cannot be made or was cut.
const NETWORK_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "EHOSTDOWN", "EAI_AGAIN"]);

// PostgreSQL SQLSTATEs: class 08 (connection exception), 57P01 admin_shutdown (pg_ctl stop -m
// fast), 57P02 crash_shutdown, 57P03 cannot_connect_now (starting up or shutting down), 53300
// too_many_connections.
const SQLSTATE = /^(08\d{3}|57P0[123]|53300)$/;

// node-postgres and pg-pool report these without a code (node_modules/pg/lib/client.js, pg-pool).
const DRIVER_MESSAGES = [
  "Connection terminated unexpectedly",
  "Connection terminated due to connection timeout",
  "timeout exceeded when trying to connect", // waited connectionTimeoutMillis for a pooled connection
  "Client has encountered a connection error and is not queryable",
];

/**
 * Whether `error`, or an error it wraps (drizzle's DrizzleQueryError keeps the driver's error as
 * its `cause`; Node reports several refused addresses as an AggregateError), says the database is
 * unreachable: refused or cut connections, a connect that timed out, a server shutting down, or
 * no pooled connection free within the pool's bounded wait.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  return databaseUnavailableReason(error) !== undefined;
}

/** The code or driver message that makes `error` a database outage (for the log: never the query or its values); undefined when it is not one. */
export function databaseUnavailableReason(error: unknown): string | undefined {
  const seen = new Set<unknown>();
  const pending: unknown[] = [error];
  while (pending.length > 0) {
    const current = pending.pop();
    if (typeof current !== "object" || current === null || seen.has(current)) continue;
    seen.add(current);
    const { code, message, cause, errors } = current as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
    if (typeof code === "string" && (NETWORK_CODES.has(code) || SQLSTATE.test(code))) return code;
    if (typeof message === "string" && DRIVER_MESSAGES.includes(message)) return message;
    // fetch() reports a refused or cut connection as a TypeError caused by the socket's error: that
    // is another server (an OAuth provider) failing, not the database.
    if (current instanceof TypeError) continue;
    pending.push(cause);
    if (Array.isArray(errors)) pending.push(...(errors as unknown[]));
  }
  return undefined;
}
