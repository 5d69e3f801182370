import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// Issue 14: bad input never gets a 500. Random and malformed requests, sent over HTTP to the real
// production server (PGlite, or PostgreSQL with TEST_DATABASE_URL), to every route with an action
// and every API route — read from app/routes.ts, so a new route is covered without editing this
// file — as a guest, a signed-in customer and staff: random bytes, the wrong content type, broken
// multipart, invalid UTF-8, NUL bytes in fields, file names and URLs, 1 MB values, random intents;
// and GETs of every page with NUL and malformed queries. Every answer must be < 500 and the server
// must still answer afterwards. Seeded (INPUT_FUZZ_SEED replays a run; fast-check prints the seed
// and the path of a failing case) and bounded in time.

const dataDir = await vi.hoisted(async () => (await import("../tests/support/test-env")).isolateTestEnv("input-fuzz"));

import routeConfig from "~/routes";
import { createProduct } from "~/features/catalogue/product-commands.server";
import { getAuthSecret } from "~/services/security/secret.server";
import { registeredCustomer, signedInStaff } from "../tests/support/auth-requests";
import { productValues } from "../tests/support/catalogue-fixtures";
import { anOrder } from "../tests/support/orders-fixtures";
import { aSolicitud, createTestQuote } from "../tests/support/quote-fixtures";
import { startTestServer, type TestServer } from "../tests/support/test-server";

const SEED = Number(process.env.INPUT_FUZZ_SEED ?? 20_261_124);
/** Time for the requests themselves (the build and the server's start are not counted). */
const POST_BUDGET_MS = 40_000;
const GET_BUDGET_MS = 18_000;
const RUNS_PER_ACTION = Number(process.env.INPUT_FUZZ_RUNS ?? 16);
const RUNS_PER_PAGE = 3;
/** Requests in flight at once. */
const CONCURRENCY = 3;
const REQUEST_TIMEOUT_MS = 15_000;
const APP_DIR = path.resolve(import.meta.dirname, "../app");

// ——— The routes, from app/routes.ts ———

interface Target {
  /** The path with its params, e.g. "admin/cotizaciones/:id". */
  template: string;
  hasAction: boolean;
  hasLoader: boolean;
}

function flatten(entries: RouteConfigEntry[], parent = ""): Target[] {
  return entries.flatMap((entry) => {
    const template = entry.path ? [parent, entry.path].filter(Boolean).join("/") : parent;
    const source = fs.readFileSync(path.join(APP_DIR, entry.file), "utf8");
    const exports = (name: string) => new RegExp(`export\\s+(async\\s+)?(function|const)\\s+${name}\\b`).test(source);
    const own = entry.path !== undefined || entry.index ? [{ template, hasAction: exports("action"), hasLoader: exports("loader") }] : [];
    return [...own, ...flatten(entry.children ?? [], template)];
  });
}

const TARGETS = [...new Map(flatten(routeConfig).map((target) => [`${target.template}|${target.hasAction}`, target])).values()].filter(
  // The test route that throws on purpose is a 404 unless the server is told otherwise.
  (target) => target.template !== "__error",
);
const ACTIONS = TARGETS.filter((target) => target.hasAction || target.template.startsWith("api/"));
const PAGES = TARGETS.filter((target) => target.hasLoader || !target.hasAction);

// ——— The server, its records and sessions ———

const STAFF = { name: "Personal Fuzz", email: `personal-entrada-${process.pid}@forja.mx`, password: "Panel-Forja-Seguro-1" };
const CUSTOMER = { name: "Regina Salazar", email: `regina-entrada-${process.pid}@ejemplo.mx`, password: "Fresadora-CNC-42" };
const cookies = { guest: "", customer: "", staff: "" };
const tokens = { guest: "", customer: "", staff: "" };
type Role = keyof typeof cookies;
const ROLES: Role[] = ["guest", "customer", "staff"];
const ids = { quote: "", draft: "", solicitud: "", order: "", orderNumber: "", product: "", slug: "" };
let server: TestServer | undefined;
/** What the server wrote (errors only): shown with the failures. */
let serverLog = "";

