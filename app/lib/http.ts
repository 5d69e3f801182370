// The one HTTP client the browser uses to call our JSON API (`/api/*`).
// Safe to ship to the browser: no Node APIs, no server-only imports.

type QueryValue = string | number | boolean | undefined;

export interface RequestOptions {
  query?: Record<string, QueryValue>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /**
   * De-duplication key: a new request with the same key aborts the pending one.
   * GETs default to `GET /path` (query excluded) so a newer search wins over an older one;
   * other methods have no default. `false` disables it.
   */
  key?: string | false;
}

export type HttpMethod = "GET" | "HEAD" | "OPTIONS" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface HttpClientConfig {
  baseUrl?: string;
  fetch?: typeof fetch;
}

export interface HttpClient {
  readonly baseUrl: string;
  request<T = unknown>(method: HttpMethod, path: string, body?: unknown, opts?: RequestOptions): Promise<T>;
  get<T = unknown>(path: string, opts?: RequestOptions): Promise<T>;
  head(path: string, opts?: RequestOptions): Promise<undefined>;
  options<T = unknown>(path: string, opts?: RequestOptions): Promise<T>;
  post<T = unknown>(path: string, body?: unknown, opts?: RequestOptions): Promise<T>;
  put<T = unknown>(path: string, body?: unknown, opts?: RequestOptions): Promise<T>;
  patch<T = unknown>(path: string, body?: unknown, opts?: RequestOptions): Promise<T>;
  delete<T = unknown>(path: string, body?: unknown, opts?: RequestOptions): Promise<T>;
}

export interface HttpErrorInit {
  statusCode: number;
  statusMessage: string;
  data: unknown;
  message?: string;
  cause?: unknown;
}

/** Every failed call (4xx/5xx, unreadable error body, network failure) rejects with this. */
export class HttpError extends Error {
  readonly statusCode: number;
  readonly statusMessage: string;
  readonly data: unknown;

  constructor(init: HttpErrorInit) {
    super(init.message ?? messageOf(init.data) ?? init.statusMessage, { cause: init.cause });
    this.name = "HttpError";
    this.statusCode = init.statusCode;
    this.statusMessage = init.statusMessage;
    this.data = init.data;
  }
}

// Idempotent methods only: repeating a POST could create a second quote or order.
const RETRYABLE_METHODS = new Set<HttpMethod>(["GET", "HEAD", "OPTIONS"]);
const RETRYABLE_STATUSES = new Set([408, 409, 425, 429, 500, 502, 503, 504]);
// Short enough that a user barely notices, long enough to ride out a restart blip.
const RETRY_DELAY_MS = 150;

/** Base URL from build-time configuration; "" means same origin. */
function configuredBaseUrl(): string {
  // Optional chaining: plain Node (scripts) has no import.meta.env; Vite replaces it at build time.
  const value: unknown = import.meta.env?.VITE_API_BASE_URL;
  return typeof value === "string" ? value : "";
}

export function createHttpClient(config: HttpClientConfig = {}): HttpClient {
  const baseUrl = (config.baseUrl ?? configuredBaseUrl()).replace(/\/+$/, "");
  // Never call a stored `window.fetch` as a method: browsers throw "Illegal invocation".
  const doFetch: typeof fetch = config.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const pending = new Map<string, AbortController>();

  async function request<T>(method: HttpMethod, path: string, body?: unknown, opts: RequestOptions = {}): Promise<T> {
    const key = opts.key === false ? undefined : (opts.key ?? (method === "GET" ? `GET ${stripQuery(path)}` : undefined));

    const own = new AbortController();
    if (key !== undefined) {
      pending.get(key)?.abort(abortError(`Reemplazada por una petición más reciente (${key}).`));
      pending.set(key, own);
    }
    const signal = opts.signal ? AbortSignal.any([own.signal, opts.signal]) : own.signal;

    const init: RequestInit = {
      method,
      headers: buildHeaders(body, opts.headers),
      body: encodeBody(body),
      credentials: "same-origin",
      signal,
    };
    const url = baseUrl + withQuery(path, opts.query);
    const attempts = RETRYABLE_METHODS.has(method) ? 2 : 1;

    try {
      for (let attempt = 1; ; attempt++) {
        const last = attempt >= attempts;
        let response: Response;
        try {
          response = await doFetch(url, init);
        } catch (error) {
          throwIfAborted(signal);
          if (!last) {
            await delay(RETRY_DELAY_MS, signal);
            continue;
          }
          throw unknownError(error instanceof Error ? error.message : String(error), error);
        }

        if (!last && RETRYABLE_STATUSES.has(response.status)) {
          // Release the connection before trying again.
          await response.body?.cancel().catch(() => undefined);
          await delay(RETRY_DELAY_MS, signal);
          continue;
        }

        return (await readResponse(response, method, signal)) as T;
      }
    } finally {
      // Only clear our own entry; a newer request may already have replaced it.
      if (key !== undefined && pending.get(key) === own) pending.delete(key);
    }
  }

  return {
    baseUrl,
    request,
    get: (path, opts) => request("GET", path, undefined, opts),
    head: (path, opts) => request<undefined>("HEAD", path, undefined, opts),
    options: (path, opts) => request("OPTIONS", path, undefined, opts),
    post: (path, body, opts) => request("POST", path, body, opts),
    put: (path, body, opts) => request("PUT", path, body, opts),
    patch: (path, body, opts) => request("PATCH", path, body, opts),
    delete: (path, body, opts) => request("DELETE", path, body, opts),
  };
}

