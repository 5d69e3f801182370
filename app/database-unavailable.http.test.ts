import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// PostgreSQL stopped under two real app processes (issue 17 §6, docs/decisions/0052): a request
// that needs the database is answered 503 with Retry-After and the Spanish page (or PocketBase's
// JSON error on /api/*) within seconds, pages that need no database keep answering 200, neither
// process dies, and both serve again within seconds of the cluster coming back. The cluster is a
// throwaway PostgreSQL 15 this test owns (it stops and starts it), whatever TEST_DATABASE_URL says.

const { dataDir, AUTH_SECRET } = await vi.hoisted(async () => {
  const secret = (await import("node:crypto")).randomBytes(32).toString("base64url");
  const dir = (await import("../tests/support/test-env")).isolateTestEnv("pg-down", { set: { AUTH_SECRET: secret } });
  return { dataDir: dir, AUTH_SECRET: secret };
});

import { UNAVAILABLE_MESSAGE } from "~/lib/errors";
import { registeredCustomer } from "../tests/support/auth-requests";
import { startTestServer, type TestServer } from "../tests/support/test-server";
import { startPostgresCluster, type PostgresCluster } from "../tests/support/throwaway-postgres";

const ANSWER_WITHIN_MS = 5_000;
const BACK_WITHIN_MS = 10_000;
const UNAVAILABLE_TITLE = "El sitio no está disponible por un momento";
const CUSTOMER = { name: "Carla Sin Base", email: `carla-sin-base-${process.pid}@ejemplo.mx`, password: "Fresadora-CNC-42" };

let cluster: PostgresCluster | undefined;
let halted = false;
let customerCookie = "";
const servers = {} as { a: TestServer; b: TestServer };
/** Every line both processes wrote (their JSON logs and anything Node printed on a crash). */
let output = "";

/** Pages and API reads that need the database on every request (no page cache answers them). */
const needsDatabase = {
  // A search nobody asked for before the outage: no kept page to answer it.
  catalogueSearch: { path: "/catalogo?q=fresadora", html: true },
  quotes: { path: "/quotes", html: true, signedIn: true },
  recordList: { path: "/api/collections/productos/records?perPage=5", html: false },
} as const;
/** Public pages the page cache keeps: answered from memory while the database is away (0052, 0053). */
const PUBLIC_PAGES = ["/", "/about", "/catalogo?q=fresa"];

interface Answer {
  status: number;
  ms: number;
  retryAfter: string | null;
  contentType: string;
  body: string;
}

async function ask(server: TestServer, path: string, cookie?: string): Promise<Answer> {
  const started = performance.now();
  const response = await fetch(`${server.url}${path}`, {
    redirect: "manual",
    headers: { accept: path.startsWith("/api/") ? "application/json" : "text/html", ...(cookie ? { cookie } : {}) },
    signal: AbortSignal.timeout(15_000),
  });
  const body = await response.text();
  return { status: response.status, ms: performance.now() - started, retryAfter: response.headers.get("retry-after"), contentType: response.headers.get("content-type") ?? "", body };
}

const askFor = (server: TestServer, which: keyof typeof needsDatabase) => {
  const target = needsDatabase[which];
  return ask(server, target.path, "signedIn" in target ? customerCookie : undefined);
};

/**
 * A light steady load on both processes while the test runs (about ten requests a second in all):
 * every answer is recorded; a refused or reset connection (a process gone) is a failure.
 */