async function prepare(): Promise<void> {
  cookies.staff = (await signedInStaff(STAFF.email, STAFF.password, STAFF.name)).cookie;
  const customer = await registeredCustomer(CUSTOMER.name, CUSTOMER.email, CUSTOMER.password);
  cookies.customer = customer.cookie;
  const product = await createProduct(productValues({ price: 12_345, stock: 50 }));
  if (!product.ok) throw new Error("product not created");
  ids.product = product.value.id;
  ids.slug = product.value.slug;
  ids.quote = (await createTestQuote({ name: CUSTOMER.name, email: CUSTOMER.email, userId: customer.id })).id;
  ids.draft = (await createTestQuote({ name: CUSTOMER.name, email: CUSTOMER.email, userId: customer.id }, { send: false })).id;
  ids.solicitud = (await aSolicitud()).id;
  const order = await anOrder(ids.product, { userId: customer.id });
  if (!order.ok) throw new Error("order not placed");
  ids.order = order.orderId;
  ids.orderNumber = order.number;
}

// ——— What is sent ———

const NUL = "\u0000";
/** Strings that have broken servers: NUL, other controls, lone surrogates, SQL and markup, long ones. */
const nastyString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.constantFrom(NUL, `brida${NUL}`, `${NUL}${NUL}`, "\u0001\u0002\u001f\u007f", "\ud800", "a\udfffb", "\ufeff", "'; DROP TABLE quotes; --", "<script>alert(1)</script>", "%00", "%ff", "%", "../../etc/passwd", "", " ", "-1", "1e309", "NaN", "99999999999999999999", "true", "null", "[]", "{}"),
  fc.nat({ max: 70_000 }).map((length) => "x".repeat(length)),
);
const ipArb = fc.tuple(fc.nat({ max: 255 }), fc.nat({ max: 255 }), fc.nat({ max: 255 })).map(([a, b, c]) => `10.${a}.${b}.${c}`);

/** A path segment for a param: mostly a real id, sometimes something hostile. */
function paramArb(template: string, name: string): fc.Arbitrary<string> {
  const real: string[] = [];
  if (name === "id") {
    if (template.startsWith("admin/cotizaciones") || template.startsWith("quotes")) real.push(ids.quote, ids.draft);
    else if (template.startsWith("admin/formularios")) real.push(ids.solicitud);
    else if (template.startsWith("admin/pedidos")) real.push(ids.order);
    else if (template.startsWith("admin/productos")) real.push(ids.product);
  }
  if (name === "slug") real.push(ids.slug, "aviso-de-privacidad");
  if (name === "number") real.push(ids.orderNumber);
  if (name === "collection") real.push("users", "_superusers", "productos", "solicitudes", "cotizaciones", "mensajes", "pedidos");
  if (name === "provider") real.push("google", "github");
  const hostile = fc.constantFrom("%00", "a%00b", "%ff", "%c3%28", "%", "%zz", "x".repeat(3_000), "..%2f..%2f", "%e2%80%ae");
  return real.length ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...real) }, { weight: 1, arbitrary: hostile }) : fc.oneof(fc.constantFrom("abc", "1"), hostile);
}

function pathArb(template: string): fc.Arbitrary<string> {
  const segments = template.split("/").map((segment) => {
    if (segment === "*") return fc.constantFrom("x", "%00", "a/%ff", "b%c0%af");
    if (segment.startsWith(":")) return paramArb(template, segment.slice(1));
    return fc.constant(segment);
  });
  return fc.tuple(...segments).map((parts) => `/${parts.join("/")}`);
}

/** A query string as raw text: valid, with NUL, with broken percent-encoding or invalid UTF-8. */
const queryArb = fc
  .array(
    fc.tuple(
      fc.constantFrom("q", "page", "estado", "status", "sort", "filter", "redirectTo", "vista", "perPage", "tipo", "categoria", "token", "expand", "fields", "%00", "a%ffb"),
      fc.oneof(
        fc.constantFrom("brida%00", "%00", "%ff%fe", "%c3%28", "%", "%zz", "%e0%80%80", "1", "-5", "99999999999", "x".repeat(5_000), "brida"),
        fc.string({ maxLength: 20 }).map(encodeURIComponent),
      ),
    ),
    { maxLength: 4 },
  )
  .map((pairs) => (pairs.length ? `?${pairs.map(([key, value]) => `${key}=${value}`).join("&")}` : ""));

// The fields each form page shows its role (its inputs and its submit buttons' intents), read once.
const knownFields = new Map<string, Array<[string, string]>>();

type Body = { contentType?: string; bytes: Uint8Array };
const encoder = new TextEncoder();
const bytesOf = (text: string) => encoder.encode(text);
const concat = (...parts: Array<Uint8Array | string>) => Buffer.concat(parts.map((part) => (typeof part === "string" ? Buffer.from(part, "utf8") : Buffer.from(part))));