/** The shared client: same origin unless VITE_API_BASE_URL says otherwise. */
export const http: HttpClient = createHttpClient();

export type HealthResult = { success: true } | { success: false; message: string; details?: unknown };

/** Probes `/api/health` (which also pings the database) and reports in Spanish. */
export async function checkHealth(client: HttpClient = http): Promise<HealthResult> {
  try {
    // key: false — two probes at once must not cancel each other.
    await client.get("/api/health", { key: false });
    console.info("API en línea: la base de datos respondió.");
    return { success: true };
  } catch (error) {
    const data = error instanceof HttpError ? error.data : undefined;
    const message = messageOf(data) ?? (error instanceof Error ? error.message : String(error));
    const details = isRecord(data) ? data.details : undefined;
    console.error(`La API no está disponible: ${message}`);
    return { success: false, message, details };
  }
}

// ---------------------------------------------------------------------------

async function readResponse(response: Response, method: HttpMethod, signal: AbortSignal): Promise<unknown> {
  let parsed: { json: true; value: unknown } | { json: false; text: string };
  try {
    parsed = await parseBody(response, method);
  } catch (error) {
    throwIfAborted(signal);
    if (response.status < 400) throw unknownError(`Respuesta ilegible (${response.status}).`, error);
    parsed = { json: false, text: "" };
  }

  if (response.status < 400) return parsed.json ? parsed.value : parsed.text || undefined;

  if (parsed.json && parsed.value !== undefined) {
    throw new HttpError({
      statusCode: response.status,
      statusMessage: response.statusText || `HTTP ${response.status}`,
      data: parsed.value,
    });
  }
  // A proxy's HTML page or an empty body: nothing structured to show, so it is an unknown error.
  // The real status is kept in data.status for logs.
  throw unknownError(`HTTP ${response.status} ${response.statusText}`.trim(), undefined, response.status);
}

async function parseBody(
  response: Response,
  method: HttpMethod,
): Promise<{ json: true; value: unknown } | { json: false; text: string }> {
  if (response.status === 204 || response.status === 205 || method === "HEAD") {
    await response.body?.cancel().catch(() => undefined);
    return { json: true, value: undefined };
  }
  const text = await response.text();
  const type = response.headers.get("content-type") ?? "";
  // Covers application/json and application/problem+json.
  if (/[/+]json\b/i.test(type)) {
    return { json: true, value: text === "" ? undefined : (JSON.parse(text) as unknown) };
  }
  return { json: false, text };
}

function buildHeaders(body: unknown, extra: Record<string, string> | undefined): Headers {
  const headers = new Headers({ Accept: "application/json", "Accept-Language": "es-MX" });
  // FormData etc. get their content type (with multipart boundary) from fetch itself.
  if (body !== undefined && !isPassThroughBody(body)) headers.set("Content-Type", "application/json");
  for (const [name, value] of Object.entries(extra ?? {})) headers.set(name, value);
  return headers;
}

function encodeBody(body: unknown): BodyInit | undefined {
  if (body === undefined) return undefined;
  if (isPassThroughBody(body)) return body;
  return JSON.stringify(body);
}

function isPassThroughBody(body: unknown): body is FormData | URLSearchParams | Blob {
  return body instanceof FormData || body instanceof URLSearchParams || body instanceof Blob;
}

function withQuery(path: string, query: RequestOptions["query"]): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined) params.append(name, String(value));
  }
  const search = params.toString();
  if (search === "") return path;
  return path + (path.includes("?") ? "&" : "?") + search;
}

function stripQuery(path: string): string {
  const end = path.search(/[?#]/);
  return end === -1 ? path : path.slice(0, end);
}

function unknownError(message: string, cause?: unknown, status?: number): HttpError {
  return new HttpError({
    statusCode: 500,
    statusMessage: "UnknownError",
    data: status === undefined ? { message } : { message, status },
    message,
    cause,
  });
}

function abortError(message: string): DOMException {
  return new DOMException(message, "AbortError");
}

/** Aborts surface as they are (AbortError), never as an HttpError, so callers can ignore them. */
function throwIfAborted(signal: AbortSignal): void {
  if (!signal.aborted) return;
  const reason: unknown = signal.reason;
  throw reason instanceof Error || reason instanceof DOMException ? reason : abortError("Petición cancelada.");
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      try {
        throwIfAborted(signal);
      } catch (error) {
        reject(error);
      }
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function messageOf(data: unknown): string | undefined {
  return isRecord(data) && typeof data.message === "string" ? data.message : undefined;
}
