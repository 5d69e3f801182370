import fs from "node:fs";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// Issue 14: 100 MB posted to /login took 72 s and 1.9 GB. The real production server over HTTP:
// 100 MB of form to /login and /registro and of JSON to the APIs, generated while sent (never held
// in memory), with Content-Length and chunked, is refused with a 413 within about a second, and
// the server's memory hardly moves; an upload past the forms' 64 KB but within its own limits
// still goes through. An answer before the body closes only after reading the rest of it.

const dataDir = await vi.hoisted(async () => (await import("../tests/support/test-env")).isolateTestEnv("body-limit"));

import { getAuthSecret } from "~/services/security/secret.server";
import { largeStepFile } from "../tests/support/minimal-files";
import { validQuoteFields } from "../tests/support/solicitud-requests";
import { postStreamed } from "../tests/support/streamed-body";
import { startTestServer, type TestServer } from "../tests/support/test-server";

const MB = 1024 * 1024;
const HUGE = 100 * MB;
/** "Within about a second": the answer's headers, from the first byte sent (a busy 2-core machine included). */
const PROMPT_MS = 1_500;
/** How much the server's resident memory may grow over all the refused bodies. */
const RSS_GROWTH_BYTES = 64 * MB;
const FORM = "application/x-www-form-urlencoded";

let server: TestServer | undefined;

beforeAll(async () => {
  server = await startTestServer({ dataDir, env: { AUTH_SECRET: getAuthSecret() } });
}, 360_000);

afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

/** The server process's resident memory (Linux /proc): it runs with this file's DATA_DIR. */
function serverRss(): number {
  for (const pid of fs.readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    let environ: string;
    try {
      environ = fs.readFileSync(`/proc/${pid}/environ`, "utf8");
    } catch {
      continue;
    }
    if (!environ.split("\0").includes(`DATA_DIR=${dataDir}`) || !fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("server/index.ts")) continue;
    const rss = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    if (rss) return Number(rss[1]) * 1024;
  }
  throw new Error("server process not found");
}

