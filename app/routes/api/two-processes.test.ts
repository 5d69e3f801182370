import fs from "node:fs";
import { EventSource } from "eventsource";
import type PocketBase from "pocketbase";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// Two real app processes on ONE PostgreSQL database, requests spread between them (issue 11 §4):
// what one process stores or issues, the other serves or accepts. The database is on
// TEST_DATABASE_URL's server when set, else on a throwaway PostgreSQL 15 cluster made here
// (tests/support/throwaway-postgres.ts): this test never skips. Both processes share AUTH_SECRET,
// as every deployment of several processes must. Content published or scheduled through one is
// served by both within 1 s (issue 16 §6). Add further checks (realtime across processes)
// as more `it` blocks using `processes`, `sdk(…)` and `signIn(…)`.

const { dataDir, AUTH_SECRET } = await vi.hoisted(async () => {
  const secret = (await import("node:crypto")).randomBytes(32).toString("base64url");
  const dir = (await import("../../../tests/support/test-env")).isolateTestEnv("two-processes", { set: { AUTH_SECRET: secret } });
  return { dataDir: dir, AUTH_SECRET: secret };
});

import { createProduct } from "~/features/catalogue/product-commands.server";
import { preguntas } from "~/features/site/content-collections/preguntas";
import { schedule } from "~/services/content/schedule.server";
import { registeredCustomer, signedInStaff } from "../../../tests/support/auth-requests";
import { png, productValues } from "../../../tests/support/catalogue-fixtures";
import { pdfFile } from "../../../tests/support/minimal-files";
import { validQuoteFields } from "../../../tests/support/solicitud-requests";
import { withAdminClient } from "../../../tests/support/test-database";
import { sdkClient } from "../../../tests/support/sdk-client";
import { onServerDatabase } from "../../../tests/support/server-database";
import { startTestServer, type TestServer } from "../../../tests/support/test-server";
import { usePostgresServer, type PostgresServer } from "../../../tests/support/throwaway-postgres";

(globalThis as { EventSource?: unknown }).EventSource = EventSource;

const REQUEST_TIMEOUT_MS = 15_000;
const STAFF = { name: "Personal Dos Procesos", email: `personal-dos-${process.pid}@forja.mx`, password: "Panel-Forja-Seguro-1" };
const CUSTOMER = { name: "Carla Dos Procesos", email: `carla-dos-${process.pid}@ejemplo.mx`, password: "Fresadora-CNC-42" };
const seed = { productId: "" };

let postgres: PostgresServer | undefined;
/** The two processes: `a` made the database; `b` runs on the same one. */
const processes = {} as { a: TestServer; b: TestServer };

async function prepare(): Promise<void> {
  await signedInStaff(STAFF.email, STAFF.password, STAFF.name);
  await registeredCustomer(CUSTOMER.name, CUSTOMER.email, CUSTOMER.password);
  const product = await createProduct(productValues());
  if (!product.ok) throw new Error("product not created");
  seed.productId = product.value.id;
}

/** The official SDK against one process, every request bounded in time. */
const sdk = (server: TestServer): PocketBase => sdkClient(server.url);

/** The SDK on `server`, signed in as staff or the customer. */
async function signIn(server: TestServer, who: "staff" | "customer"): Promise<PocketBase> {
  const client = sdk(server);
  if (who === "staff") await client.collection("_superusers").authWithPassword(STAFF.email, STAFF.password);
  else await client.collection("users").authWithPassword(CUSTOMER.email, CUSTOMER.password);
  return client;
}

