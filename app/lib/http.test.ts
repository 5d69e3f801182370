import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { checkHealth, createHttpClient, HttpError, type HttpClient } from "./http";

// A real loopback server; every behaviour is observed from its side (hits, headers, bodies).
const hits = new Map<string, number>();
let healthStatus: 200 | 503 = 200;
let server: Server;
let baseUrl: string;
let client: HttpClient;
let uniqueId = 0;

/** A fresh path per test so hit counts never leak between tests. */
function unique(prefix: string): string {
  uniqueId += 1;
  return `${prefix}/${uniqueId}`;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? "/", "http://127.0.0.1");
  const count = (hits.get(url.pathname) ?? 0) + 1;
  hits.set(url.pathname, count);
  const body = await readBody(req);
  const [, area, arg] = url.pathname.split("/");

  switch (area) {
    case "echo":
      return sendJson(res, 200, {
        method: req.method,
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        body,
      });
    case "status": {
      // /status/<code>/<id>?as=json|text — always answers <code>.
      const status = Number(arg);
      if (url.searchParams.get("as") === "text") {
        res.writeHead(status, { "content-type": "text/html" });
        return void res.end("<h1>Bad gateway</h1>");
      }
      return sendJson(res, status, { code: status, message: `falló con ${status}` });
    }
    case "flaky":
      // Fails the first time only: shows that the single retry can rescue a request.
      return count === 1 ? sendJson(res, 503, { message: "arrancando" }) : sendJson(res, 200, { ok: true, count });
    case "text":
      res.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
      return void res.end("hola");
    case "empty":
      res.writeHead(204);
      return void res.end();
    case "slow": {
      // Answers after a bounded delay; stops the timer if the client gives up first.
      const timer = setTimeout(() => sendJson(res, 200, { done: url.searchParams.get("n") }), 250);
      res.on("close", () => clearTimeout(timer));
      return;
    }
    case "api":
      if (arg === "health") {
        return healthStatus === 200
          ? sendJson(res, 200, { code: 200, message: "API is healthy.", data: {} })
          : sendJson(res, 503, {
              code: 503,
              message: "Database unavailable",
              details: "connect ECONNREFUSED 127.0.0.1:5432",
            });
      }
      break;
  }
  sendJson(res, 404, { code: 404, message: "Not found" });
}

