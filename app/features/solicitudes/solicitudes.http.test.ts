import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error -- a plain .mjs script without type declarations
import { startServer } from "../../../scripts/start-server.mjs";
import { quoteFormData, validQuoteFields } from "../../../tests/support/solicitud-requests";
import { withAdminClient } from "../../../tests/support/test-database";
import { childEnv } from "../../../tests/support/test-server";

// The real production server over real HTTP: 200 contact forms posted concurrently must give
// exactly 200 solicitudes numbered SOL-YYYY-0001…0200 with no gaps and no repeats. /contact and
// /cotiza come from the page cache: everyone loading them within the hour gets the same token
// (docs/decisions/0031-cached-forms.md), and every visitor's request must still be stored.
// The server runs on an ephemeral loopback port with its own temporary DATA_DIR (embedded PGlite)
// or, when TEST_DATABASE_URL is set, on a fresh PostgreSQL database created and dropped here.

const ROOT = path.resolve(import.meta.dirname, "../../..");
const BIN = path.join(ROOT, "node_modules/.bin");
const TOTAL = 200;
const CONCURRENCY = 50;

interface RunningServer {
  url: string;
  stop(): Promise<void>;
}

let server: RunningServer | undefined;
let serverRoot: string | undefined;
let serverDown = false;
let postgres: { adminUrl: string; name: string } | undefined;

beforeAll(async () => {
  // Builds only when the sources are newer than build/ (as `npm start` does).
  execFileSync(path.join(BIN, "node"), [path.join(ROOT, "scripts/ensure-build.mjs")], { cwd: ROOT, env: childEnv(), stdio: "inherit", timeout: 300_000 });

  const env: Record<string, string> = { TRUST_PROXY: "loopback", DATABASE_URL: "", SMTP_URL: "", LOG_LEVEL: "error" };
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    const name = `forja_http_${process.pid}_${randomBytes(4).toString("hex")}`;
    await withAdminClient(adminUrl, (client) => client.query(`CREATE DATABASE "${name}"`));
    postgres = { adminUrl, name };
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    env.DATABASE_URL = url.toString();
  }
  // start-server.mjs runs server/index.ts from the working directory, which serves ./build. Run it
  // from a private copy of the build (as the browser tests do), so a rebuild by someone else during
  // the run cannot pull files away from it.
  serverRoot = fs.mkdtempSync(path.join(os.tmpdir(), "forja-http-test-"));
  fs.cpSync(path.join(ROOT, "build"), path.join(serverRoot, "build"), { recursive: true });
  for (const entry of ["node_modules", "server", "drizzle"]) fs.symlinkSync(path.join(ROOT, entry), path.join(serverRoot, entry), "dir");
  // Its temporary DATA_DIR (made under os.tmpdir()) goes inside serverRoot too, so nothing is left
  // behind even if the server dies before stop().
  const previous = { cwd: process.cwd(), tmpdir: process.env.TMPDIR };
  process.chdir(serverRoot);
  process.env.TMPDIR = serverRoot;
  try {
    server = (await startServer({ env, timeoutMs: 60_000 })) as RunningServer;
  } finally {
    process.chdir(previous.cwd);
    if (previous.tmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous.tmpdir;
  }
}, 360_000);