describe("bodies past their bound, on the real server", { timeout: 120_000 }, () => {
  const cases = [
    { path: "/login", contentType: FORM, prefix: "email=a%40b.mx&password=", page: true },
    { path: "/registro", contentType: FORM, prefix: "name=Ana&email=a%40b.mx&password=", page: true },
    { path: "/api/collections/users/records", contentType: "application/json", prefix: '{"email":"', page: false },
    { path: "/api/auth/local/register", contentType: "application/json", prefix: '{"username":"', page: false },
  ];

  it("are refused with a 413 within about a second, with Content-Length and chunked, and the server's memory hardly grows", async () => {
    // Warm up: the first requests load modules (the pages, the record API, the auth routes) that
    // have nothing to do with the refused bodies; a small body to each route loads them first, so
    // what is measured is what the refusals cost.
    await fetch(`${server!.url}/login`, { signal: AbortSignal.timeout(30_000) });
    for (const { path, contentType, prefix } of cases) {
      const small = await postStreamed(server!.url, path, { bytes: prefix.length + 512, chunked: false, contentType, prefix });
      expect([path, small.status < 500]).toEqual([path, true]);
    }
    // The database warms up too: the request log is written within a second, and a server that
    // started from a copied, already migrated DATA_DIR touches its pages only now. Two more rounds,
    // each given the log writer's second, so what is measured is what the refusals cost.
    for (let round = 0; round < 2; round += 1) {
      for (const { path, contentType, prefix } of cases) await postStreamed(server!.url, path, { bytes: prefix.length + 512, chunked: false, contentType, prefix });
      await new Promise((resolve) => setTimeout(resolve, 1_500));
    }
    const before = serverRss();
    for (const { path, contentType, prefix, page } of cases) {
      for (const chunked of [false, true]) {
        const answer = await postStreamed(server!.url, path, { bytes: HUGE, chunked, contentType, prefix });
        const label = `${path} ${chunked ? "chunked" : "Content-Length"}`;
        expect([label, answer.status]).toEqual([label, 413]);
        expect(answer.ms, label).toBeLessThan(PROMPT_MS);
        expect(answer.sent, label).toBeLessThan(HUGE);
        expect(answer.headers.connection, label).toBe("close");
        if (page) {
          expect(answer.headers["content-type"], label).toMatch(/^text\/html/);
          expect(answer.body, label).toContain("El formulario es demasiado grande");
        } else if (path.startsWith("/api/auth")) {
          expect(JSON.parse(answer.body), label).toEqual({ data: null, error: { status: 413, name: "PayloadTooLargeError", message: "Request entity too large", details: {} } });
        } else {
          expect(JSON.parse(answer.body), label).toEqual({ status: 413, message: "Request entity too large.", data: {} });
        }
      }
    }
    expect(serverRss() - before).toBeLessThan(RSS_GROWTH_BYTES);
    // And it still answers.
    expect((await fetch(`${server!.url}/api/health`, { signal: AbortSignal.timeout(30_000) })).status).toBe(200);
  });

  it("lets an upload past the forms' 64 KB through to its route's own limits (/api/cotiza, 600 KB)", async () => {
    const page = await (await fetch(`${server!.url}/cotiza`, { signal: AbortSignal.timeout(30_000) })).text();
    const formToken = (/<input[^>]*name="formToken"[^>]*value="([^"]+)"/.exec(page) ?? /<input[^>]*value="([^"]+)"[^>]*name="formToken"/.exec(page))?.[1]?.replace(/&amp;/g, "&");
    expect(formToken).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 3_100)); // the forms' minimum fill time
    const form = new FormData();
    for (const [name, value] of Object.entries(validQuoteFields({ formToken: formToken! }))) for (const item of [value].flat()) form.append(name, String(item));
    form.append("files", new Blob([Buffer.from(largeStepFile(600_000))], { type: "application/step" }), "soporte.step");
    const sent = await fetch(`${server!.url}/api/cotiza`, { method: "POST", body: form, headers: { origin: server!.url, "x-forwarded-for": "10.77.0.1" }, signal: AbortSignal.timeout(30_000) });
    expect([sent.status, await sent.json()]).toEqual([200, { ok: true, number: expect.stringMatching(/^SOL-\d{4}-\d{4}$/) }]);
  });
});

// An answer written before the request's body arrived (here PocketBase's 401 to a guest's backup
// upload, decided on the headers alone) closes the connection, and the rest of the body is read
// and dropped before it closes (docs/decisions/0078): closing with the client's bytes still
// arriving would answer them with a reset, which can reach the client before it has read the
// answer. The SDK then reported no answer at all instead of the refusal.

interface Exchange {
  answer: string;
  /** How the connection ended after the body was sent: the server's orderly close, or an error (a reset). */
  ending: "end" | `error ${string}`;
}

/** The answer is all there: its Content-Length's bytes, or a chunked body's last chunk. */
function wholeAnswer(text: string): boolean {
  const head = text.indexOf("\r\n\r\n");
  if (head < 0) return false;
  const length = /\r\ncontent-length: (\d+)/i.exec(text.slice(0, head));
  return length ? text.length >= head + 4 + Number(length[1]) : text.endsWith("\r\n0\r\n\r\n");
}

/**
 * Sends the headers (and `start`, the body's first bytes), reads the whole answer, waits, then sends
 * the rest of the body (in two halves, the second followed by `pipelined`: another request on the
 * same connection) and ends our side.
 */
