import { AsyncLocalStorage } from "node:async_hooks";
import { sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { logs } from "~/db/schema/operations";
import { logger, tapLogWarnings } from "~/lib/logger.server";
import { identifyRequests, type RequestCredentials, type StaffRoleTest } from "./identity.server";
import { stripSecrets } from "./redact";

// The request and error log's writer (issue 17 §2, docs/decisions/0051). A request costs one array
// push when its response finishes (also on the page cache's early path); everything else — who
// asked, secrets stripped from the URL, the INSERT — happens in batches off the request path: every
// second, or as soon as BATCH_SIZE entries wait, one INSERT per batch. The queue is bounded: when
// the database is slow or away, the oldest entries are dropped and counted, never blocking a
// request and never growing without bound. The writing itself has a budget, MAX_ROWS_PER_FLUSH
// rows per flush and a flush at most every MIN_FLUSH_SPACING_MS: on PGlite the INSERT runs on the
// server's own thread, and a flood of requests must not turn into a flood of writes (what is over
// the budget waits in the queue, and past its bound is dropped and counted).

/** PocketBase's levels (Go's slog). */
export const LOG_LEVELS = { debug: -4, info: 0, warning: 4, error: 8 } as const;

const FLUSH_INTERVAL_MS = 1_000;
const BATCH_SIZE = 200;
/** At most 400 rows a second: a few percent of the thread on PGlite (measured; docs/decisions/0051). */
const MAX_ROWS_PER_FLUSH = BATCH_SIZE;
const MIN_FLUSH_SPACING_MS = 500;
const MAX_QUEUED = 10_000;
const MAX_TEXT = 2_000;
const MAX_URL = 3_000;
const MAX_STACK = 4_000;
/** The log's own successful reads are not logged (PocketBase's SkipSuccessActivityLog on /api/logs). */
const SELF_PATH = /^\/api\/logs(?:[/?]|$)/;

/** A finished request as the access log saw it: raw, cheap to capture. */
export interface RequestLogInput extends RequestCredentials {
  at: number;
  requestId: string;
  method: string;
  /** The URL as received (path and query); secrets are stripped before it is stored. */
  url: string;
  status: number;
  ms: number;
  /** The client's address after the proxy settings (Express's req.ip). */
  ip: string | undefined;
  /** The socket's peer. */
  remoteIp: string | undefined;
  referer: string | undefined;
  userAgent: string | undefined;
}

interface LineInput {
  at: number;
  level: number;
  message: string;
  data: Record<string, unknown>;
}

type Pending = { kind: "request"; input: RequestLogInput } | { kind: "line"; input: LineInput };

interface Row {
  createdAt: Date;
  level: number;
  message: string;
  data: Record<string, unknown>;
}

export interface LogWriterStats {
  queued: number;
  written: number;
  /** Entries lost: dropped when the queue was full, or in a batch the database refused. */
  dropped: number;
}

export interface LogWriter {
  /** Writes all that is queued now, past the budget (tests; the timer does it otherwise). */
  flush(): Promise<void>;
  stats(): LogWriterStats;
  /** Writes what is left and stops taking entries. */
  stop(): Promise<void>;
}

interface WriterState {
  queue: Pending[];
  dropped: number;
  reportedDrops: number;
  written: number;
  flushing: Promise<void> | undefined;
  soon: boolean;
  lastFlushAt: number;
  isStaffRole: StaffRoleTest;
}

let active: WriterState | undefined;

const requestScope = new AsyncLocalStorage<string>();

/** Runs the rest of a request's handling with its id known to the error lines it logs. */
export function runInRequestScope<T>(requestId: string, next: () => T): T {
  return requestScope.run(requestId, next);
}

function enqueue(state: WriterState, entry: Pending): void {
  if (state.queue.length >= MAX_QUEUED) {
    state.queue.shift();
    state.dropped += 1;
  }
  state.queue.push(entry);
  if (state.queue.length >= BATCH_SIZE && !state.soon && !state.flushing) {
    state.soon = true;
    const wait = Math.max(0, state.lastFlushAt + MIN_FLUSH_SPACING_MS - Date.now());
    setTimeout(() => {
      state.soon = false;
      void flushState(state);
    }, wait).unref();
  }
}

/** Queues a finished request (called by the server's access log; a no-op when logging is off). */
export function recordRequest(input: RequestLogInput): void {
  if (active) enqueue(active, { kind: "request", input });
}

function cut(text: string, max = MAX_TEXT): string {
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

function levelOfStatus(status: number): number {
  if (status >= 500) return LOG_LEVELS.error;
  return status >= 400 ? LOG_LEVELS.warning : LOG_LEVELS.info;
}

function decodedPath(url: string): string {
  try {
    return decodeURI(url);
  } catch {
    return url;
  }
}

/** A logged value made safe to store: errors as name, message and a bounded stack; long text cut. */
function storable(value: unknown, depth = 0): unknown {
  if (value instanceof Error) {
    return { name: value.name, message: cut(value.message), ...(value.stack ? { stack: cut(value.stack, MAX_STACK) } : {}) };
  }
  if (typeof value === "string") return cut(value);
  if (value === null || typeof value === "number" || typeof value === "boolean") return value;
  if (value instanceof Date) return value.toISOString();
  if (depth >= 3) return undefined;
  if (Array.isArray(value)) return value.slice(0, 20).map((item) => storable(item, depth + 1));
  if (typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value).slice(0, 30)) {
      const kept = key === "url" || key === "referer" ? (typeof item === "string" ? stripSecrets(item) : undefined) : storable(item, depth + 1);
      if (kept !== undefined) out[key] = kept;
    }
    return out;
  }
  return undefined;
}