function fieldsArb(formKey: string): fc.Arbitrary<Array<[string, string]>> {
  const known = knownFields.get(formKey) ?? [];
  // Besides the page's own fields, names the record API's collections and the JSON endpoints take.
  const names = [...new Set(["intent", "__intent__", "name", "email", "body", "description", "company", "notes", "sku", "identity", "password", "requests", ...known.map(([name]) => name)])];
  const intents = known.filter(([name]) => name === "intent" || name === "__intent__").map(([, value]) => value);
  const mutated = fc.tuple(fc.constantFrom(...names), fc.oneof(nastyString, intents.length ? fc.constantFrom(...intents) : nastyString));
  // What the page itself would post, with some values replaced and some fields added.
  return fc.tuple(fc.subarray(known), fc.array(mutated, { maxLength: 6 }), fc.array(fc.tuple(nastyString, nastyString), { maxLength: 2 })).map(([kept, changed, extra]) => [...kept, ...changed, ...extra]);
}

function urlencoded(fields: Array<[string, string]>): string {
  return fields.map(([name, value]) => `${encodeURIComponent(name.replace(/[\ud800-\udfff]/g, "?"))}=${encodeURIComponent(value.replace(/[\ud800-\udfff]/g, "?"))}`).join("&");
}

function multipart(boundary: string, fields: Array<[string, string]>, files: Array<{ field: string; name: string; bytes: Uint8Array; type: string }>): Buffer {
  const parts: Array<Uint8Array | string> = [];
  for (const [name, value] of fields) parts.push(`--${boundary}\r\nContent-Disposition: form-data; name="${name.replace(/"/g, "%22")}"\r\n\r\n${value}\r\n`);
  for (const file of files) {
    parts.push(`--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name.replace(/"/g, "%22")}"\r\nContent-Type: ${file.type}\r\n\r\n`, file.bytes, "\r\n");
  }
  parts.push(`--${boundary}--\r\n`);
  return concat(...parts);
}

const fileNameArb = fc.oneof(fc.constantFrom("plano.pdf", `plano${NUL}.pdf`, "x".repeat(100_000) + ".pdf", "x".repeat(300) + ".step", "../../../etc/passwd", "", "ñandú.stl", "\ud800.pdf", "a\r\nb.pdf"), fc.string({ maxLength: 30 }));
const fileBytesArb = fc.oneof(
  fc.uint8Array({ maxLength: 2_000 }),
  fc.constant(concat("%PDF-1.4\n", NUL, "fin")),
  fc.constant(concat("solid parte\n", "endsolid parte\n")),
);

function bodyArb(formKey: string): fc.Arbitrary<Body> {
  const fields = fieldsArb(formKey);
  const boundary = "----forjaFuzz7MA4YWxkTrZu0gW";
  return fc.oneof(
    // A form the way a browser sends it, with nasty values.
    fields.map((list) => ({ contentType: "application/x-www-form-urlencoded", bytes: bytesOf(urlencoded(list)) })),
    // Multipart with nasty fields and file names.
    fc.tuple(fields, fc.array(fc.record({ field: fc.constantFrom("files", "archivos", "file", "foto", "adjunto", "x"), name: fileNameArb, bytes: fileBytesArb, type: fc.constantFrom("application/pdf", "model/stl", "application/octet-stream", "text/plain", "") }), { maxLength: 2 })).map(([list, files]) => ({
      contentType: `multipart/form-data; boundary=${boundary}`,
      bytes: multipart(boundary, list, files),
    })),
    // Invalid UTF-8 and raw NUL in a urlencoded body.
    fields.map((list) => ({ contentType: "application/x-www-form-urlencoded", bytes: concat(urlencoded(list), "&a=\xff", Buffer.from([0xff, 0xfe, 0x00, 0xc3, 0x28]), "&b=%ff%00%c3%28&%=%&c=%zz") })),
    // JSON (or JSON-looking garbage) where a form is expected, and a form where JSON is expected.
    fields.map((list) => ({ contentType: "application/json", bytes: bytesOf(JSON.stringify(Object.fromEntries(list))) })),
    fc.constantFrom("[1,2]", "{", "null", '"x"', '{"a":"\\u0000"}', '{"__proto__":{"x":1}}', "{\"email\":\"\\ud800\"}").map((text) => ({ contentType: "application/json", bytes: bytesOf(text) })),
    fields.map((list) => ({ contentType: "text/plain", bytes: bytesOf(urlencoded(list)) })),
    // Random bytes under any content type (or none).
    fc.tuple(fc.uint8Array({ maxLength: 3_000 }), fc.constantFrom(undefined, "application/x-www-form-urlencoded", "multipart/form-data", `multipart/form-data; boundary=${boundary}`, "application/json", "text/plain", "application/octet-stream", "x/\u00ff", "multipart/form-data; boundary=")).map(([bytes, contentType]) => ({ contentType, bytes })),
    // Broken multipart: a boundary that never appears, a truncated part, a huge part header, no name.
    fc.tuple(fields, fc.constantFrom("other", "truncated", "huge-header", "no-name", "no-boundary", "nul-name", "bad-utf8")).map(([list, kind]) => brokenMultipart(kind, boundary, list)),
    // One value of 1 MB (a body limit may refuse it with 413).
    fields.map((list) => ({ contentType: "application/x-www-form-urlencoded", bytes: bytesOf(urlencoded([...list, ["description", "z".repeat(1_000_000)]])) })),
    fc.constant({ bytes: new Uint8Array() }),
  );
}

