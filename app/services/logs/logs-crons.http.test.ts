import type PocketBase from "pocketbase";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// /api/logs and /api/crons on the real production server over HTTP, with the official `pocketbase`
// SDK (issue 17 §2, docs/decisions/0051): superusers only (an admin's token or browser session;
// 401 for a guest, 403 for editor, ventas and customers), the logs' list, filter, sort, stats and
// one log in PocketBase's shapes, written within about a second with who asked and no secret, and
// the scheduled jobs listed and one run now.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("logs-crons-http"));

import { getDb } from "~/db/client.server";
import { logs } from "~/db/schema/operations";
import { setStaffRole } from "~/features/accounts/staff-members.server";
import { getAuthSecret } from "~/services/security/secret.server";
import { registeredCustomer, signedInStaff } from "../../../tests/support/auth-requests";
import { sdkClient, sdkFailure } from "../../../tests/support/sdk-client";
import { startTestServer, type TestServer } from "../../../tests/support/test-server";

const PASSWORD = "Bitacora-Forja-Segura-7";
const who = (role: string) => ({ email: `${role}-bitacora-${process.pid}@forja.mx`, name: `Persona ${role}` });
const CUSTOMER = { email: `cliente-bitacora-${process.pid}@ejemplo.mx`, name: "Cliente Bitácora" };
const UNAUTHORIZED = { status: 401, message: "The request requires valid record authorization token.", data: {} };
const FORBIDDEN = { status: 403, message: "The authorized record is not allowed to perform this action.", data: {} };
const JOBS = [
  { id: "archivos-huerfanos", expression: "30 4 * * *" },
  // The backups' schedule is the settings' (docs/decisions/0057): its default until the first check reads it.
  { id: "backups", expression: expect.any(String) },
  { id: "contenido-programado", expression: "* * * * *" },
  { id: "correo-pendiente", expression: "* * * * *" },
  { id: "cotizaciones-vencidas", expression: "* * * * *" },
  { id: "logs-antiguos", expression: "0 * * * *" },
  { id: "subidas-temporales", expression: "* * * * *" },
];

let server: TestServer | undefined;
const cookies: Record<string, string> = {};
let adminId = "";
const sdk: Record<"admin" | "editor" | "ventas" | "customer" | "guest", PocketBase> = {} as never;

beforeAll(async () => {
  server = await startTestServer({
    dataDir,
    env: { AUTH_SECRET: getAuthSecret() },
    prepare: async () => {
      const admin = await signedInStaff(who("admin").email, PASSWORD, who("admin").name);
      adminId = admin.user.id;
      cookies.admin = admin.cookie;
      for (const role of ["editor", "ventas"] as const) {
        const created = await signedInStaff(who(role).email, PASSWORD, who(role).name);
        const changed = await setStaffRole({ actor: admin.user, userId: created.user.id, role });
        if (!changed.ok) throw new Error(`could not make ${role}`);
        cookies[role] = created.cookie;
      }
      cookies.customer = (await registeredCustomer(CUSTOMER.name, CUSTOMER.email, PASSWORD)).cookie;
      // Two logs from a month ago, for the retention job.
      const old = new Date(Date.now() - 30 * 24 * 60 * 60 * 1000);
      await getDb()
        .insert(logs)
        .values([1, 2].map((n) => ({ createdAt: old, level: 0, message: `GET /antiguo-${n}`, data: { type: "request", url: `/antiguo-${n}`, status: 200 } })));
    },
  });
  for (const name of ["admin", "editor", "ventas", "customer", "guest"] as const) sdk[name] = sdkClient(server.url);
  for (const role of ["admin", "editor", "ventas"] as const) await sdk[role].collection("_superusers").authWithPassword(who(role).email, PASSWORD);
  await sdk.customer.collection("users").authWithPassword(CUSTOMER.email, PASSWORD);
}, 360_000);

afterAll(async () => {
  await server?.stop();
});