function lightLoad(targets: TestServer[]) {
  const answers: { at: number; status: number; ms: number; path: string }[] = [];
  const failures: string[] = [];
  // Not the search asked during the outage: the load would get it kept before.
  const paths = [...PUBLIC_PAGES, ...Object.values(needsDatabase).filter((target) => !("signedIn" in target) && target !== needsDatabase.catalogueSearch).map((target) => target.path)];
  let running = true;
  const loops = targets.map(async (server, index) => {
    for (let turn = index; running; turn += 1) {
      const path = paths[turn % paths.length]!;
      try {
        const answer = await ask(server, path);
        answers.push({ at: performance.now(), status: answer.status, ms: answer.ms, path });
      } catch (error) {
        failures.push(`${server.url}${path}: ${error instanceof Error ? `${error.message} ${String((error.cause as Error | undefined)?.message ?? "")}` : String(error)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });
  return {
    answers,
    failures,
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

/** A session read and two sign-ins on the auth APIs: better-auth's handler (/api/sesion) and the content-service one (/api/auth). */
async function authRequests(server: TestServer, only?: "session"): Promise<(Answer & { path: string })[]> {
  const json = { "content-type": "application/json", accept: "application/json", origin: server.url };
  const requests: [string, RequestInit][] = [
    ["/api/sesion/get-session", { headers: { accept: "application/json", cookie: customerCookie } }],
    ["/api/sesion/sign-in/email", { method: "POST", headers: json, body: JSON.stringify({ email: CUSTOMER.email, password: CUSTOMER.password }) }],
    ["/api/auth/local", { method: "POST", headers: json, body: JSON.stringify({ identifier: CUSTOMER.email, password: CUSTOMER.password }) }],
  ];
  return Promise.all(
    requests.slice(0, only ? 1 : undefined).map(async ([path, init]) => {
      const started = performance.now();
      const response = await fetch(`${server.url}${path}`, { ...init, redirect: "manual", signal: AbortSignal.timeout(15_000) });
      const body = await response.text();
      return { path, status: response.status, ms: performance.now() - started, retryAfter: response.headers.get("retry-after"), contentType: response.headers.get("content-type") ?? "", body };
    }),
  );
}

/** Polls until every request that needs the database answers 200 on `server`; the milliseconds it took. */
async function servingAgain(server: TestServer, since: number): Promise<number> {
  for (;;) {
    const answers = await Promise.all((Object.keys(needsDatabase) as (keyof typeof needsDatabase)[]).map((which) => askFor(server, which)));
    if (answers.every((answer) => answer.status === 200)) return performance.now() - since;
    if (performance.now() - since > BACK_WITHIN_MS) {
      throw new Error(`${server.url} still answers ${answers.map((answer) => answer.status).join(", ")} ${BACK_WITHIN_MS} ms after PostgreSQL is back`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  cluster = await startPostgresCluster();
  // Warnings too: a request answered 503 is logged as one, never as an unhandled error.
  const env = { AUTH_SECRET, LOG_LEVEL: "warn" };
  const onOutput = (text: string) => void (output += text);
  servers.a = await startTestServer({
    adminUrl: cluster.adminUrl,
    env,
    onOutput,
    prepare: async () => {
      customerCookie = (await registeredCustomer(CUSTOMER.name, CUSTOMER.email, CUSTOMER.password)).cookie;
    },
  });
  servers.b = await startTestServer({ databaseUrl: servers.a.databaseUrl, env, onOutput });
}, 600_000);

afterAll(async () => {
  // Dropping the test database (A's stop) needs the cluster running.
  if (halted) cluster?.resume();
  await servers.b?.stop();
  await servers.a?.stop();
  await cluster?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, 120_000);

describe("PostgreSQL stopped under two processes", { timeout: 120_000 }, () => {
  it("answers 503 with Retry-After and the Spanish page or JSON within seconds, keeps public pages, and serves again once it is back", async () => {
    const both = [servers.a, servers.b];
    expect(customerCookie).not.toBe("");
    // Everything answers before the outage; the public pages are kept by the page cache.
    for (const server of both) {
      for (const which of ["quotes", "recordList"] as const) {
        expect((await askFor(server, which)).status, `${server.url}${needsDatabase[which].path} before the outage`).toBe(200);
      }
      const [session] = await authRequests(server, "session");
      expect(session!.status, "/api/sesion/get-session before the outage").toBe(200);
      expect(JSON.parse(session!.body)).toMatchObject({ user: { email: CUSTOMER.email } });
      for (const path of PUBLIC_PAGES) {
        const first = await fetch(`${server.url}${path}`, { signal: AbortSignal.timeout(15_000) });
        await first.arrayBuffer();
        expect(first.status).toBe(200);
        expect(first.headers.get("etag"), `${server.url}${path} is kept by the page cache`).toBeTruthy();
      }
    }

    const load = lightLoad(both);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    cluster!.halt(); // pg_ctl stop -m fast -w: sessions ended (57P01), then the port refuses
    halted = true;
    const downAt = performance.now();

    const unavailableMs: number[] = [];
    for (const server of both) {
      const [catalogue, quotes, records] = await Promise.all([askFor(server, "catalogueSearch"), askFor(server, "quotes"), askFor(server, "recordList")]);
      unavailableMs.push(...[catalogue, quotes, records].map((answer) => Math.round(answer.ms)));
      for (const [answer, path] of [
        [catalogue, needsDatabase.catalogueSearch.path],
        [quotes, needsDatabase.quotes.path],
      ] as const) {
        expect(answer.status, `${server.url}${path} while PostgreSQL is down`).toBe(503);
        expect(answer.ms, `${server.url}${path} answered within ${ANSWER_WITHIN_MS} ms`).toBeLessThan(ANSWER_WITHIN_MS);
        expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
        expect(Number(answer.retryAfter)).toBeLessThanOrEqual(30);
        expect(answer.contentType).toContain("text/html");
        expect(answer.body).toContain(UNAVAILABLE_TITLE);
        expect(answer.body).toContain('lang="es-MX"');
        expect(answer.body).not.toContain("Unexpected Server Error");
      }
      // A client-side navigation's data request: the same 503, for the same page to show.
      const navigation = await ask(server, "/catalogo.data?q=fresa");
      expect(navigation.status).toBe(503);
      expect(Number(navigation.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(navigation.body).toContain(UNAVAILABLE_MESSAGE);

      expect(records.status).toBe(503);
      expect(records.ms).toBeLessThan(ANSWER_WITHIN_MS);
      expect(Number(records.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(records.contentType).toContain("application/json");
      expect(JSON.parse(records.body)).toEqual({ status: 503, message: UNAVAILABLE_MESSAGE, data: {} });
      expect(UNAVAILABLE_MESSAGE).toContain(UNAVAILABLE_TITLE);

      // The auth APIs (0065): better-auth's own handler (/api/sesion, which answered a bare 500) and the
      // content-service one (/api/auth), as sign-ins and session reads send them.
      for (const answer of await authRequests(server)) {
        expect(answer.status, `${answer.path} while PostgreSQL is down`).toBe(503);
        expect(answer.ms).toBeLessThan(ANSWER_WITHIN_MS);
        expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
        expect(JSON.parse(answer.body), answer.path).toEqual({ status: 503, message: UNAVAILABLE_MESSAGE, data: {} });
      }

      for (const path of PUBLIC_PAGES) {
        const page = await ask(server, path);
        expect(page.status, `${server.url}${path} while PostgreSQL is down`).toBe(200);
        expect(page.ms).toBeLessThan(ANSWER_WITHIN_MS);
      }
    }
    const downFor = performance.now() - downAt;

    cluster!.resume();
    halted = false;
    const upAt = performance.now();
    const backAfter = await Promise.all(both.map((server) => servingAgain(server, upAt)));
    await new Promise((resolve) => setTimeout(resolve, 500));
    await load.stop();

    console.log(
      JSON.stringify({
        unavailableMs,
        checkedWhileDownMs: Math.round(downFor),
        backAfterMs: backAfter.map(Math.round),
        loadAnswers: load.answers.length,
        statuses: Object.fromEntries([...new Set(load.answers.map((answer) => answer.status))].map((status) => [status, load.answers.filter((answer) => answer.status === status).length])),
        slowestMs: Math.round(Math.max(...load.answers.map((answer) => answer.ms))),
      }),
    );
    // No process went away: every request of the load got an HTTP answer, never a 500, all in time.
    expect(load.failures).toEqual([]);
    expect(load.answers.length).toBeGreaterThan(10);
    expect(load.answers.filter((answer) => answer.status !== 200 && answer.status !== 503)).toEqual([]);
    expect(Math.max(...load.answers.map((answer) => answer.ms))).toBeLessThan(ANSWER_WITHIN_MS);
    expect(output).toContain('"msg":"database unavailable: answered 503"');
    expect(output).not.toContain("unhandled error in loader or action");
    // Each process started once: neither crashed and came back.
    expect(output.match(/"msg":"server listening"/g)).toHaveLength(2);
  });
});
