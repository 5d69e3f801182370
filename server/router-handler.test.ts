import http, { type IncomingHttpHeaders, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { bodyStream, isPersonalRequest, requestUrl, sendWebResponse, toWebRequest } from "./router-handler";

// The request as React Router gets it from Express (server/router-handler.ts): the body's chunks
// passed on as the HTTP parser made them, with backpressure and failures, and the request's address.

/** A request body: a Node stream fed by the test, as the HTTP parser feeds an IncomingMessage. */
function source(): Readable & IncomingMessage {
  return new Readable({ read() {} }) as Readable & IncomingMessage;
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

describe("bodyStream", () => {
  it("passes on the very chunks the request emits, in order, without copying them", async () => {
    const req = source();
    const sent = [Buffer.from("primer trozo"), Buffer.alloc(64 * 1024, 7), Buffer.from("último")];
    const stream = bodyStream(req);
    for (const chunk of sent) req.push(chunk);
    req.push(null);
    const received = await readAll(stream);
    expect(received).toHaveLength(sent.length);
    received.forEach((chunk, index) => expect(chunk).toBe(sent[index]));
  });

  it("pauses the request once its queue is full and resumes it when the reader asks for more", async () => {
    const req = source();
    const stream = bodyStream(req);
    const chunk = () => Buffer.alloc(16 * 1024, 1);
    // Nobody reads yet: past the high-water mark the request is paused.
    for (let index = 0; index < 8; index += 1) req.push(chunk());
    await new Promise((resolve) => setImmediate(resolve));
    expect(req.isPaused()).toBe(true);
    const reader = stream.getReader();
    let bytes = 0;
    for (let index = 0; index < 8; index += 1) bytes += (await reader.read()).value!.byteLength;
    expect(bytes).toBe(8 * 16 * 1024);
    await new Promise((resolve) => setImmediate(resolve));
    expect(req.isPaused()).toBe(false);
    req.push(null);
    expect((await reader.read()).done).toBe(true);
  });

  it("fails the reader when the body fails, or when the connection closes before its end", async () => {
    const failing = source();
    const failed = readAll(bodyStream(failing));
    failing.push(Buffer.from("a medias"));
    failing.destroy(new Error("aborted"));
    await expect(failed).rejects.toThrow("aborted");

    const cut = source();
    const truncated = readAll(bodyStream(cut));
    cut.push(Buffer.from("a medias"));
    cut.emit("close");
    await expect(truncated).rejects.toThrow("the connection closed before the end of the request body");
  });

  it("drops the rest of the body when the reader cancels, without ending the request (its answer is still to come)", async () => {
    const req = source();
    const stream = bodyStream(req);
    const reader = stream.getReader();
    // Paused, as a full queue leaves it: the rest must still be read and dropped.
    for (let index = 0; index < 8; index += 1) req.push(Buffer.alloc(16 * 1024, 1));
    await new Promise((resolve) => setImmediate(resolve));
    expect(req.isPaused()).toBe(true);
    await reader.cancel();
    // Destroying an unfinished request destroys its socket: the client would get a reset, not the answer.
    expect(req.destroyed).toBe(false);
    req.push(Buffer.alloc(64 * 1024, 2));
    req.push(null);
    // Read to its end, nothing left queued.
    await new Promise((resolve) => req.once("end", resolve));
    expect(req.readableLength).toBe(0);
  });
});

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** An Express app on a loopback port, closed after the test. */
async function serve(app: express.Express): Promise<number> {
  const server = app.listen(0, "127.0.0.1");
  servers.push(server);
  await new Promise((resolve) => server.once("listening", resolve));
  return (server.address() as AddressInfo).port;
}

/** A raw HTTP request (any Host header), its status, headers and body. */
function send(port: number, options: { path?: string; method?: string; headers?: Record<string, string>; body?: string }): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: "127.0.0.1", port, path: options.path ?? "/", method: options.method ?? "GET", headers: options.headers }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    request.on("error", reject);
    request.end(options.body);
  });
}