function brokenMultipart(kind: string, boundary: string, fields: Array<[string, string]>): Body {
  const valid = multipart(boundary, fields, []);
  const type = `multipart/form-data; boundary=${boundary}`;
  switch (kind) {
    case "other":
      return { contentType: "multipart/form-data; boundary=otraFrontera", bytes: valid };
    case "truncated":
      return { contentType: type, bytes: valid.subarray(0, Math.max(1, Math.floor(valid.length / 2))) };
    case "huge-header":
      return { contentType: type, bytes: concat(`--${boundary}\r\nContent-Disposition: form-data; name="a"\r\nX-Relleno: ${"h".repeat(200_000)}\r\n\r\nvalor\r\n--${boundary}--\r\n`) };
    case "no-name":
      return { contentType: type, bytes: concat(`--${boundary}\r\nContent-Disposition: form-data\r\n\r\nvalor\r\n--${boundary}--\r\n`) };
    case "no-boundary":
      return { contentType: "multipart/form-data", bytes: valid };
    case "nul-name":
      return { contentType: type, bytes: concat(`--${boundary}\r\nContent-Disposition: form-data; name="a${NUL}b"\r\n\r\nv${NUL}\r\n--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="p${NUL}.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\r\n--${boundary}--\r\n`) };
    default:
      return { contentType: type, bytes: concat(`--${boundary}\r\nContent-Disposition: form-data; name="`, Buffer.from([0xff, 0xc3, 0x28]), `"\r\n\r\n`, Buffer.from([0xfe, 0x00, 0xff]), `\r\n--${boundary}--\r\n`) };
  }
}

// ——— Sending ———

interface Sent {
  method: string;
  path: string;
  role: Role;
  contentType?: string;
  bodyBytes: number;
}

function headersFor(role: Role, ip: string, contentType?: string): Record<string, string> {
  const headers: Record<string, string> = { "sec-fetch-site": "same-origin", origin: server!.url, "x-forwarded-for": ip, accept: "text/html" };
  if (cookies[role]) headers.cookie = cookies[role];
  // The record API signs in with a token, not the cookie.
  if (tokens[role]) headers.authorization = tokens[role];
  if (contentType !== undefined) headers["content-type"] = contentType;
  return headers;
}

/** The status of the answer; a connection closed with no answer fails like a 5xx does. */
async function send(method: string, target: string, role: Role, ip: string, body?: Body): Promise<number> {
  const sent: Sent = { method, path: target.length > 200 ? `${target.slice(0, 200)}…` : target, role, contentType: body?.contentType, bodyBytes: body?.bytes.byteLength ?? 0 };
  let response: Response;
  try {
    response = await fetch(`${server!.url}${target}`, {
      method,
      headers: headersFor(role, ip, body?.contentType),
      body: body ? new Uint8Array(body.bytes) : undefined,
      redirect: "manual",
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (error) {
    // A body refused before it was read to the end (413) may reset the connection while it is sent.
    if (body && body.bytes.byteLength > 60_000) return 413;
    throw new Error(`no answer to ${JSON.stringify(sent)}: ${(error as Error).message}`);
  }
  const text = await response.text().catch(() => "");
  if (response.status >= 500) throw new Error(`${response.status} to ${JSON.stringify(sent)}: ${text.slice(0, 300)}`);
  return response.status;
}

/** The inputs, textareas, selects and submit buttons of a page's HTML, as [name, value]. */
function formFieldsOf(html: string): Array<[string, string]> {
  const fields: Array<[string, string]> = [];
  for (const match of html.matchAll(/<(input|textarea|select|button)\b([^>]*)>/g)) {
    const attributes = match[2]!;
    const name = /\bname="([^"]*)"/.exec(attributes)?.[1];
    if (!name) continue;
    const value = /\bvalue="([^"]*)"/.exec(attributes)?.[1] ?? "";
    fields.push([name, value.replace(/&quot;/g, '"').replace(/&amp;/g, "&")]);
  }
  return fields;
}

