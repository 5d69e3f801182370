import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// Issue 11 §5: 1 000 random `filter` strings (and random `sort` strings) sent over HTTP to the real
// production server's record API, on every collection, as a guest, a customer and staff. Each answer
// is 200 with a list or 400 with PocketBase's body, never a 500, and the server's log (read from the
// child's stdout and stderr) holds no error and nothing a database says when a query goes wrong.
// Seeded: RECORD_FILTER_FUZZ_SEED replays or widens a run.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("records-filter-fuzz"));

import { productosCollection } from "~/features/catalogue/index.server";
import { createProduct } from "~/features/catalogue/product-commands.server";
import { pedidosCollection } from "~/features/orders/index.server";
import { cotizacionesCollection, mensajesCollection } from "~/features/quotes/index.server";
import { addQuoteMessage } from "~/features/quotes/messages.server";
import { solicitudesCollection } from "~/features/solicitudes/index.server";
import type { RecordCollection } from "~/services/records/collection.server";
import { registeredCustomer, signedInStaff } from "../../../tests/support/auth-requests";
import { insertManyProducts, productValues } from "../../../tests/support/catalogue-fixtures";
import { anOrder } from "../../../tests/support/orders-fixtures";
import { createTestQuote } from "../../../tests/support/quote-fixtures";
import { fuzzFilter, fuzzSort, pick, prng, sqlInjections, typedFilter, type FuzzFieldType } from "../../../tests/support/record-filter-fuzz";
import { insertSolicitudes } from "../../../tests/support/solicitud-requests";
import { startTestServer, type TestServer } from "../../../tests/support/test-server";

const FILTERS = 1_000;
const SORTS = 300;
const CONCURRENCY = 4;
const REQUEST_TIMEOUT_MS = 15_000;
const SEED = Number(process.env.RECORD_FILTER_FUZZ_SEED ?? 20_261_124);
const STAFF = { name: "Personal Fuzz", email: `personal-fuzz-${process.pid}@forja.mx`, password: "Panel-Forja-Seguro-1" };
const CUSTOMER = { name: "Regina Salazar", email: `regina-fuzz-${process.pid}@ejemplo.mx`, password: "Fresadora-CNC-42", id: "" };
const BAD_REQUEST = { status: 400, message: "Something went wrong while processing your request.", data: {} };

/** The collections with the table each one reads, for SQL-looking payloads that name it. */
const COLLECTIONS = [
  { collection: productosCollection, table: "products" },
  { collection: solicitudesCollection, table: "solicitudes" },
  { collection: cotizacionesCollection, table: "quotes" },
  { collection: mensajesCollection, table: "quote_messages" },
  { collection: pedidosCollection, table: "orders" },
].map(({ collection, table }) => {
  const types = fieldTypes(collection.fields);
  const names = Object.keys(types);
  // The untyped generator also draws modifiers, fields of no collection and prototype names.
  const loose = [...names, ...names.filter((name) => types[name] === "text").map((name) => `${name}:lower`), "secreto", "constructor", "__proto__", "password", "user_id"];
  return { name: collection.name, types, names, loose, injections: sqlInjections(table) };
});

function fieldTypes(fields: RecordCollection["fields"]): Record<string, FuzzFieldType> {
  return Object.fromEntries(Object.entries(fields).map(([name, field]) => [name, field.type]));
}

// Everything the server wrote, and where the part after start-up begins.
let output = "";
let fromStart = 0;
let server: TestServer | undefined;
const tokens = { guest: "", customer: "", staff: "" };
type Role = keyof typeof tokens;
const ROLES: Role[] = ["guest", "customer", "staff"];