afterAll(async () => {
  if (server && !serverDown) await server.stop();
  if (serverRoot) fs.rmSync(serverRoot, { recursive: true, force: true });
  if (postgres) {
    const { adminUrl, name } = postgres;
    await withAdminClient(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  }
}, 60_000);

/** Runs `task` over `items` with at most `limit` in flight. */
async function inBatches<T, R>(items: T[], limit: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

async function formPage(url: string, path: "/contact" | "/cotiza"): Promise<{ token: string; etag: string }> {
  const response = await fetch(`${url}${path}`, { signal: AbortSignal.timeout(10_000) });
  expect(response.status).toBe(200);
  const html = await response.text();
  const match = /<input[^>]*name="formToken"[^>]*value="([^"]+)"/.exec(html) ?? /<input[^>]*value="([^"]+)"[^>]*name="formToken"/.exec(html);
  if (!match) throw new Error(`GET ${path} has no formToken input`);
  return { token: match[1]!.replace(/&amp;/g, "&"), etag: response.headers.get("etag") ?? "" };
}

const contactToken = async (url: string) => (await formPage(url, "/contact")).token;

describe("contact solicitudes over HTTP", () => {
  it(`stores exactly ${TOTAL} concurrent solicitudes with unique, gapless numbers`, { timeout: 60_000 }, async () => {
    const { url } = server!;
    const tokens = await inBatches(Array.from({ length: TOTAL }), CONCURRENCY, () => contactToken(url));
    // The cached page: one token for everyone (two if its hour ended during the loads).
    expect(new Set(tokens).size).toBeLessThanOrEqual(2);

    await new Promise((resolve) => setTimeout(resolve, 3_100)); // the forms' minimum fill time

    const contactBody = (token: string, index: number) =>
      new URLSearchParams({
        formToken: token,
        name: `Cliente ${index + 1}`,
        email: `cliente${index + 1}@ejemplo.mx`,
        phone: "4421234567",
        subject: `Consulta ${index + 1}`,
        message: "Quisiera información sobre maquinado CNC de piezas de aluminio.",
        privacy: "on",
        sitio_web: "",
      });
    const responses = await inBatches(tokens, CONCURRENCY, async (token, index) => {
      const body = contactBody(token, index);
      const response = await fetch(`${url}/contact`, {
        method: "POST",
        body,
        redirect: "manual",
        // Each its own client address (TRUST_PROXY=loopback), so the per-IP limit does not interfere.
        headers: { "X-Forwarded-For": `10.77.${index >> 8}.${index & 255}`, Origin: url },
        signal: AbortSignal.timeout(30_000),
      });
      await response.body?.cancel();
      return { status: response.status, location: response.headers.get("location") ?? "" };
    });

    const unexpected = responses.filter((response) => ![302, 303].includes(response.status) || !response.location.startsWith("/contact/enviado?folio="));
    expect(unexpected.slice(0, 3)).toEqual([]);

    const folios = responses.map((response) => new URL(response.location, url).searchParams.get("folio") ?? "");
    const year = folios[0]!.split("-")[1];
    expect(year).toMatch(/^\d{4}$/);
    expect(new Set(folios).size).toBe(TOTAL);
    expect([...folios].sort()).toEqual(Array.from({ length: TOTAL }, (_, index) => `SOL-${year}-${String(index + 1).padStart(4, "0")}`));

    // On PostgreSQL the test can look at the server's database while it runs: exactly 200 rows.
    if (postgres) {
      const url = new URL(postgres.adminUrl);
      url.pathname = `/${postgres.name}`;
      const [row] = await withAdminClient(url.toString(), (client) => client.query("select count(*)::int as rows, count(distinct number)::int as numbers from solicitudes").then((result) => result.rows));
      expect(row).toEqual({ rows: TOTAL, numbers: TOTAL });
    }

    // The same form posted again (no JavaScript, so no nonce: its content stands in) names the same folio.
    const again = await fetch(`${url}/contact`, {
      method: "POST",
      body: contactBody(tokens[7]!, 7),
      redirect: "manual",
      headers: { "X-Forwarded-For": "10.78.0.1", Origin: url },
    });
    expect(again.headers.get("location")).toBe(`/contact/enviado?folio=${encodeURIComponent(folios[7]!)}`);
  });

  it("serves /cotiza from the page cache; visitors sharing its token each get their request stored, one visitor posting twice gets one", { timeout: 60_000 }, async () => {
    const { url } = server!;
    const page = await formPage(url, "/cotiza");
    expect(page.etag).toMatch(/^"[\w-]{27}"$/);
    // The same HTML for the next visitor: same ETag, same token.
    expect(await formPage(url, "/cotiza")).toEqual(page);
    await new Promise((resolve) => setTimeout(resolve, 3_100)); // the forms' minimum fill time

    const quote = (visitor: number, extra: Record<string, string> = {}) =>
      quoteFormData(validQuoteFields({ formToken: page.token, name: `Visitante ${visitor}`, email: `visitante${visitor}@ejemplo.mx`, ...extra }));
    const post = async (body: FormData, ip: string) => {
      const response = await fetch(`${url}/cotiza`, { method: "POST", body, redirect: "manual", headers: { "X-Forwarded-For": ip, Origin: url }, signal: AbortSignal.timeout(30_000) });
      await response.body?.cancel();
      expect(response.status).toBe(302);
      return new URL(response.headers.get("location") ?? "", url).searchParams.get("folio") ?? "";
    };

    // Two visitors with JavaScript: each browser's own nonce, the same cached token.
    const ana = { formNonce: crypto.randomUUID(), formFillMs: "4000" };
    const luis = { formNonce: crypto.randomUUID(), formFillMs: "4000" };
    const [forAna, forLuis] = await Promise.all([post(quote(1, ana), "10.80.0.1"), post(quote(2, luis), "10.80.0.2")]);
    expect(forAna).toMatch(/^SOL-\d{4}-\d{4,}$/);
    expect(forLuis).toMatch(/^SOL-\d{4}-\d{4,}$/);
    expect(forLuis).not.toBe(forAna);
    // Ana's form posted twice at once with her nonce: her request, nothing new.
    expect(await Promise.all([post(quote(1, ana), "10.80.0.1"), post(quote(1, ana), "10.80.0.1")])).toEqual([forAna, forAna]);

    // Two visitors without JavaScript (no nonce): both stored; one of them posting twice, once.
    const [forMarta, forJose] = await Promise.all([post(quote(3), "10.80.0.3"), post(quote(4), "10.80.0.4")]);
    expect(new Set([forAna, forLuis, forMarta, forJose]).size).toBe(4);
    expect(await post(quote(3), "10.80.0.3")).toBe(forMarta);

    // Four requests stored, consecutively numbered: the repeated posts stored nothing in between.
    const numbers = [forAna, forLuis, forMarta, forJose].map((folio) => Number(folio.split("-")[2])).sort((a, b) => a - b);
    expect(numbers).toEqual([0, 1, 2, 3].map((step) => numbers[0]! + step));
  });

  // A multipart body that ends without its closing boundary (a client that stops early) must be
  // answered, not crash the server process with an uncaught "Unexpected end of form".
  it("survives a /cotiza upload cut off before its closing boundary", { timeout: 30_000 }, async () => {
    const { url } = server!;
    const body = [
      "--limite",
      'Content-Disposition: form-data; name="name"',
      "",
      "Ana Torres",
      "--limite",
      'Content-Disposition: form-data; name="files"; filename="cortado.step"',
      "Content-Type: application/octet-stream",
      "",
      "ISO-10303-21;\r\nHEADER;",
    ].join("\r\n");
    const cut = await fetch(`${url}/api/cotiza`, {
      method: "POST",
      body,
      headers: { "content-type": "multipart/form-data; boundary=limite", Origin: url, "X-Forwarded-For": "10.79.0.1" },
      signal: AbortSignal.timeout(10_000),
    }).then(
      (response) => response.status,
      (error: Error) => error.name,
    );
    const health = await fetch(`${url}/contact`, { signal: AbortSignal.timeout(5_000) }).then(
      (response) => response.status,
      (error: Error) => {
        serverDown = true;
        return `${error.name}: ${error.message}`;
      },
    );
    expect({ cut, health }).toEqual({ cut: 400, health: 200 });
  });
});