/** The server's log lines of errors, but for the 4xx answers React Router logs too (a 405 for a route without an action). */
function serverErrors(): string {
  return serverLog
    .split("\n")
    .filter((line) => line.includes('"level":50') && !/"err":\{"status":4\d\d/.test(line))
    .map((line) => line.slice(0, 1_500))
    .slice(-15)
    .join("\n");
}

/** Runs `work` on every item, CONCURRENCY at a time. */
async function eachConcurrently<T>(items: T[], work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < items.length) {
        const index = next++;
        await work(items[index]!, index);
      }
    }),
  );
}

/**
 * One fuzzing pass: every failure is collected (so one run lists them all, each with what was sent),
 * and past `budgetMs` the remaining cases are skipped and counted, so the test stays bounded in time.
 */
function fuzzRun(budgetMs: number) {
  const deadline = Date.now() + budgetMs;
  const failures: string[] = [];
  let sent = 0;
  let skipped = 0;
  const statuses = new Map<number, number>();
  return {
    async send(method: string, target: string, role: Role, ip: string, body?: Body): Promise<void> {
      if (Date.now() > deadline) {
        skipped += 1;
        return;
      }
      sent += 1;
      const status = await send(method, target, role, ip, body).catch((error: Error) => {
        failures.push(error.message);
        return 500;
      });
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    },
    finish() {
      // What the answers were, so a run that only met one early refusal shows it.
      console.info(`input fuzz: ${sent} sent, answers ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}`);
      if (skipped) console.warn(`input fuzz: ${skipped} cases skipped past the time budget`);
      expect(failures, `seed ${SEED}: INPUT_FUZZ_SEED=${SEED} replays this run. The server's errors:\n${serverErrors()}`).toEqual([]);
      expect(sent).toBeGreaterThan(0);
    },
  };
}

beforeAll(async () => {
  // The server's secret is this process's: the session cookies made here are valid there.
  server = await startTestServer({
    prepare,
    env: { AUTH_SECRET: getAuthSecret() },
    onOutput: (text) => {
      serverLog += text;
    },
  });
  for (const [role, collection, identity, password] of [["customer", "users", CUSTOMER.email, CUSTOMER.password], ["staff", "_superusers", STAFF.email, STAFF.password]] as const) {
    const response = await fetch(`${server.url}/api/collections/${collection}/auth-with-password`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ identity, password }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    if (response.status !== 200) throw new Error(`${collection} sign-in answered ${response.status}`);
    tokens[role] = ((await response.json()) as { token: string }).token;
  }
  // Each form page as each role shows it: its fields are what the fuzzer starts from.
  for (const target of ACTIONS) {
    for (const role of ROLES) {
      const url = target.template.replace(/:(\w+)/g, (_, name: string) => fc.sample(paramArb(target.template, name), { seed: SEED, numRuns: 1 })[0]!);
      const response = await fetch(`${server.url}/${url}`, { headers: headersFor(role, "10.0.0.1"), redirect: "manual", signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }).catch(() => undefined);
      const html = response?.headers.get("content-type")?.includes("text/html") ? await response.text() : "";
      knownFields.set(`${target.template}|${role}`, formFieldsOf(html));
    }
  }
}, 420_000);

afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