async function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${server!.url}${path}`, { headers, signal: AbortSignal.timeout(15_000) });
  return { status: response.status, body: await response.json().catch(() => null) };
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const logsOf = (requestId: string) => sdk.admin.logs.getList(1, 10, { filter: `data.requestId = '${requestId}'` });

describe("who may read the logs and the crons", () => {
  it("answers a guest 401 and editor, ventas and customers 403, by token and by browser session, as PocketBase does", async () => {
    for (const path of ["/api/logs", "/api/logs/stats", "/api/logs/1", "/api/crons"]) {
      expect(await get(path), path).toEqual({ status: 401, body: UNAUTHORIZED });
      for (const name of ["editor", "ventas", "customer"] as const) {
        expect(await get(path, { Authorization: sdk[name].authStore.token }), `${name} ${path}`).toEqual({ status: 403, body: FORBIDDEN });
        expect(await get(path, { Cookie: cookies[name]! }), `${name} session ${path}`).toEqual({ status: 403, body: FORBIDDEN });
      }
      // A forged token is a guest's.
      expect((await get(path, { Authorization: "eyJhbGciOiJIUzI1NiJ9.e30.falsa" })).status).toBe(401);
    }
    expect((await sdkFailure(sdk.editor.crons.run("logs-antiguos"))).status).toBe(403);
    expect((await sdkFailure(sdk.guest.crons.run("logs-antiguos"))).status).toBe(401);
    expect((await sdkFailure(sdk.ventas.logs.truncate())).status).toBe(403);
    expect((await get("/api/logs", { Cookie: cookies.admin! })).status).toBe(200);
  });
});

describe("/api/logs", () => {
  it("records every request within about a second, with who asked and the client's address, and never a secret", async () => {
    const requestId = `bitacora-${process.pid}-${Date.now()}`;
    const secret = `secreto-${process.pid}-correo`;
    const reset = await fetch(`${server!.url}/recuperar/nueva?token=${secret}&origen=correo`, {
      headers: { "X-Request-Id": requestId, "X-Forwarded-For": "198.51.100.23", Referer: `https://correo.example/?token=${secret}`, "User-Agent": "PruebaBitacora/1.0" },
    });
    expect(reset.status).toBe(200);
    const started = Date.now();
    const page = await until(() => logsOf(requestId), (found) => found.items.length === 1, "the request's log");
    expect(Date.now() - started).toBeLessThan(5_000);
    const [entry] = page.items;
    expect(Object.keys(entry!).sort()).toEqual(["created", "data", "id", "level", "message"]);
    expect(entry).toMatchObject({
      level: 0,
      message: "GET /recuperar/nueva?token=***&origen=correo",
      data: {
        type: "request",
        requestId,
        method: "GET",
        url: "/recuperar/nueva?token=***&origen=correo",
        status: 200,
        userIP: "198.51.100.23",
        remoteIP: expect.stringMatching(/127\.0\.0\.1$/),
        referer: "https://correo.example/?token=***",
        userAgent: "PruebaBitacora/1.0",
        auth: "",
      },
    });
    expect(typeof entry!.data.execTime).toBe("number");
    expect(entry!.created).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(JSON.stringify(await sdk.admin.logs.getList(1, 200))).not.toContain(secret);

    // The record API with a customer's token: the account is named, its token is not kept.
    const apiId = `${requestId}-api`;
    const orders = await fetch(`${server!.url}/api/collections/pedidos/records`, { headers: { Authorization: sdk.customer.authStore.token, "X-Request-Id": apiId } });
    expect(orders.status).toBe(200);
    const [api] = (await until(() => logsOf(apiId), (found) => found.items.length === 1, "the API request's log")).items;
    expect(api!.data).toMatchObject({ auth: "users", authId: sdk.customer.authStore.record!.id, status: 200 });
    expect(JSON.stringify(api)).not.toContain(sdk.customer.authStore.token);

    // A public page answered from the page cache is logged too.
    const cachedId = `${requestId}-cache`;
    await fetch(`${server!.url}/servicios`);
    const cached = await fetch(`${server!.url}/servicios`, { headers: { "X-Request-Id": cachedId } });
    expect(cached.status).toBe(200);
    await until(() => logsOf(cachedId), (found) => found.items.length === 1, "the cached page's log");
  });

  it("lists, filters, sorts and counts per hour in PocketBase's shapes, and shows one log", async () => {
    const missingId = `bitacora-404-${process.pid}-${Date.now()}`;
    expect((await fetch(`${server!.url}/no-existe-esta-pagina`, { headers: { "X-Request-Id": missingId } })).status).toBe(404);
    await until(() => logsOf(missingId), (found) => found.items.length === 1, "the 404's log");

    const page = await sdk.admin.logs.getList(1, 2, { sort: "-rowid" });
    expect(Object.keys(page).sort()).toEqual(["items", "page", "perPage", "totalItems", "totalPages"]);
    expect(page).toMatchObject({ page: 1, perPage: 2 });
    expect(page.totalItems).toBeGreaterThanOrEqual(5);
    expect(page.totalPages).toBe(Math.ceil(page.totalItems / 2));
    expect(Number(page.items[0]!.id)).toBeGreaterThan(Number(page.items[1]!.id));

    const failures = await sdk.admin.logs.getList(1, 50, { filter: "data.status >= 400 && data.type = 'request'", sort: "-data.status,-created" });
    expect(failures.items.length).toBeGreaterThan(0);
    expect(failures.items.every((item) => Number(item.data.status) >= 400)).toBe(true);
    expect(failures.items.some((item) => item.data.requestId === missingId && Number(item.level) === 4)).toBe(true);
    const statuses = failures.items.map((item) => Number(item.data.status));
    expect(statuses).toEqual([...statuses].sort((a, b) => b - a));

    // The logs' own successful reads are not logged; refusals of them are.
    const reads = await sdk.admin.logs.getList(1, 1, { filter: "data.url ~ '/api/logs' && data.status = 200" });
    expect(reads.totalItems).toBe(0);
    expect((await sdk.admin.logs.getList(1, 1, { filter: "data.url ~ '/api/logs' && data.status = 401" })).totalItems).toBeGreaterThan(0);

    const stats = await sdk.admin.logs.getStats({ filter: "data.status >= 400" });
    expect(stats.length).toBeGreaterThan(0);
    for (const item of stats) {
      expect(Object.keys(item).sort()).toEqual(["date", "total"]);
      expect(item.date).toMatch(/^\d{4}-\d\d-\d\d \d\d:00:00\.000Z$/);
    }
    const all = await sdk.admin.logs.getStats();
    const sum = (items: { total: number }[]) => items.reduce((total, item) => total + item.total, 0);
    expect(sum(all)).toBeGreaterThan(sum(stats));
    expect(sum(stats)).toBe((await sdk.admin.logs.getList(1, 1, { filter: "data.status >= 400" })).totalItems);

    const one = await sdk.admin.logs.getOne(page.items[0]!.id);
    expect(one).toEqual(page.items[0]);
    expect((await sdkFailure(sdk.admin.logs.getOne("999999999"))).response).toEqual({ status: 404, message: "The requested resource wasn't found.", data: {} });
    expect((await sdkFailure(sdk.admin.logs.getList(1, 10, { filter: "secreto = 1" }))).status).toBe(400);
    expect((await sdkFailure(sdk.admin.logs.getStats({ filter: "data.status >" }))).response).toEqual({ status: 400, message: "Invalid filter format.", data: {} });
  });
});

describe("/api/crons", () => {
  it("lists the scheduled jobs, runs one now (204) and rejects an unknown one (404)", async () => {
    expect(await sdk.admin.crons.getFullList()).toEqual(JOBS);
    // The retention job removes the month-old logs (LOGS_MAX_DAYS is 7 by default).
    expect((await sdk.admin.logs.getList(1, 10, { filter: "message ~ 'antiguo-'" })).totalItems).toBe(2);
    expect(await sdk.admin.crons.run("logs-antiguos")).toBe(true);
    await until(() => sdk.admin.logs.getList(1, 10, { filter: "message ~ 'antiguo-'" }), (found) => found.totalItems === 0, "the retention run");
    expect((await sdkFailure(sdk.admin.crons.run("no-existe"))).response).toEqual({ status: 404, message: "Missing or invalid cron job", data: {} });
    // The run is the admin's request in the log.
    const runs = await until(
      () => sdk.admin.logs.getList(1, 5, { filter: "data.url = '/api/crons/logs-antiguos' && data.status = 204" }),
      (found) => found.items.length === 1,
      "the run's request in the log",
    );
    expect(runs.items[0]!.data).toMatchObject({ method: "POST", auth: "_superusers", authId: adminId });
  });
});