async function prepare(): Promise<void> {
  const staff = { id: (await signedInStaff(STAFF.email, STAFF.password, STAFF.name)).user.id, name: STAFF.name };
  CUSTOMER.id = (await registeredCustomer(CUSTOMER.name, CUSTOMER.email, CUSTOMER.password)).id;
  await insertManyProducts(35);
  const product = await createProduct(productValues({ price: 12_345, stock: 10 }));
  if (!product.ok) throw new Error("product not created");
  await createProduct(productValues({ name: "Producto inactivo", active: false }));
  await insertSolicitudes({ userId: CUSTOMER.id, email: CUSTOMER.email, company: "Acme" }, { company: null, industry: "medica" }, { type: "contacto" });
  const sent = await createTestQuote({ name: CUSTOMER.name, email: CUSTOMER.email, userId: CUSTOMER.id });
  await createTestQuote({ name: CUSTOMER.name, email: CUSTOMER.email, userId: CUSTOMER.id }, { send: false });
  await createTestQuote({ name: "Otra Persona", email: `otra-fuzz-${process.pid}@ejemplo.mx` });
  const message = await addQuoteMessage(sent.id, staff, { body: "Quedamos atentos a sus comentarios.", fromStaff: true });
  if (!message.ok) throw new Error("message not added");
  await anOrder(product.value.id, { userId: CUSTOMER.id, quantity: 2 });
}

async function signIn(collection: "users" | "_superusers", identity: string, password: string): Promise<string> {
  const response = await fetch(`${server!.url}/api/collections/${collection}/auth-with-password`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ identity, password }),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  if (response.status !== 200) throw new Error(`${collection} sign-in answered ${response.status}`);
  return ((await response.json()) as { token: string }).token;
}

beforeAll(async () => {
  server = await startTestServer({
    prepare,
    // info: the access log's status of every request, besides warnings and errors.
    env: { LOG_LEVEL: "info" },
    onOutput: (text) => {
      output += text;
    },
  });
  fromStart = output.length;
  tokens.customer = await signIn("users", CUSTOMER.email, CUSTOMER.password);
  tokens.staff = await signIn("_superusers", STAFF.email, STAFF.password);
}, 420_000);

afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

interface Probe {
  collection: string;
  role: Role;
  params: Record<string, string>;
}

interface Answer {
  status: number;
  body: unknown;
}

async function ask({ collection, role, params }: Probe): Promise<Answer> {
  const url = `${server!.url}/api/collections/${collection}/records?${new URLSearchParams(params)}`;
  const response = await fetch(url, {
    headers: tokens[role] ? { authorization: tokens[role] } : {},
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // kept as text: the assertion below shows it
  }
  return { status: response.status, body };
}

/** Sends every probe (a few at a time) and returns the answers in order. */
async function askAll(probes: Probe[]): Promise<Answer[]> {
  const answers: Answer[] = new Array(probes.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < probes.length) {
        const index = next++;
        answers[index] = await ask(probes[index]!);
      }
    }),
  );
  return answers;
}

/** Fails with the probe and the answer when one is neither a PocketBase list nor its 400. */
function tally(probes: Probe[], answers: Answer[]): { ok: number; refused: number } {
  let ok = 0;
  let refused = 0;
  answers.forEach((answer, index) => {
    const probe = JSON.stringify(probes[index]);
    if (answer.status === 200) {
      expect(answer.body, probe).toMatchObject({ page: 1, perPage: expect.any(Number), totalItems: expect.any(Number), totalPages: expect.any(Number), items: expect.any(Array) });
      ok++;
    } else {
      expect({ status: answer.status, body: answer.body }, probe).toEqual({ status: 400, body: BAD_REQUEST });
      refused++;
    }
  });
  return { ok, refused };
}

/** Log lines a database error or our error handler writes; none may appear after start-up. */
const DATABASE_ERROR = /syntax error|invalid input|does not exist|operator|stack depth|out of memory|overflow|out of range|SQLSTATE|Failed query|DrizzleQueryError|PGlite|unterminated|null character|invalid byte sequence|could not/i;

function logProblems(text: string): string[] {
  const problems: string[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    let entry: { level?: number; msg?: string; status?: number } | undefined;
    try {
      entry = JSON.parse(line) as typeof entry;
    } catch {
      // Not one of pino's lines: something printed outside the logger (a crash, a driver's notice).
      problems.push(line);
      continue;
    }
    if (entry!.msg === "request") {
      if ((entry!.status ?? 0) >= 500) problems.push(line);
      continue;
    }
    if ((entry!.level ?? 0) >= 50 || DATABASE_ERROR.test(line)) problems.push(line);
  }
  return problems;
}