describe("bad input never gets a 500 (issue 14)", () => {
  it("finds the routes in app/routes.ts", () => {
    expect(ACTIONS.map((target) => target.template)).toEqual(expect.arrayContaining(["login", "cotiza", "admin/cotizaciones/:id", "api/cotiza", "api/collections/:collection/records"]));
    expect(PAGES.map((target) => target.template)).toEqual(expect.arrayContaining(["catalogo", "admin/formularios"]));
  });

  it("answers every action and API route < 500, whatever the body, as a guest, a customer and staff", { timeout: POST_BUDGET_MS + 30_000 }, async () => {
    const run = fuzzRun(POST_BUDGET_MS);
    // NUL in a record the API would store, and in a batch of them.
    const json = (value: unknown): Body => ({ contentType: "application/json", bytes: bytesOf(JSON.stringify(value)) });
    for (const role of ROLES) {
      for (const collection of ["productos", "solicitudes", "cotizaciones", "mensajes", "pedidos", "users"]) {
        await run.send("POST", `/api/collections/${collection}/records`, role, "10.0.0.4", json({ name: `brida${NUL}`, body: NUL, email: `a${NUL}@b.mx`, password: `x${NUL}yz12345678`, passwordConfirm: `x${NUL}yz12345678` }));
      }
      await run.send("POST", "/api/batch", role, "10.0.0.4", json({ requests: [{ method: "POST", url: "/api/collections/productos/records", body: { name: NUL } }] }));
      // better-auth's own endpoints would hand NUL to PostgreSQL.
      for (const [endpoint, body] of [
        ["update-user", { name: `A${NUL}B` }],
        ["reset-password", { token: `a${NUL}b`, newPassword: "Clave-larga-cliente-1" }],
        ["revoke-session", { token: `a${NUL}` }],
        ["sign-up/email", { email: `nul-${process.pid}@ejemplo.mx`, password: "Clave-larga-cliente-1", name: `A${NUL}` }],
        ["change-password", { currentPassword: NUL, newPassword: "Clave-larga-cliente-1" }],
      ] as const) {
        await run.send("POST", `/api/sesion/${endpoint}`, role, "10.0.0.5", json(body));
      }
    }
    await eachConcurrently(ACTIONS, async (target, index) => {
      const probe = fc.tuple(fc.constantFrom(...ROLES), fc.constantFrom("POST", "POST", "POST", "PUT", "PATCH", "DELETE"), pathArb(target.template), ipArb).chain(([role, method, where, ip]) =>
        bodyArb(`${target.template}|${role}`).map((body) => ({ role, method, where, ip, body })),
      );
      await fc.assert(
        fc.asyncProperty(probe, ({ role, method, where, ip, body }) => run.send(method, where, role, ip, body)),
        { seed: SEED + index, numRuns: RUNS_PER_ACTION },
      );
    });
    run.finish();
    // And the server still answers.
    expect(await send("GET", "/api/health", "guest", "10.0.0.2")).toBe(200);
  });

  it("answers TRACE (a method a web Request cannot carry) with 405 and Allow, on pages and APIs", async () => {
    // (TRACK, the other one, never gets here: Node's HTTP parser answers it 400 itself.)
    for (const method of ["TRACE"]) {
      for (const where of ["/", "/cuenta", "/api/health", "/api/sesion/get-session"]) {
        const answer = await new Promise<{ status: number; allow: string | undefined; body: string }>((resolve, reject) => {
          const request = http.request(`${server!.url}${where}`, { method }, (response) => {
            let body = "";
            response.setEncoding("utf8");
            response.on("data", (chunk: string) => (body += chunk));
            response.on("end", () => resolve({ status: response.statusCode ?? 0, allow: response.headers.allow, body }));
          });
          request.on("error", reject);
          request.end();
        });
        expect(answer.status, `${method} ${where}`).toBe(405);
        expect(answer.allow).toContain("GET");
        expect(answer.body).toContain("Este método HTTP no se atiende aquí");
      }
    }
  });

  it("answers every page < 500 with NUL and malformed queries and paths", { timeout: GET_BUDGET_MS + 30_000 }, async () => {
    const run = fuzzRun(GET_BUDGET_MS);
    // The issue's own examples first.
    for (const where of ["/%00", "/catalogo/%00", "/catalogo?q=brida%00", "/admin/formularios?q=%00", "/admin/clientes?q=%00", "/admin/pedidos?q=%00", "/admin/cotizaciones?q=%00", "/%ff", "/catalogo?q=%c3%28"]) {
      for (const role of ROLES) await run.send("GET", where, role, "10.0.0.3");
    }
    await eachConcurrently(PAGES, async (target, index) => {
      const probe = fc.record({ role: fc.constantFrom(...ROLES), where: pathArb(target.template), query: queryArb, ip: ipArb });
      await fc.assert(
        fc.asyncProperty(probe, ({ role, where, query, ip }) => run.send("GET", `${where}${query}`, role, ip)),
        { seed: SEED + 1_000 + index, numRuns: RUNS_PER_PAGE },
      );
    });
    run.finish();
    // And the server still answers.
    expect(await send("GET", "/api/health", "guest", "10.0.0.2")).toBe(200);
  });
});