function headersThenBody(path: string, body: Buffer, contentType: string, { pipelined = Buffer.alloc(0), start = Buffer.alloc(0) } = {}): Promise<Exchange> {
  const { port } = new URL(server!.url);
  return new Promise((resolve, reject) => {
    // Half-open: our side may still send after the server's side ended.
    const socket = net.connect({ host: "127.0.0.1", port: Number(port), allowHalfOpen: true });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the exchange did not end within 10 s (answer so far: ${JSON.stringify(answer)}; body sent: ${sentBody})`));
    }, 10_000);
    let answer = "";
    let sentBody = false;
    const finish = (ending: Exchange["ending"]) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ answer, ending });
    };
    socket.on("data", (chunk) => {
      answer += chunk.toString("latin1");
      if (sentBody || !wholeAnswer(answer)) return;
      sentBody = true;
      // The answer is whole: the server has written it and, without a lingering close, closed the
      // connection. The body then goes in two halves: bytes sent to a closed connection come back
      // as a reset, and the second half's write reports it.
      const half = body.length >> 1;
      setTimeout(() => {
        socket.write(body.subarray(0, half));
        setTimeout(() => socket.end(Buffer.concat([body.subarray(half), pipelined])), 300);
      }, 300);
    });
    // Both sides ended (the server's end may come before or after the body is sent): an orderly close.
    socket.on("close", (hadError) => {
      if (!hadError) finish("end");
    });
    socket.on("error", (error: NodeJS.ErrnoException) => finish(`error ${error.code ?? error.message}`));
    socket.write(
      Buffer.concat([
        Buffer.from(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: ${contentType}\r\nContent-Length: ${start.length + body.length}\r\nAccept: application/json\r\n\r\n`),
        start,
      ]),
    );
  });
}

describe("an answer before the body", () => {
  it("closes the connection only after reading the rest of the body: the client gets the answer and an orderly close, not a reset", { timeout: 60_000 }, async () => {
    const boundary = "----forjaprueba";
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="forja_backup_20260101120000.zip"\r\nContent-Type: application/zip\r\n\r\n`),
      Buffer.alloc(256 * 1024, 7),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const exchange = await headersThenBody("/api/backups/upload", body, `multipart/form-data; boundary=${boundary}`);
      expect(exchange.answer).toMatch(/^HTTP\/1\.1 401 /);
      expect(exchange.answer).toMatch(/\r\nconnection: close\r\n/i);
      expect(exchange.answer).toContain('"message":"The request requires valid record authorization token."');
      expect(exchange.ending).toBe("end");
    }
  });

  it("reaches the client of an upload the server stops reading half-way (a part's header past its limit), then closes in order", { timeout: 60_000 }, async () => {
    const boundary = "----forjaprueba";
    const fields = Object.entries(validQuoteFields()).map(
      ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${String(value)}\r\n`,
    );
    // The file's part header alone is past the reader's 16 KB for a header: it stops reading there.
    const start = Buffer.from(`${fields.join("")}--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${"x".repeat(100_000)}.pdf"\r\nContent-Type: application/pdf\r\n\r\n`);
    const rest = Buffer.concat([Buffer.alloc(256 * 1024, 7), Buffer.from(`\r\n--${boundary}--\r\n`)]);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const exchange = await headersThenBody("/api/cotiza", rest, `multipart/form-data; boundary=${boundary}`, { start });
      expect(exchange.answer).toMatch(/^HTTP\/1\.1 400 /);
      expect(exchange.answer).toMatch(/\r\nconnection: close\r\n/i);
      expect(exchange.answer).toContain("Ana Torres");
      expect(exchange.ending).toBe("end");
    }
  });

  it("does not run a request pipelined behind that answer: it could never be answered", { timeout: 60_000 }, async () => {
    const email = `encadenada-${process.pid}@ejemplo.mx`;
    const account = JSON.stringify({ username: "Pedro Encadenado", email, password: "Sistema-Forja-Seguro-7" });
    const register = `POST /api/auth/local/register HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(account)}\r\n\r\n${account}`;
    const exchange = await headersThenBody("/api/backups/upload", Buffer.alloc(32 * 1024, 7), "application/zip", { pipelined: Buffer.from(register) });
    expect(exchange.answer).toMatch(/^HTTP\/1\.1 401 /);
    expect(exchange.answer).not.toContain("HTTP/1.1 200");
    expect(exchange.ending).toBe("end");
    // The account was not created behind the refusal: registering it now, once a request run
    // behind it would have finished, is the first time.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const again = await fetch(`${server!.url}/api/auth/local/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: account,
      signal: AbortSignal.timeout(30_000),
    });
    expect([again.status, ((await again.json()) as { user?: { email?: string } }).user?.email]).toEqual([200, email]);
  });
});
