import fs from "node:fs";
import http from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// Issue 13 §5 (docs/decisions/0042): a kept public page is answered before the middleware chain.
// On the real production server over HTTP: the early answer is the normal path's, header for header
// and byte for byte, in every encoding, with conditional GET, both session variants and the access
// log; and what the chain refuses (an unreadable address, a GET with a body past its bound, a
// non-canonical address) is still refused once the page is kept.

const dataDir = await vi.hoisted(async () => (await import("../tests/support/test-env")).isolateTestEnv("page-cache"));

import { getAuthSecret } from "~/services/security/secret.server";
import { signedInStaff } from "../tests/support/auth-requests";
import { sdkClient } from "../tests/support/sdk-client";
import { startTestServer, type TestServer } from "../tests/support/test-server";

/** Headers that differ on every response whichever path answers it. */
const PER_RESPONSE = new Set(["date", "x-request-id"]);
const SESSION_COOKIE = "forja.session_token=una.sesion";
const STAFF = { email: `cache-admin-${process.pid}@forja.mx`, password: "Panel-Forja-Seguro-1", name: "Administración Caché" };

let server: TestServer | undefined;
let log = "";
let sequence = 0;

beforeAll(async () => {
  server = await startTestServer({
    dataDir,
    env: { AUTH_SECRET: getAuthSecret(), LOG_LEVEL: "info" },
    onOutput: (text) => (log += text),
    prepare: async () => void (await signedInStaff(STAFF.email, STAFF.password, STAFF.name)),
  });
}, 360_000);

afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** The access log's line for this request. */
  logged: { status: number; url: string; earlyPage?: boolean };
}

/** One request over a fresh connection, with its own request id, and the access log's line for it. */
async function get(path: string, headers: Record<string, string> = {}, options: { method?: string; body?: Buffer } = {}): Promise<Answer> {
  const requestId = `prueba-cache-${process.pid}-${(sequence += 1)}`;
  const answer = await new Promise<Omit<Answer, "logged">>((resolve, reject) => {
    const request = http.request(`${server!.url}${path}`, { method: options.method ?? "GET", headers: { "x-request-id": requestId, connection: "close", ...headers }, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        const flat: Record<string, string> = {};
        for (const [name, value] of Object.entries(response.headers)) flat[name] = Array.isArray(value) ? value.join(", ") : String(value);
        resolve({ status: response.statusCode!, headers: flat, body: Buffer.concat(chunks) });
      });
      response.on("error", reject);
    });
    request.on("error", reject);
    request.end(options.body);
  });
  expect(answer.headers["x-request-id"]).toBe(requestId);
  let line: string | undefined;
  for (const deadline = Date.now() + 5_000; !line && Date.now() < deadline; ) {
    line = log.split("\n").find((text) => text.includes(`"reqId":"${requestId}"`) && text.includes('"msg":"request"'));
    if (!line) await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(line, `access log line of ${path}`).toBeDefined();
  return { ...answer, logged: JSON.parse(line!) };
}

const withoutPerResponse = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).filter(([name]) => !PER_RESPONSE.has(name)));
const withoutBodyHeaders = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(withoutPerResponse(headers)).filter(([name]) => name !== "content-encoding" && name !== "content-length"));

/**
 * Waits until the catalogue stops changing: just after the start the demo models are stored one by
 * one, and every change makes the kept catalogue pages stale (rendered again by the normal path).
 */