/** Each collection's total as staff sees it: the fuzz must never change data. */
async function totals(): Promise<Record<string, unknown>> {
  const answers = await askAll(COLLECTIONS.map(({ name }) => ({ collection: name, role: "staff" as const, params: { perPage: "1" } })));
  return Object.fromEntries(answers.map((answer, index) => [COLLECTIONS[index]!.name, (answer.body as { totalItems: number }).totalItems]));
}

describe("the record API under random filters and sorts, over HTTP", { timeout: 300_000 }, () => {
  it("answers 1 000 random filters with 200 or PocketBase's 400, never a 500 nor a database error in the log", async () => {
    const before = await totals();
    expect(Object.values(before).every((total) => typeof total === "number" && total > 0), JSON.stringify(before)).toBe(true);

    const random = prng(SEED);
    const probes: Probe[] = [];
    const filters = new Set<string>();
    for (let i = 0; i < FILTERS; i++) {
      const target = pick(random, COLLECTIONS);
      // Half shaped by the fields' types (most reach the database), half the compiler's own fuzz.
      const filter = random() < 0.5 ? typedFilter(random, target.types, target.injections) : fuzzFilter(random, target.loose, target.injections);
      filters.add(filter);
      const params: Record<string, string> = { filter };
      // The count runs the filter too: ask for it half of the time.
      if (random() < 0.5) params.skipTotal = "1";
      if (random() < 0.2) params.sort = fuzzSort(random, target.names, target.injections);
      for (const role of ROLES) probes.push({ collection: target.name, role, params });
    }
    const answers = await askAll(probes);
    const { ok, refused } = tally(probes, answers);

    if (process.env.RECORD_FILTER_FUZZ_SEED) console.info(`fuzz over HTTP: ${ok} answered 200, ${refused} answered 400`);
    expect(ok + refused).toBe(FILTERS * ROLES.length);
    expect(filters.size).toBeGreaterThan(900);
    // Both paths must carry real weight, or the test proves nothing.
    expect(ok).toBeGreaterThan(0.25 * probes.length);
    expect(refused).toBeGreaterThan(0.25 * probes.length);
    // Some of the 200s must have found records, so filters really ran against rows.
    expect(answers.filter((answer) => answer.status === 200 && (answer.body as { items: unknown[] }).items.length > 0).length).toBeGreaterThan(100);

    expect(logProblems(output.slice(fromStart))).toEqual([]);
    expect(await totals()).toEqual(before);
  });

  it("answers random sorts with 200 or PocketBase's 400, never a 500 nor a database error in the log", async () => {
    const random = prng(SEED + 1);
    const probes: Probe[] = [];
    for (let i = 0; i < SORTS; i++) {
      const target = pick(random, COLLECTIONS);
      const params = { sort: fuzzSort(random, random() < 0.8 ? target.names : target.loose, target.injections), perPage: String(1 + Math.floor(random() * 50)) };
      probes.push({ collection: target.name, role: pick(random, ROLES), params });
    }
    const { ok, refused } = tally(probes, await askAll(probes));
    expect(ok).toBeGreaterThan(0.2 * SORTS);
    expect(refused).toBeGreaterThan(0.2 * SORTS);
    expect(logProblems(output.slice(fromStart))).toEqual([]);
  });

  it("reads the server's log: a 500 or a database error in it would fail these tests", () => {
    // The checks above are only as good as this reader, so it is checked on lines of the real shapes,
    // and the output read must really be the server's log.
    expect(output.slice(fromStart)).toContain('"msg":"request"');
    const samples = [
      '{"level":30,"msg":"request","url":"/api/collections/productos/records","status":500}',
      '{"level":50,"err":{"message":"Failed query: select"},"msg":"unhandled error in loader or action"}',
      '{"level":40,"err":{"message":"invalid input syntax for type numeric: \\"x\\""},"msg":"x"}',
      "error: operator does not exist: text > integer",
    ];
    for (const sample of samples) expect(logProblems(sample), sample).toEqual([sample]);
    expect(logProblems('{"level":30,"msg":"request","url":"/api/collections/productos/records?filter=x","status":400}')).toEqual([]);
  });
});