function listen(s: Server): Promise<string> {
  return new Promise((resolve) => {
    s.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(s.address() as AddressInfo).port}`));
  });
}

function close(s: Server): Promise<void> {
  s.closeAllConnections();
  return new Promise((resolve) => s.close(() => resolve()));
}

beforeAll(async () => {
  server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.destroy(error instanceof Error ? error : undefined);
    });
  });
  baseUrl = await listen(server);
  client = createHttpClient({ baseUrl });
});

afterAll(async () => {
  await close(server);
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  healthStatus = 200;
});

interface Echo {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | undefined>;
  body: string;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the request to fail");
}

describe("requests", () => {
  it("sends Accept and Accept-Language, no content type without a body", async () => {
    const echo = await client.get<Echo>("/echo");
    expect(echo.method).toBe("GET");
    expect(echo.headers.accept).toBe("application/json");
    expect(echo.headers["accept-language"]).toBe("es-MX");
    expect(echo.headers["content-type"]).toBeUndefined();
  });

  it("serializes JSON bodies with Content-Type: application/json", async () => {
    const echo = await client.post<Echo>("/echo", { nombre: "Ana", piezas: 3 });
    expect(echo.method).toBe("POST");
    expect(echo.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(echo.body)).toEqual({ nombre: "Ana", piezas: 3 });
  });

  it("passes FormData through and lets fetch set the multipart boundary", async () => {
    const form = new FormData();
    form.append("descripcion", "Soporte de acero");
    const echo = await client.put<Echo>("/echo", form);
    expect(echo.method).toBe("PUT");
    expect(echo.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    expect(echo.body).toContain("Soporte de acero");
  });

  it("builds the query string, skipping undefined values", async () => {
    const echo = await client.get<Echo>("/echo", { query: { q: "brida ø2", page: 2, activo: true, vacio: undefined } });
    expect(echo.query).toEqual({ q: "brida ø2", page: "2", activo: "true" });
  });

  it("lets callers add or override headers", async () => {
    const echo = await client.patch<Echo>("/echo", { a: 1 }, { headers: { "X-Request-Id": "abc", Accept: "text/plain" } });
    expect(echo.method).toBe("PATCH");
    expect(echo.headers["x-request-id"]).toBe("abc");
    expect(echo.headers.accept).toBe("text/plain");
  });

  it("uses the injected fetch with credentials: same-origin", async () => {
    const seen: RequestInit[] = [];
    // Records and delegates to the real fetch: the request still reaches the real server.
    const recording = createHttpClient({
      baseUrl: `${baseUrl}/`,
      fetch: (input, init) => {
        if (init) seen.push(init);
        return fetch(input, init);
      },
    });
    const echo = await recording.delete<Echo>("/echo");
    expect(echo.method).toBe("DELETE");
    expect(echo.path).toBe("/echo");
    expect(seen).toHaveLength(1);
    expect(seen[0]?.credentials).toBe("same-origin");
  });
});

describe("responses", () => {
  it("parses JSON, returns text otherwise, and undefined for 204 and HEAD", async () => {
    expect(await client.get("/status/200/x")).toEqual({ code: 200, message: "falló con 200" });
    expect(await client.get("/text")).toBe("hola");
    expect(await client.post("/empty")).toBeUndefined();
    expect(await client.head("/echo")).toBeUndefined();
    expect(await client.options<Echo>("/echo")).toMatchObject({ method: "OPTIONS" });
  });

  it("throws HttpError with the server's JSON error body", async () => {
    const error = await rejection(client.post("/status/422/a", {}));
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      statusCode: 422,
      statusMessage: "Unprocessable Entity",
      data: { code: 422, message: "falló con 422" },
      message: "falló con 422",
    });
  });

  it("turns a non-JSON error body into an UnknownError 500 carrying a message", async () => {
    const error = await rejection(client.get("/status/404/b?as=text"));
    expect(error).toBeInstanceOf(HttpError);
    const httpError = error as HttpError;
    expect(httpError.statusCode).toBe(500);
    expect(httpError.statusMessage).toBe("UnknownError");
    expect(httpError.data).toMatchObject({ message: expect.stringContaining("404") });
  });

  it("turns a refused connection into an UnknownError 500", async () => {
    const closed = createServer();
    const deadUrl = await listen(closed);
    await close(closed);
    const error = await rejection(createHttpClient({ baseUrl: deadUrl }).post("/echo", {}));
    expect(error).toBeInstanceOf(HttpError);
    const httpError = error as HttpError;
    expect(httpError.statusCode).toBe(500);
    expect(httpError.statusMessage).toBe("UnknownError");
    expect(httpError.data).toEqual({ message: httpError.message });
    expect(httpError.message).not.toBe("");
  });
});

describe("retries", () => {
  const retryable = [408, 409, 425, 429, 500, 502, 503, 504];

  it.each(retryable)("retries a GET exactly once on %i", async (status) => {
    const path = unique(`/status/${status}`);
    const error = await rejection(client.get(path));
    expect(error).toMatchObject({ statusCode: status });
    expect(hits.get(path)).toBe(2);
  });

  it("retries HEAD and OPTIONS once too", async () => {
    const headPath = unique("/status/503");
    const optionsPath = unique("/status/503");
    await rejection(client.head(headPath));
    await rejection(client.options(optionsPath));
    expect(hits.get(headPath)).toBe(2);
    expect(hits.get(optionsPath)).toBe(2);
  });

  it("returns the second answer when the retry succeeds", async () => {
    const path = unique("/flaky");
    expect(await client.get(path)).toEqual({ ok: true, count: 2 });
    expect(hits.get(path)).toBe(2);
  });

  it("also retries a non-JSON 502 from a proxy, then reports it as unknown", async () => {
    const path = unique("/status/502");
    const error = await rejection(client.get(`${path}?as=text`));
    expect(error).toMatchObject({ statusCode: 500, statusMessage: "UnknownError" });
    expect(hits.get(path)).toBe(2);
  });

  it("does not retry statuses outside the list", async () => {
    const path = unique("/status/404");
    await rejection(client.get(path));
    expect(hits.get(path)).toBe(1);
  });

  it.each(["post", "put", "patch", "delete"] as const)("never retries %s", async (method) => {
    const path = unique("/status/503");
    const error = await rejection(client[method](path, { a: 1 }));
    expect(error).toMatchObject({ statusCode: 503 });
    expect(hits.get(path)).toBe(1);
  });
});

describe("de-duplication", () => {
  it("aborts a pending GET to the same path (query ignored) and resolves the newer one", async () => {
    const path = unique("/slow");
    const first = client.get(`${path}?n=1`);
    const second = client.get<{ done: string }>(`${path}?n=2`);
    const [a, b] = await Promise.allSettled([first, second]);
    expect(a.status).toBe("rejected");
    expect((a as PromiseRejectedResult).reason).toMatchObject({ name: "AbortError" });
    expect(b).toEqual({ status: "fulfilled", value: { done: "2" } });
  });

  it("keeps both requests with key: false", async () => {
    const path = unique("/slow");
    const results = await Promise.all([
      client.get(path, { query: { n: 1 }, key: false }),
      client.get(path, { query: { n: 2 }, key: false }),
    ]);
    expect(results).toEqual([{ done: "1" }, { done: "2" }]);
  });

  it("does not de-duplicate other methods by default", async () => {
    const path = unique("/slow");
    const results = await Promise.all([client.post(`${path}?n=1`), client.post(`${path}?n=2`)]);
    expect(results).toEqual([{ done: "1" }, { done: "2" }]);
  });

  it("applies a custom key to any method", async () => {
    const [a, b] = await Promise.allSettled([
      client.post(`${unique("/slow")}?n=1`, { paso: 1 }, { key: "guardar-borrador" }),
      client.put(`${unique("/slow")}?n=2`, { paso: 2 }, { key: "guardar-borrador" }),
    ]);
    expect((a as PromiseRejectedResult).reason).toMatchObject({ name: "AbortError" });
    expect(b).toEqual({ status: "fulfilled", value: { done: "2" } });
  });

  it("rejects with the caller's abort, not an HttpError", async () => {
    const controller = new AbortController();
    const pending = client.get(unique("/slow"), { signal: controller.signal });
    controller.abort();
    const error = await rejection(pending);
    expect(error).not.toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ name: "AbortError" });
  });
});

describe("checkHealth", () => {
  it("reports success when the API answers 200", async () => {
    const info = vi.spyOn(console, "info").mockImplementation(() => undefined);
    expect(await checkHealth(client)).toEqual({ success: true });
    expect(info).toHaveBeenCalledWith(expect.stringContaining("API en línea"));
  });

  it("reports the server's message and details on 503", async () => {
    healthStatus = 503;
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    expect(await checkHealth(client)).toEqual({
      success: false,
      message: "Database unavailable",
      details: "connect ECONNREFUSED 127.0.0.1:5432",
    });
    expect(logged).toHaveBeenCalledWith(expect.stringContaining("Database unavailable"));
  });

  it("reports a network failure with the error message", async () => {
    const closed = createServer();
    const deadUrl = await listen(closed);
    await close(closed);
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const result = await checkHealth(createHttpClient({ baseUrl: deadUrl }));
    expect(result.success).toBe(false);
    expect(result).toMatchObject({ message: expect.any(String) });
  });
});

describe("default instance", () => {
  it("reads its base URL from VITE_API_BASE_URL", async () => {
    vi.stubEnv("VITE_API_BASE_URL", baseUrl);
    vi.resetModules();
    const fresh = await import("./http");
    expect(fresh.http.baseUrl).toBe(baseUrl);
    vi.spyOn(console, "info").mockImplementation(() => undefined);
    expect(await fresh.checkHealth()).toEqual({ success: true });
  });

  it('uses "" (same origin) without configuration', async () => {
    vi.stubEnv("VITE_API_BASE_URL", undefined);
    vi.resetModules();
    const fresh = await import("./http");
    expect(fresh.http.baseUrl).toBe("");
  });
});