const get = (url: string) => fetch(url, { redirect: "manual", signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
const bytesOf = async (response: Response) => Buffer.from(await response.arrayBuffer());

/** Runs SQL on the shared database (to prove where a file lives). */
const onDatabase = <T>(sql: string, params: unknown[]) => withAdminClient(processes.a.databaseUrl!, async (client) => (await client.query(sql, params)).rows as T[]);

/** Staff signed in on `server` from a client address of their own: sign-ins are rate-limited per address, and the checks above sign in often. */
async function staffFrom(server: TestServer, ip: string): Promise<PocketBase> {
  const client = sdkClient(server.url, () => ({ "X-Forwarded-For": ip }));
  await client.collection("_superusers").authWithPassword(STAFF.email, STAFF.password);
  return client;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** /faqs on `server`: its HTML and when the answer had fully arrived (performance.now()). */
async function faqsOn(server: TestServer): Promise<{ html: string; at: number }> {
  const response = await get(`${server.url}/faqs`);
  expect(response.status).toBe(200);
  const html = await response.text();
  return { html, at: performance.now() };
}

/**
 * Warms /faqs on both processes and proves each keeps it: the page carries its ETag and a second
 * request with it is answered 304 from memory. What follows then measures an invalidation, not a
 * first render.
 */
async function warmFaqs(...servers: TestServer[]): Promise<void> {
  for (const server of servers) {
    const first = await get(`${server.url}/faqs`);
    expect(first.status).toBe(200);
    await first.arrayBuffer();
    const etag = first.headers.get("etag");
    expect(etag, `${server.url}/faqs is kept by the page cache`).toBeTruthy();
    expect(first.headers.get("content-security-policy")).not.toContain("'nonce-");
    const again = await fetch(`${server.url}/faqs`, { headers: { "If-None-Match": etag! }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    expect(again.status, `${server.url}/faqs answered from memory`).toBe(304);
  }
}

/**
 * Polls /faqs on `server` every ~50 ms until it shows `text`; answers the milliseconds from `since`
 * (performance.now()) to the answer that showed it. Fails once `limitMs` have passed without it.
 */
async function servedAfter(server: TestServer, text: string, since: number, limitMs: number): Promise<number> {
  for (;;) {
    const { html, at } = await faqsOn(server);
    if (html.includes(text)) return at - since;
    if (at - since > limitMs) throw new Error(`${server.url}/faqs did not show «${text}» within ${limitMs} ms`);
    await sleep(50);
  }
}

beforeAll(async () => {
  postgres = await usePostgresServer();
  const env = { AUTH_SECRET };
  processes.a = await startTestServer({ adminUrl: postgres.adminUrl, env, prepare });
  expect(processes.a.databaseUrl).toMatch(/^postgres(ql)?:\/\//);
  processes.b = await startTestServer({ databaseUrl: processes.a.databaseUrl, env });
}, 600_000);

afterAll(async () => {
  // B first: A drops the database it made when it stops.
  await processes.b?.stop();
  await processes.a?.stop();
  await postgres?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, 120_000);

describe("two processes on one PostgreSQL database", { timeout: 90_000 }, () => {
  it("a solicitud's attachment uploaded through A is served by B byte for byte, with a file token A issued", async () => {
    const { a, b } = processes;
    // The public quote form on A, as a browser sends it with JavaScript (multipart to /api/cotiza).
    const page = await (await get(`${a.url}/cotiza`)).text();
    const formToken = (/<input[^>]*name="formToken"[^>]*value="([^"]+)"/.exec(page) ?? /<input[^>]*value="([^"]+)"[^>]*name="formToken"/.exec(page))?.[1]?.replace(/&amp;/g, "&");
    expect(formToken).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 3_100)); // the forms' minimum fill time
    const attachment = Buffer.from(pdfFile());
    const form = new FormData();
    for (const [name, value] of Object.entries(validQuoteFields({ name: CUSTOMER.name, email: CUSTOMER.email, formToken: formToken! }))) {
      for (const item of [value].flat()) form.append(name, String(item));
    }
    form.append("files", new Blob([attachment], { type: "application/pdf" }), "plano dos procesos.pdf");
    const sent = await fetch(`${a.url}/api/cotiza`, { method: "POST", body: form, headers: { Origin: a.url, "X-Forwarded-For": "10.88.0.1" }, signal: AbortSignal.timeout(30_000) });
    const answer = (await sent.json()) as { ok: boolean; number?: string };
    expect(answer).toMatchObject({ ok: true, number: expect.stringMatching(/^SOL-\d{4}-\d{4}$/) });

    // Staff read the record on B and take a file token from A.
    const staffOnA = await signIn(a, "staff");
    const staffOnB = sdk(b);
    staffOnB.authStore.save(staffOnA.authStore.token, staffOnA.authStore.record);
    const record = await staffOnB.collection("solicitudes").getFirstListItem(`numero = "${answer.number}"`);
    const name = record.archivos[0] as string;
    expect(name).toMatch(/_plano_dos_procesos\.pdf$/);
    const token = await staffOnA.files.getToken();
    const fromB = await get(staffOnB.files.getURL(record, name, { token }));
    expect(fromB.status).toBe(200);
    expect(fromB.headers.get("content-type")).toBe("application/pdf");
    expect((await bytesOf(fromB)).equals(attachment)).toBe(true);
    // And A serves the same bytes with the same token.
    expect((await bytesOf(await get(staffOnA.files.getURL(record, name, { token })))).equals(attachment)).toBe(true);

    // The file lives in the shared database, in chunks, not on either process's disk.
    const stored = await onDatabase<{ size: string; chunks: number }>(
      "select s.size, s.chunks from stored_files s join solicitud_files f on f.storage_path = s.path where f.solicitud_id = $1",
      [record.id],
    );
    expect(stored).toEqual([{ size: String(attachment.length), chunks: 1 }]);
  });

  it("a product photo uploaded through A's record API is served by B, thumbs included", async () => {
    const { a, b } = processes;
    const staffOnA = await signIn(a, "staff");
    const updated = await staffOnA.collection("productos").update(seed.productId, { "imagenes+": new File([await png(1000, 500)], "foto.png", { type: "image/png" }) });
    expect(updated.imagenes).toHaveLength(1);
    const guestOnB = sdk(b);
    const product = await guestOnB.collection("productos").getOne(seed.productId);
    const name = product.imagenes[0] as string;
    const [fromA, fromB] = await Promise.all([get(sdk(a).files.getURL(product, name)), get(guestOnB.files.getURL(product, name))]);
    expect([fromA.status, fromB.status]).toEqual([200, 200]);
    const [bytesA, bytesB] = await Promise.all([bytesOf(fromA), bytesOf(fromB)]);
    expect(bytesB.equals(bytesA)).toBe(true);
    expect(await sharp(bytesB).metadata()).toMatchObject({ format: "webp", width: 1000, height: 500 });
    const thumb = await get(guestOnB.files.getURL(product, name, { thumb: "100x100" }));
    expect(await sharp(await bytesOf(thumb)).metadata()).toMatchObject({ width: 100, height: 100 });
  });

  it("an auth token issued by A works on B; a file token issued by B opens a file on A", async () => {
    const { a, b } = processes;
    const onA = await signIn(a, "customer");
    const onB = sdk(b);
    onB.authStore.save(onA.authStore.token, onA.authStore.record);
    const refreshed = await onB.collection("users").authRefresh();
    expect(refreshed.record.email).toBe(CUSTOMER.email);

    const staffOnB = await signIn(b, "staff");
    const record = (await staffOnB.collection("solicitudes").getFullList()).find((item) => item.archivos.length > 0)!;
    const url = sdk(a).files.getURL(record, record.archivos[0], { token: await staffOnB.files.getToken() });
    const fromA = await get(url);
    expect(fromA.status).toBe(200);
    expect((await bytesOf(fromA)).subarray(0, 5).toString("latin1")).toBe("%PDF-");
  });

  it("realtime: a change committed through A reaches a subscriber on B, checked by B against the rule", async () => {
    const staffOnB = await signIn(processes.b, "staff");
    const customerOnB = await signIn(processes.b, "customer");
    const seen = { staff: [] as string[], customer: [] as string[] };
    await staffOnB.collection("solicitudes").subscribe("*", (event) => void seen.staff.push(event.record.numero as string));
    await customerOnB.collection("solicitudes").subscribe("*", (event) => void seen.customer.push(event.record.numero as string));

    const staffOnA = await signIn(processes.a, "staff");
    const [solicitud] = await staffOnA.collection("solicitudes").getFullList({ sort: "-created" });
    await staffOnA.collection("solicitudes").update(solicitud!.id, { leida: !solicitud!.leida });

    await vi.waitFor(() => expect(seen.staff).toContain(solicitud!.numero), { timeout: 10_000 });
    // The visitor's request is not the customer's: B never sends it to them.
    expect(seen.customer).toEqual([]);
    staffOnB.realtime.unsubscribe();
    customerOnB.realtime.unsubscribe();
  });

  it("realtime: subscriptions posted to B for a stream held by A are passed to A; an unknown client is a 404", async () => {
    const staff = await signIn(processes.a, "staff");
    const stream = new EventSource(`${processes.a.url}/api/realtime`);
    try {
      const clientId = await new Promise<string>((resolve, reject) => {
        stream.addEventListener("PB_CONNECT", (event) => resolve(JSON.parse(event.data).clientId), { once: true });
        stream.addEventListener("error", () => reject(new Error("stream failed")), { once: true });
      });
      const events: { action: string; record: { id: string } }[] = [];
      stream.addEventListener("productos/*", (event) => events.push(JSON.parse(event.data)));

      const subscribe = (id: string) =>
        fetch(`${processes.b.url}/api/realtime`, {
          method: "POST",
          headers: { "content-type": "application/json", Authorization: staff.authStore.token },
          body: JSON.stringify({ clientId: id, subscriptions: ["productos/*"] }),
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
      expect((await subscribe(clientId)).status).toBe(204);

      // Changed through B, heard on A's stream: both directions cross the shared database.
      const staffOnB = await signIn(processes.b, "staff");
      await staffOnB.collection("productos").update(seed.productId, { existencia: 41 });
      await vi.waitFor(() => expect(events.map((event) => event.record.id)).toContain(seed.productId), { timeout: 10_000 });

      const unknown = await subscribe("nadie-tiene-este-cliente");
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toEqual({ status: 404, message: "Missing or invalid client id.", data: {} });
    } finally {
      stream.close();
    }
  });

  it("a question published through A's record API is served on /faqs by A and by B within 1 s of the answer", async () => {
    const { a, b } = processes;
    const question = `¿Entregan en Monterrey al día siguiente? ${process.pid}`;
    await warmFaqs(a, b);
    for (const server of [a, b]) expect((await faqsOn(server)).html).not.toContain(question);

    const staffOnA = await staffFrom(a, "10.88.1.1");
    const created = await staffOnA.collection("preguntas").create({ pregunta: question, respuesta: "Sí, por paquetería exprés.", categoria: "Envíos", orden: 995 });
    const answeredAt = performance.now();
    expect(created).toMatchObject({ pregunta: question, publicado: true });
    const elapsed = await Promise.all([a, b].map((server) => servedAfter(server, question, answeredAt, 5_000)));
    expect(Math.max(...elapsed), `served by A in ${elapsed[0]!.toFixed(0)} ms and by B in ${elapsed[1]!.toFixed(0)} ms`).toBeLessThanOrEqual(1_000);
  });

  it("a question scheduled for the next minute stays hidden on A and B until then, is served by both within 1 s after it, and is published once", { timeout: 150_000 }, async () => {
    const { a, b } = processes;
    const question = `¿Hacen piezas de bronce SAE 64? ${process.pid}`;
    const staffOnA = await staffFrom(a, "10.88.1.2");
    const draft = await staffOnA
      .collection("preguntas")
      .create({ pregunta: question, respuesta: "Sí, en torno CNC hasta 300 mm de diámetro.", categoria: "Materiales", orden: 996 }, { query: { draft: "true" } });

    // The next whole minute, with at least 10 s to show that it stays hidden until then.
    const minute = new Date(Math.ceil((Date.now() + 10_000) / 60_000) * 60_000);
    // What «Programar publicación» calls, run here on the shared database.
    await onServerDatabase(a.databaseUrl!, async () => {
      const scheduled = await schedule(preguntas, draft.id, minute, { id: staffOnA.authStore.record!.id, name: STAFF.name });
      expect(scheduled).toMatchObject({ ok: true, value: { state: "programado" } });
    });
    await warmFaqs(a, b);

    // Until the minute: every answer that had arrived before it leaves the question out, on both.
    const dueAt = performance.now() + (minute.getTime() - Date.now());
    let looks = 0;
    while (performance.now() < dueAt - 150) {
      for (const server of [a, b]) {
        const { html, at } = await faqsOn(server);
        if (at < dueAt) expect(html, "hidden before its minute").not.toContain(question);
        looks += 1;
      }
      await sleep(Math.min(500, Math.max(0, dueAt - 150 - performance.now())));
    }
    expect(looks).toBeGreaterThan(10);

    const elapsed = await Promise.all([a, b].map((server) => servedAfter(server, question, dueAt, 5_000)));
    expect(Math.max(...elapsed), `served by A ${elapsed[0]!.toFixed(0)} ms and by B ${elapsed[1]!.toFixed(0)} ms after its minute`).toBeLessThanOrEqual(1_000);

    // Both processes' schedulers looked again since: still exactly one version, by the person who scheduled it.
    await sleep(2_500);
    const versions = await onDatabase<{ number: number; published_by_name: string }>("select number, published_by_name from content_versions where entry_id = $1 order by number", [draft.id]);
    expect(versions).toEqual([{ number: 1, published_by_name: STAFF.name }]);
  });
});
