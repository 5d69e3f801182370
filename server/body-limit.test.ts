import { once } from "node:events";
import fs from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { createReadableStreamFromReadable } from "@react-router/node";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postStreamed } from "../tests/support/streamed-body";
import { FORM_BODY_BYTES, JSON_BODY_BYTES, UPLOAD_ROUTES, bodyLimit, bodyLimits, routePath } from "./body-limit";

// The body limits on a real Express server, in front of a handler that reads the body exactly as
// React Router's adapter does (@react-router/node's stream of the request): 100 MB sent with
// Content-Length or chunked is refused within a second, with bounded memory, and the reader sees
// an error, never a truncated body; uploads to their routes pass through whole.

const MB = 1024 * 1024;
const HUGE = 100 * MB;
const ROOT = path.resolve(import.meta.dirname, "..");

let server: Server;
let base: string;
/** What the reader behind the middleware made of each body, by path. */
const reads = new Map<string, Promise<{ ok: true; bytes: number } | { ok: false; error: string }>>();

beforeAll(async () => {
  const app = express();
  app.use(bodyLimits());
  app.all("/{*splat}", async (req, res) => {
    const request = new Request(`http://localhost${req.originalUrl}`, { method: req.method, body: createReadableStreamFromReadable(req), duplex: "half" } as RequestInit);
    const read = request.arrayBuffer().then(
      (buffer) => ({ ok: true as const, bytes: buffer.byteLength }),
      (error: unknown) => ({ ok: false as const, error: String(error) }),
    );
    reads.set(req.path, read);
    const outcome = await read;
    if (!res.writableEnded && !res.destroyed) res.json(outcome);
  });
  server = app.listen(0, "127.0.0.1");
  await once(server, "listening");
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const FORM = "application/x-www-form-urlencoded";

describe("bodyLimit", () => {
  it("gives forms and small API bodies 64 KB, the larger APIs their readers' bounds and uploads to their routes none here", () => {
    expect(bodyLimit("/login", FORM)).toBe(FORM_BODY_BYTES);
    expect(bodyLimit("/login", "application/json")).toBe(FORM_BODY_BYTES);
    expect(bodyLimit("/login", "multipart/form-data; boundary=x")).toBe(FORM_BODY_BYTES);
    expect(bodyLimit("/login", undefined)).toBe(FORM_BODY_BYTES);
    expect(bodyLimit("/api/auth/local", "application/json; charset=utf-8")).toBe(FORM_BODY_BYTES);
    expect(bodyLimit("/api/collections/users/auth-with-password", "application/json")).toBe(FORM_BODY_BYTES);
    expect(bodyLimit("/api/sesion/sign-in/email", "application/json")).toBe(JSON_BODY_BYTES);
    expect(bodyLimit("/api/oauth2-redirect", FORM)).toBe(16 * 1024);
    expect(bodyLimit("/api/collections/users/records", "application/json")).toBe(2 * MB);
    expect(bodyLimit("/api/batch", "application/json")).toBe(8 * MB);
    expect(bodyLimit("/api/realtime", "application/json")).toBe(3 * MB);
    expect(bodyLimit("/admin/cotizaciones/nueva", FORM)).toBe(MB);
    for (const upload of ["/cotiza", "/cotiza.data", "/COTIZA/", "/api/cotiza", "/admin/productos/nuevo", "/admin/productos/abc.data", "/api/collections/pedidos/records/xyz", "/api/batch", "/admin/medios", "/admin/medios.data"]) {
      expect(bodyLimit(upload, "multipart/form-data; boundary=x"), upload).toBeNull();
    }
    expect(bodyLimit("/contact", "multipart/form-data; boundary=x")).toBe(FORM_BODY_BYTES);
    expect(bodyLimit("/admin/productos", "multipart/form-data; boundary=x")).toBe(FORM_BODY_BYTES);
  });

  it("matches a route's path as React Router does: data requests and a trailing slash", () => {
    expect(routePath("/login.data")).toBe("/login");
    expect(routePath("/_.data")).toBe("/");
    expect(routePath("/quotes/_.data")).toBe("/quotes");
    expect(routePath("/cotiza/")).toBe("/cotiza");
    expect(routePath("/")).toBe("/");
  });

  it("names, in UPLOAD_ROUTES, every file that reads an upload (parseMultipartUpload)", () => {
    const callers = new Set<string>();
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(file);
        else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && /\bparseMultipartUpload\(/.test(fs.readFileSync(file, "utf8"))) {
          callers.add(path.relative(ROOT, file).split(path.sep).join("/"));
        }
      }
    };
    walk(path.join(ROOT, "app"));
    callers.delete("app/services/files/multipart.server.ts");
    expect([...callers].sort()).toEqual([...new Set(UPLOAD_ROUTES.map((route) => route.readBy))].sort());
  });

  it("keeps the bounds of the realtime subscriptions and the OAuth2 form_post equal to their routes' own", () => {
    const source = (file: string) => fs.readFileSync(path.join(ROOT, "app/routes/api", file), "utf8");
    expect(source("realtime.ts")).toMatch(/MAX_SUBSCRIBE_BODY_BYTES = 3 \* 1024 \* 1024;/);
    expect(source("oauth2-redirect.ts")).toMatch(/MAX_BODY_BYTES = 16 \* 1024;/);
  });
});