async function catalogueSettled(): Promise<void> {
  let early = 0;
  for (const deadline = Date.now() + 120_000; early < 12; ) {
    if (Date.now() > deadline) throw new Error("the catalogue kept changing");
    early = (await get("/catalogo", {}, { method: "HEAD" })).logged.earlyPage ? early + 1 : 0;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * The normal path's answer for an address not yet requested (the page is rendered, then kept).
 */
async function normalAnswer(path: string): Promise<Answer> {
  const normal = await get(path, { "accept-encoding": "br, gzip" });
  expect(normal.logged.earlyPage, `${path}: rendered through the chain`).toBeUndefined();
  return normal;
}

function decoded(answer: Answer): Buffer {
  const encoding = answer.headers["content-encoding"];
  if (encoding === "br") return brotliDecompressSync(answer.body);
  if (encoding === "gzip") return gunzipSync(answer.body);
  return answer.body;
}

describe("kept public pages, answered before the middleware chain", { timeout: 120_000 }, () => {
  it("answers the same headers and bytes as the normal path, in every encoding, and logs each request", async () => {
    await catalogueSettled();
    // A build page, the cached form page and a catalogue (live) page, each asked for the first time.
    for (const path of ["/", "/cotiza", "/catalogo?q=brida"]) {
      const first = await normalAnswer(path);
      expect(first.status, path).toBe(200);
      expect(first.headers["content-encoding"]).toBe("br");
      for (const encoding of ["br", "gzip", "identity"]) {
        const early = await get(path, { "accept-encoding": encoding });
        expect(early.logged, `${path} ${encoding}`).toMatchObject({ status: 200, url: path, earlyPage: true });
        // The normal path's headers; only the body's encoding and length follow the request.
        expect(withoutBodyHeaders(early.headers), `${path} ${encoding}`).toEqual(withoutBodyHeaders(first.headers));
        expect(early.headers["content-encoding"], `${path} ${encoding}`).toBe(encoding === "identity" ? undefined : encoding);
        expect(Number(early.headers["content-length"])).toBe(early.body.length);
        expect(decoded(early).equals(decoded(first)), `${path} ${encoding}: the same page`).toBe(true);
      }
      const early = await get(path, { "accept-encoding": "gzip" });
      // Every protective header, the page's own policy (inline scripts by hash), caching and variants.
      expect(early.headers).toMatchObject({
        "content-type": "text/html; charset=utf-8",
        "x-content-type-options": "nosniff",
        "x-frame-options": "DENY",
        "referrer-policy": "strict-origin-when-cross-origin",
        "cross-origin-opener-policy": "same-origin-allow-popups",
        "permissions-policy": "camera=(), microphone=(), geolocation=()",
        "cache-control": "no-cache",
        vary: "Cookie, Accept-Encoding",
      });
      expect(early.headers["content-security-policy"]).toMatch(/script-src 'self'( 'sha256-[\w+/=]+')+;/);
      expect(early.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
      expect(early.headers["content-security-policy"]).not.toContain("nonce");
      expect(early.headers["strict-transport-security"]).toBeUndefined();
      // HEAD: the same headers, no body.
      const head = await get(path, { "accept-encoding": "gzip" }, { method: "HEAD" });
      expect(head.logged.earlyPage).toBe(true);
      expect(head.body.length).toBe(0);
      expect(withoutPerResponse(head.headers)).toEqual(withoutPerResponse(early.headers));
    }
  });

  it("answers a conditional GET with 304 and the page's headers, and a changed ETag with the page", async () => {
    const page = await get("/servicios", { "accept-encoding": "gzip" });
    const etag = page.headers["etag"]!;
    expect(etag).toMatch(/^"[\w-]{27}"$/);
    const notModified = await get("/servicios", { "accept-encoding": "gzip", "if-none-match": etag });
    expect(notModified.status).toBe(304);
    expect(notModified.logged).toMatchObject({ status: 304, earlyPage: true });
    expect(notModified.body.length).toBe(0);
    expect(notModified.headers).toMatchObject({ etag, vary: "Cookie, Accept-Encoding", "cache-control": "no-cache", "x-frame-options": "DENY" });
    expect(notModified.headers["content-security-policy"]).toBe(page.headers["content-security-policy"]);
    const other = await get("/servicios", { "accept-encoding": "gzip", "if-none-match": '"otra-version"' });
    expect(other.status).toBe(200);
    expect(decoded(other).equals(decoded(page))).toBe(true);
  });

  it("keeps the two session variants apart: a session cookie gets the signed-in header, any other cookie the anonymous one", async () => {
    const anonymous = await get("/faqs");
    const member = await get("/faqs", { cookie: SESSION_COOKIE });
    for (const [label, headers] of [
      ["anónima", {}],
      ["otra cookie", { cookie: "preferencia=1" }],
      ["sesión", { cookie: `otra=2; ${SESSION_COOKIE}` }],
    ] as const) {
      const early = await get("/faqs", headers);
      expect(early.logged.earlyPage, label).toBe(true);
      expect(early.headers["etag"], label).toBe((label === "sesión" ? member : anonymous).headers["etag"]);
    }
    expect(member.headers["etag"]).not.toBe(anonymous.headers["etag"]);
    expect(decoded(member).toString()).toContain("Mi cuenta");
    expect(decoded(anonymous).toString()).toContain("Iniciar sesión");
  });

  it("still refuses what the chain refuses once the page is kept", async () => {
    expect((await get("/contact")).status).toBe(200);
    expect((await get("/contact")).logged.earlyPage).toBe(true);
    // An unreadable address: the input guard's Spanish 400, never the kept page.
    for (const path of ["/contact%", "/contact%zz", "/contact%00", "/contact%C3"]) {
      const refused = await get(path);
      expect(refused.status, path).toBe(400);
      expect(refused.logged.earlyPage, path).toBeUndefined();
    }
    // A GET with a body past the forms' bound goes through the body limits (413), not the cache.
    const body = Buffer.alloc(70 * 1024, "a");
    const withBody = await get("/contact", { "content-type": "application/x-www-form-urlencoded", "content-length": String(body.length) }, { body });
    expect(withBody.status).toBe(413);
    expect(withBody.logged.earlyPage).toBeUndefined();
    // Another spelling of the address: the canonical redirect.
    const upper = await get("/CONTACT");
    expect(upper.status).toBe(301);
    expect(upper.headers["location"]).toBe("/contact");
    // A query: rendered for this request, under its own nonce.
    const query = await get("/contact?origen=correo");
    expect(query.status).toBe(200);
    expect(query.logged.earlyPage).toBeUndefined();
    expect(query.headers["content-security-policy"]).toMatch(/'nonce-[\w+/=]+'/);
    // A POST is never answered from the cache.
    const post = await get("/contact", { "content-type": "application/x-www-form-urlencoded", "content-length": "0", origin: server!.url }, { method: "POST" });
    expect(post.logged.earlyPage).toBeUndefined();
  });

  it("renders every kept page again when the business facts change (the layout shows them), and the content pages only with their own data", async () => {
    await catalogueSettled();
    const admin = sdkClient(server!.url);
    await admin.collection("_superusers").authWithPassword(STAFF.email, STAFF.password);
    const [ajustes] = await admin.collection("ajustes").getFullList<{ id: string; horario: string }>();
    const [question] = await admin.collection("preguntas").getFullList<{ id: string; orden: number }>({ sort: "orden" });
    const keptPaths = ["/servicios", "/cotiza", "/faqs", "/catalogo?q=brida"];
    const allKept = async () => {
      for (const path of keptPaths) await get(path);
      for (const path of keptPaths) expect((await get(path)).logged.earlyPage, `${path} kept`).toBe(true);
    };
    await allKept();

    // A question is published: /faqs is rendered again, the pages that do not show questions stay kept.
    await admin.collection("preguntas").update(question.id, { orden: question.orden });
    expect((await get("/faqs")).logged.earlyPage, "/faqs after a question is published").toBeUndefined();
    for (const path of ["/servicios", "/cotiza", "/catalogo?q=brida"]) expect((await get(path)).logged.earlyPage, `${path} untouched`).toBe(true);

    // The business facts change: every page, build, form, content and catalogue alike, is rendered again.
    await admin.collection("ajustes").update(ajustes.id, { horario: ajustes.horario });
    for (const path of keptPaths) expect((await get(path)).logged.earlyPage, `${path} after ajustes`).toBeUndefined();
    await allKept();
  });

  it("never keeps nor answers from memory a preview of drafts (?vista-previa)", async () => {
    await get("/faqs");
    expect((await get("/faqs")).logged.earlyPage).toBe(true);
    for (const path of ["/faqs?vista-previa=1", "/faqs?vista-previa", "/servicios?utm_source=x&vista-previa=1"]) {
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const answer = await get(path);
        expect(answer.status, path).toBe(200);
        expect(answer.logged.earlyPage, `${path} (${attempt + 1})`).toBeUndefined();
        // Rendered for this request by the normal handler: the page's nonce, not the kept page's hashes.
        expect(answer.headers["content-security-policy"], path).toContain("nonce-");
      }
    }
  });
});