/** A warning or error line of the logger (pino's arguments: an object or error, then a message). */
function lineOf(level: number, args: readonly unknown[]): LineInput {
  const [first, second] = args;
  let message = "";
  let fields: Record<string, unknown> = {};
  if (typeof first === "string") message = first;
  else if (first instanceof Error) {
    fields = { err: first };
    message = typeof second === "string" ? second : first.message;
  } else if (first && typeof first === "object") {
    fields = first as Record<string, unknown>;
    message = typeof second === "string" ? second : "";
  }
  const requestId = requestScope.getStore();
  const data = (storable(fields) ?? {}) as Record<string, unknown>;
  return { at: Date.now(), level: level >= 50 ? LOG_LEVELS.error : LOG_LEVELS.warning, message: cut(message), data: { type: "app", ...(requestId ? { requestId } : {}), ...data } };
}

async function toRows(batch: readonly Pending[], isStaffRole: StaffRoleTest): Promise<Row[]> {
  const requests = batch.flatMap((entry) => (entry.kind === "request" && !(SELF_PATH.test(entry.input.url) && entry.input.status < 400) ? [entry.input] : []));
  const identities = await identifyRequests(requests, isStaffRole);
  const identityOf = new Map(requests.map((input, index) => [input, identities[index]!]));
  const rows: Row[] = [];
  for (const entry of batch) {
    if (entry.kind === "line") {
      rows.push({ createdAt: new Date(entry.input.at), level: entry.input.level, message: entry.input.message, data: entry.input.data });
      continue;
    }
    const input = entry.input;
    const identity = identityOf.get(input);
    if (!identity) continue;
    const url = stripSecrets(input.url, MAX_URL);
    rows.push({
      createdAt: new Date(input.at),
      level: levelOfStatus(input.status),
      message: `${input.method} ${decodedPath(url)}`,
      data: {
        type: "request",
        requestId: input.requestId,
        url,
        method: input.method,
        status: input.status,
        execTime: input.ms,
        userIP: input.ip ?? "",
        remoteIP: input.remoteIp ?? "",
        referer: input.referer ? stripSecrets(input.referer, MAX_TEXT) : "",
        userAgent: cut(input.userAgent ?? ""),
        ...identity,
      },
    });
  }
  return rows;
}

let lastFailureReport = 0;

async function writeBatch(state: WriterState, batch: Pending[]): Promise<void> {
  try {
    const rows = await toRows(batch, state.isStaffRole);
    // One parameter for the whole batch: far cheaper on PGlite than five per row.
    // PostgreSQL's text cannot hold a NUL character: an address that carries one (%00) is logged
    // with U+FFFD in its place, or the whole batch would be refused.
    const payload = JSON.stringify(
      rows.map((row) => ({ c: row.createdAt.toISOString(), l: row.level, m: row.message, d: row.data })),
      (_key, value: unknown) => (typeof value === "string" ? value.replaceAll("\0", "\uFFFD") : value),
    );
    if (rows.length) {
      await getDb().execute(
        sql`insert into ${logs} (created_at, level, message, data) select x.c, x.l, x.m, x.d from json_to_recordset(${payload}::json) as x(c timestamptz, l integer, m text, d json)`,
      );
    }
    state.written += rows.length;
  } catch (error) {
    state.dropped += batch.length;
    // Once a minute at most: this line is itself queued for the next batch.
    if (Date.now() - lastFailureReport > 60_000) {
      lastFailureReport = Date.now();
      logger.warn({ err: error, lost: batch.length }, "could not write a batch of the request log");
    }
  }
}

/** Writes up to `maxRows` of the queue (the budget of one flush); everything with `maxRows` Infinity. */
function flushState(state: WriterState, maxRows = MAX_ROWS_PER_FLUSH): Promise<void> {
  if (state.flushing) return state.flushing;
  state.lastFlushAt = Date.now();
  state.flushing = (async () => {
    // Settle nothing before `state.flushing` is assigned (an empty queue would otherwise clear it first and then be stuck).
    await null;
    try {
      for (let rows = 0; state.queue.length && rows < maxRows; rows += BATCH_SIZE) {
        if (state.dropped > state.reportedDrops) {
          const lost = state.dropped - state.reportedDrops;
          state.reportedDrops = state.dropped;
          state.queue.push({ kind: "line", input: { at: Date.now(), level: LOG_LEVELS.warning, message: "request log entries dropped", data: { type: "app", dropped: lost } } });
        }
        await writeBatch(state, state.queue.splice(0, BATCH_SIZE));
      }
    } finally {
      state.flushing = undefined;
    }
  })();
  return state.flushing;
}

/**
 * Starts this process's log writer (the server's start-up): requests and the logger's warnings and
 * errors go to the logs table. `isStaffRole` tells staff sessions from customers'.
 */
export function startLogWriter(options: { isStaffRole: StaffRoleTest }): LogWriter {
  const state: WriterState = { queue: [], dropped: 0, reportedDrops: 0, written: 0, flushing: undefined, soon: false, lastFlushAt: 0, isStaffRole: options.isStaffRole };
  active = state;
  tapLogWarnings((level, args) => enqueue(state, { kind: "line", input: lineOf(level, args) }));
  const timer = setInterval(() => {
    if (Date.now() - state.lastFlushAt >= MIN_FLUSH_SPACING_MS) void flushState(state);
  }, FLUSH_INTERVAL_MS);
  timer.unref();
  return {
    flush: async () => {
      await state.flushing;
      await flushState(state, Number.POSITIVE_INFINITY);
    },
    stats: () => ({ queued: state.queue.length, written: state.written, dropped: state.dropped }),
    stop: async () => {
      clearInterval(timer);
      if (active === state) {
        active = undefined;
        tapLogWarnings(undefined);
      }
      await state.flushing;
      await flushState(state, Number.POSITIVE_INFINITY);
    },
  };
}