describe("bodyLimits over HTTP", { timeout: 60_000 }, () => {
  for (const chunked of [false, true]) {
    const how = chunked ? "chunked" : "with Content-Length";
    it(`refuses 100 MB of form to a page within a second, ${how}, in Spanish, and closes the connection`, async () => {
      const path = chunked ? "/registro" : "/login";
      const rssBefore = process.memoryUsage().rss;
      const answer = await postStreamed(base, path, { bytes: HUGE, chunked, contentType: FORM, prefix: "email=a%40b.mx&password=" });
      expect(answer.status).toBe(413);
      expect(answer.ms).toBeLessThan(1_000);
      expect(answer.headers.connection).toBe("close");
      expect(answer.headers["content-type"]).toMatch(/^text\/html/);
      expect(answer.body).toContain("El formulario es demasiado grande");
      expect(answer.sent).toBeLessThan(HUGE);
      expect(process.memoryUsage().rss - rssBefore).toBeLessThan(40 * MB);
      if (chunked) expect(await reads.get(path)).toMatchObject({ ok: false });
      else expect(reads.has(path)).toBe(false);
    });

    it(`refuses 100 MB of JSON to an API within a second in its envelope, ${how}`, async () => {
      const pocketBase = await postStreamed(base, "/api/collections/users/records", { bytes: HUGE, chunked, contentType: "application/json", prefix: '{"name":"' });
      expect(pocketBase.status).toBe(413);
      expect(pocketBase.ms).toBeLessThan(1_000);
      expect(JSON.parse(pocketBase.body)).toEqual({ status: 413, message: "Request entity too large.", data: {} });
      const strapi = await postStreamed(base, "/api/auth/local", { bytes: HUGE, chunked, contentType: "application/json", prefix: '{"identifier":"' });
      expect(strapi.status).toBe(413);
      expect(strapi.ms).toBeLessThan(1_000);
      expect(JSON.parse(strapi.body)).toEqual({ data: null, error: { status: 413, name: "PayloadTooLargeError", message: "Request entity too large", details: {} } });
      const session = await postStreamed(base, "/api/sesion/sign-in/email", { bytes: HUGE, chunked, contentType: "application/json" });
      expect([session.status, JSON.parse(session.body)]).toEqual([413, { code: 413, message: "La petición es demasiado grande: admite hasta 1 MB." }]);
    });
  }

  it("lets a body under its bound through whole", async () => {
    const answer = await postStreamed(base, "/contact", { bytes: FORM_BODY_BYTES, chunked: true, contentType: FORM });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ ok: true, bytes: FORM_BODY_BYTES });
    const json = await postStreamed(base, "/api/sesion/sign-in/email", { bytes: JSON_BODY_BYTES, chunked: false, contentType: "application/json" });
    expect(JSON.parse(json.body)).toEqual({ ok: true, bytes: JSON_BODY_BYTES });
  });

  it("leaves uploads to their routes' own limits: 5 MB of multipart reaches /cotiza and /api/cotiza, not /login", async () => {
    const multipart = "multipart/form-data; boundary=forja";
    for (const chunked of [false, true]) {
      for (const path of ["/cotiza", "/api/cotiza", "/admin/productos/nuevo.data"]) {
        const answer = await postStreamed(base, path, { bytes: 5 * MB, chunked, contentType: multipart });
        expect([path, answer.status, JSON.parse(answer.body)]).toEqual([path, 200, { ok: true, bytes: 5 * MB }]);
      }
      const refused = await postStreamed(base, "/login", { bytes: 5 * MB, chunked, contentType: multipart });
      expect(refused.status).toBe(413);
    }
  });
});
