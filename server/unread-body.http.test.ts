import fs from "node:fs";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// An answer written before the request's body arrived (here PocketBase's 401 to a guest's backup
// upload, decided on the headers alone) closes the connection, and the rest of the body is read
// and dropped before it closes: closing with the client's bytes still arriving would answer them
// with a reset, which can reach the client before it has read the answer. The SDK then reported no
// answer at all instead of the refusal (a flaky backups test under load).

const dataDir = await vi.hoisted(async () => (await import("../tests/support/test-env")).isolateTestEnv("unread-body"));

import { getAuthSecret } from "~/services/security/secret.server";
import { startTestServer, type TestServer } from "../tests/support/test-server";

let server: TestServer | undefined;

beforeAll(async () => {
  server = await startTestServer({ dataDir, env: { AUTH_SECRET: getAuthSecret() } });
}, 360_000);

afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

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

/** Sends the headers, reads the whole answer, waits, then sends the body (in two halves) and ends our side. */
function headersThenBody(path: string, body: Buffer, contentType: string): Promise<Exchange> {
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
        setTimeout(() => socket.end(body.subarray(half)), 300);
      }, 300);
    });
    // Both sides ended (the server's end may come before or after the body is sent): an orderly close.
    socket.on("close", (hadError) => {
      if (!hadError) finish("end");
    });
    socket.on("error", (error: NodeJS.ErrnoException) => finish(`error ${error.code ?? error.message}`));
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: ${contentType}\r\nContent-Length: ${body.length}\r\nAccept: application/json\r\n\r\n`,
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
});