describe("toWebRequest and sendWebResponse", () => {
  it("give React Router the method, headers and body, and the client every header of the answer", async () => {
    const app = express();
    app.use(async (req, res) => {
      const request = toWebRequest(req, res);
      const answer = `${request.method} ${request.headers.get("x-origen")} ${await request.text()}`;
      const headers = new Headers([
        ["content-type", "text/plain; charset=utf-8"],
        ["set-cookie", "primera=1; Path=/"],
        ["set-cookie", "segunda=2; Path=/"],
      ]);
      await sendWebResponse(res, new Response(answer, { status: 201, headers }));
    });
    const port = await serve(app);
    const response = await send(port, { method: "POST", headers: { "x-origen": "prueba" }, body: "cuerpo del envío" });
    expect(response.status).toBe(201);
    expect(response.body).toBe("POST prueba cuerpo del envío");
    expect(response.headers["set-cookie"]).toEqual(["primera=1; Path=/", "segunda=2; Path=/"]);
  });

  it("answers a signed-in request or a private area private, no-store unless the route set its own Cache-Control", async () => {
    const app = express();
    app.use(async (req, res) => {
      const own = req.query.propio === "1" ? { "cache-control": "private, max-age=60" } : undefined;
      await sendWebResponse(res, new Response("hola", { headers: own }), { personal: isPersonalRequest(req) });
    });
    const port = await serve(app);
    const cacheControl = async (path: string, headers: Record<string, string> = {}) => (await send(port, { path, headers })).headers["cache-control"];
    expect(await cacheControl("/servicios")).toBeUndefined();
    expect(await cacheControl("/servicios", { cookie: "forja.session_token=abc.def" })).toBe("private, no-store");
    expect(await cacheControl("/servicios", { authorization: "Bearer abc" })).toBe("private, no-store");
    for (const path of ["/admin", "/admin/pedidos/1", "/cuenta", "/quotes/abc", "/quotes/abc.data", "/checkout/confirmacion/PED-2026-0001", "/carrito"]) {
      expect(await cacheControl(path), path).toBe("private, no-store");
    }
    expect(await cacheControl("/administracion-de-proyectos")).toBeUndefined();
    expect(await cacheControl("/cuenta?propio=1")).toBe("private, max-age=60");
  });

  it("aborts the request's signal when the client goes away before the answer", async () => {
    const app = express();
    let reached!: (signal: AbortSignal) => void;
    const signal = new Promise<AbortSignal>((resolve) => (reached = resolve));
    app.use((req, res) => reached(toWebRequest(req, res).signal));
    const port = await serve(app);
    const request = http.request({ host: "127.0.0.1", port, path: "/" });
    request.on("error", () => {});
    request.end();
    const received = await signal;
    expect(received.aborted).toBe(false);
    const aborted = new Promise((resolve) => received.addEventListener("abort", resolve));
    request.destroy();
    await aborted;
    expect(received.aborted).toBe(true);
  });
});

describe("requestUrl", () => {
  /** The address requestUrl gives a request sent with `headers`, on an app that trusts `trust`. */
  async function urlFor(headers: Record<string, string>, trust: string | boolean): Promise<string> {
    const app = express();
    app.set("trust proxy", trust);
    app.use((req, res) => res.end(requestUrl(req).href));
    return (await send(await serve(app), { path: "/cotiza?origen=inicio", headers })).body;
  }

  it("is the Host the client asked for, with the path and query", async () => {
    expect(await urlFor({ host: "forja.example:8080" }, false)).toBe("http://forja.example:8080/cotiza?origen=inicio");
  });

  it("follows X-Forwarded-Host and -Proto only from a trusted proxy", async () => {
    const forwarded = { host: "127.0.0.1", "x-forwarded-host": "www.forja.example", "x-forwarded-proto": "https" };
    expect(await urlFor(forwarded, "loopback")).toBe("https://www.forja.example/cotiza?origen=inicio");
    expect(await urlFor(forwarded, false)).toBe("http://127.0.0.1/cotiza?origen=inicio");
  });

  it("takes a Host that is not a host name, or that no URL can hold, for localhost", async () => {
    expect(await urlFor({ host: "evil.example@forja.example" }, false)).toBe("http://localhost/cotiza?origen=inicio");
    expect(await urlFor({ host: "256.1.1.1" }, false)).toBe("http://localhost/cotiza?origen=inicio");
    expect(await urlFor({ host: "forja.example:99999" }, false)).toBe("http://localhost/cotiza?origen=inicio");
    expect(await urlFor({ host: "[::1]:3000" }, false)).toBe("http://[::1]:3000/cotiza?origen=inicio");
  });
});
