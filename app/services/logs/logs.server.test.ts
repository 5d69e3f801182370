import { describe, expect, it, vi } from "vitest";

// The request and error log on a real database: the writer's batches (who asked, worked out from a
// record token or a session cookie; secrets stripped; errors with their request id), the bounded
// queue, and the reads of /api/logs (filter and sort in PocketBase's grammar, stats per hour, one
// log) and the retention.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("logs"));

import { getDb } from "~/db/client.server";
import { logs } from "~/db/schema/operations";
import { isStaffRole } from "~/features/accounts/index.server";
import { logger } from "~/lib/logger.server";
import { signRecordToken } from "~/services/records/tokens.server";
import { getAuthSecret } from "~/services/security/secret.server";
import { registeredCustomer, signedInStaff } from "../../../tests/support/auth-requests";
import { useTestFileDatabase } from "../../../tests/support/test-file-database";
import { deleteOldLogs, listLogs, logStats, viewLog, type LogJson, type LogPage } from "./log-queries.server";
import { recordRequest, runInRequestScope, startLogWriter, type RequestLogInput } from "./log-writer.server";
import { REDACTED } from "./redact";

let customer: { id: string; cookie: string };
let staff: { id: string; cookie: string };

useTestFileDatabase(dataDir, async () => {
  const registered = await registeredCustomer("Cliente Bitácora", `cliente-logs-${process.pid}@ejemplo.mx`);
  customer = { id: registered.id, cookie: registered.cookie };
  const signedIn = await signedInStaff(`personal-logs-${process.pid}@forja.mx`);
  staff = { id: signedIn.user.id, cookie: signedIn.cookie };
});

let sequence = 0;
function request(overrides: Partial<RequestLogInput> = {}): RequestLogInput {
  sequence += 1;
  return {
    at: Date.now(),
    requestId: `req-logs-${sequence}`,
    method: "GET",
    url: "/servicios",
    status: 200,
    ms: 1.5,
    ip: "203.0.113.7",
    remoteIp: "127.0.0.1",
    referer: undefined,
    userAgent: "Prueba/1.0",
    authorization: undefined,
    cookie: undefined,
    ...overrides,
  };
}

function unwrap<T>(result: { ok: true; value: T } | { ok: false }): T {
  if (!result.ok) throw new Error(`expected a value, got ${JSON.stringify(result)}`);
  return result.value;
}

const params = (query: Record<string, string>) => new URLSearchParams(query);

describe("the log writer", () => {
  it("writes requests in a batch with who asked, secrets stripped, and errors with their request id", async () => {
    await getDb().delete(logs);
    const writer = startLogWriter({ isStaffRole });
    try {
      const token = signRecordToken({ id: staff.id, collection: "_superusers", sessionId: "s", sessionExpiresAt: new Date(Date.now() + 60_000) }, { secret: getAuthSecret() });
      recordRequest(request({ requestId: "req-anon", url: "/recuperar/nueva?token=secreto-de-correo&utm=boletin", referer: "https://forja.mx/cuenta/confirmar?token=otro-secreto" }));
      recordRequest(request({ requestId: "req-token", method: "POST", url: "/api/collections/pedidos/records", status: 400, authorization: `Bearer ${token}` }));
      recordRequest(request({ requestId: "req-cookie", url: "/cuenta", cookie: `tema=claro; ${customer.cookie}` }));
      recordRequest(request({ requestId: "req-staff", url: "/admin", cookie: staff.cookie }));
      recordRequest(request({ requestId: "req-forged", url: "/api/collections/pedidos/records", status: 401, authorization: "eyJhbGciOiJIUzI1NiJ9.e30.firma-falsa" }));
      recordRequest(request({ requestId: "req-fallo", url: "/catalogo", status: 500 }));
      // The log's own successful reads are left out; its refusals are kept.
      recordRequest(request({ requestId: "req-self", url: "/api/logs?page=1" }));
      recordRequest(request({ requestId: "req-self-refused", url: "/api/logs", status: 403 }));
      runInRequestScope("req-fallo", () => logger.error({ err: new Error("la base de datos tardó demasiado") }, "unhandled error in loader or action"));
      await writer.flush();
      expect(writer.stats()).toMatchObject({ queued: 0, dropped: 0 });

      const page = unwrap(await listLogs(params({ perPage: "50", sort: "created" })));
      const byRequest = new Map(page.items.map((item) => [(item as unknown as LogJson).data.requestId, item as unknown as LogJson]));
      expect(byRequest.has("req-self")).toBe(false);
      expect(byRequest.get("req-self-refused")).toMatchObject({ level: 4 });
      expect(byRequest.get("req-anon")).toMatchObject({
        level: 0,
        message: `GET /recuperar/nueva?token=${REDACTED}&utm=boletin`,
        data: {
          type: "request",
          url: `/recuperar/nueva?token=${REDACTED}&utm=boletin`,
          method: "GET",
          status: 200,
          execTime: 1.5,
          userIP: "203.0.113.7",
          remoteIP: "127.0.0.1",
          referer: `https://forja.mx/cuenta/confirmar?token=${REDACTED}`,
          userAgent: "Prueba/1.0",
          auth: "",
        },
      });
      expect(byRequest.get("req-token")!.data).toMatchObject({ auth: "_superusers", authId: staff.id, status: 400 });
      expect(byRequest.get("req-token")!.level).toBe(4);
      expect(byRequest.get("req-cookie")!.data).toMatchObject({ auth: "users", authId: customer.id });
      expect(byRequest.get("req-staff")!.data).toMatchObject({ auth: "_superusers", authId: staff.id });
      expect(byRequest.get("req-forged")!.data).toMatchObject({ auth: "" });
      expect(byRequest.get("req-forged")!.data.authId).toBeUndefined();
      expect(byRequest.get("req-fallo")!.level).toBe(8);
      // No secret, cookie or Authorization value is stored anywhere.
      const stored = JSON.stringify(await getDb().select().from(logs));
      for (const secret of ["secreto-de-correo", "otro-secreto", token, customer.cookie.split("=")[1]!.slice(0, 20), "firma-falsa"]) expect(stored).not.toContain(secret);

      const errors = unwrap(await listLogs(params({ filter: "data.type = 'app' && data.requestId = 'req-fallo'" })));
      expect(errors.items).toHaveLength(1);
      expect(errors.items[0]).toMatchObject({ level: 8, message: "unhandled error in loader or action", data: { err: { name: "Error", message: "la base de datos tardó demasiado" } } });
    } finally {
      await writer.stop();
    }
  });

  it("writes on its own every second, also after a flush that found nothing", async () => {
    await getDb().delete(logs);
    const writer = startLogWriter({ isStaffRole });
    try {
      await writer.flush();
      recordRequest(request({ requestId: "req-sola" }));
      const deadline = Date.now() + 5_000;
      while (writer.stats().written === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unwrap(await listLogs(params({ filter: "data.requestId = 'req-sola'" }))).totalItems).toBe(1);
    } finally {
      await writer.stop();
    }
  });

  it("logs an address that carries a NUL character (%00) with U+FFFD in its place, and the rest of its batch too", async () => {
    await getDb().delete(logs);
    const writer = startLogWriter({ isStaffRole });
    try {
      recordRequest(request({ requestId: "req-nul", url: "/api/collections/solicitudes/records?sort=%7B%3Ax%7D.%00", userAgent: "agente\0raro" }));
      recordRequest(request({ requestId: "req-vecina" }));
      await writer.flush();
      const stored = unwrap(await listLogs(params({ filter: "data.requestId = 'req-nul' || data.requestId = 'req-vecina'" })));
      expect(stored.totalItems).toBe(2);
      const nul = stored.items.find((item) => (item.data as { requestId?: string }).requestId === "req-nul")!;
      expect(nul.message).toContain("\uFFFD");
      expect(nul.message).not.toContain("\0");
      expect((nul.data as { userAgent?: string }).userAgent).toBe("agente\uFFFDraro");
    } finally {
      await writer.stop();
    }
  });

  it("drops the oldest entries past its bound and counts them, without blocking", async () => {
    await getDb().delete(logs);
    const writer = startLogWriter({ isStaffRole });
    try {
      const started = performance.now();
      for (let index = 0; index < 10_050; index += 1) recordRequest(request({ requestId: `carga-${index}`, url: `/catalogo?pagina=${index}` }));
      // Ten thousand pushes take milliseconds: nothing waits for the database on the request's path.
      expect(performance.now() - started).toBeLessThan(500);
      expect(writer.stats()).toMatchObject({ queued: 10_000, dropped: 50 });
      await writer.flush();
      expect(writer.stats()).toMatchObject({ queued: 0, written: 10_001 });
      const oldest = unwrap(await listLogs(params({ perPage: "1", sort: "created,data.requestId", filter: "data.type = 'request'" })));
      expect(oldest.totalItems).toBe(10_000);
      const kept = unwrap(await listLogs(params({ perPage: "1", filter: "data.requestId = 'carga-49' || data.requestId = 'carga-50'" })));
      expect(kept.items.map((item) => (item.data as { requestId: string }).requestId)).toEqual(["carga-50"]);
      const report = unwrap(await listLogs(params({ filter: "message = 'request log entries dropped'" })));
      expect(report.items[0]).toMatchObject({ level: 4, data: { dropped: 50 } });
    } finally {
      await writer.stop();
    }
  }, 60_000);
});

describe("reading the log", () => {
  async function seedLogs(): Promise<void> {
    await getDb().delete(logs);
    const hour = (h: number, m = 0) => new Date(Date.UTC(2026, 10, 24, h, m));
    const row = (createdAt: Date, status: number, url: string, execTime: number) => ({
      createdAt,
      level: status >= 500 ? 8 : status >= 400 ? 4 : 0,
      message: `GET ${url}`,
      data: { type: "request", url, method: "GET", status, execTime, auth: "" },
    });
    await getDb()
      .insert(logs)
      .values([
        row(hour(9, 5), 200, "/", 3),
        row(hour(9, 40), 404, "/no-existe", 1),
        row(hour(10, 1), 200, "/servicios", 12),
        row(hour(10, 2), 500, "/catalogo", 250),
        row(hour(10, 59), 200, "/cotiza", 40),
        row(hour(12, 30), 403, "/api/logs", 2),
      ]);
  }

  it("pages, filters and sorts with the record API's grammar, also inside data", async () => {
    await seedLogs();
    const all = unwrap(await listLogs(params({ perPage: "4" }))) as LogPage;
    expect(all).toMatchObject({ page: 1, perPage: 4, totalItems: 6, totalPages: 2 });
    // Newest first by default.
    expect(all.items.map((item) => item.message)).toEqual(["GET /api/logs", "GET /cotiza", "GET /catalogo", "GET /servicios"]);
    expect(Object.keys(all.items[0]!).sort()).toEqual(["created", "data", "id", "level", "message"]);
    expect(all.items[0]!.created).toBe("2026-11-24 12:30:00.000Z");

    const failures = unwrap(await listLogs(params({ filter: "data.status >= 400", sort: "-data.status" })));
    expect(failures.items.map((item) => (item.data as { status: number }).status)).toEqual([500, 404, 403]);
    const slow = unwrap(await listLogs(params({ filter: "data.execTime > 10 && level = 0", sort: "data.execTime" })));
    expect(slow.items.map((item) => item.message)).toEqual(["GET /servicios", "GET /cotiza"]);
    const search = unwrap(await listLogs(params({ filter: "data.url ~ 'catal' || message ~ 'cotiza'", sort: "created" })));
    expect(search.items.map((item) => item.message)).toEqual(["GET /catalogo", "GET /cotiza"]);
    const morning = unwrap(await listLogs(params({ filter: "created < '2026-11-24 10:00:00'" })));
    expect(morning.totalItems).toBe(2);
    const trimmed = unwrap(await listLogs(params({ fields: "id,message", perPage: "1", skipTotal: "true" })));
    expect(trimmed).toMatchObject({ totalItems: -1, totalPages: -1 });
    expect(Object.keys(trimmed.items[0]!).sort()).toEqual(["id", "message"]);

    for (const bad of ["nombre = 'x'", "data.status >>= 1", "(level = 1", "data. = 1"]) {
      const refused = await listLogs(params({ filter: bad }));
      expect(refused.ok, bad).toBe(false);
    }
    expect((await listLogs(params({ sort: "-contraseña" }))).ok).toBe(false);
  });

  it("counts per hour as PocketBase's stats, honouring the filter", async () => {
    await seedLogs();
    expect(unwrap(await logStats(params({})))).toEqual([
      { total: 2, date: "2026-11-24 09:00:00.000Z" },
      { total: 3, date: "2026-11-24 10:00:00.000Z" },
      { total: 1, date: "2026-11-24 12:00:00.000Z" },
    ]);
    expect(unwrap(await logStats(params({ filter: "data.status >= 400" })))).toEqual([
      { total: 1, date: "2026-11-24 09:00:00.000Z" },
      { total: 1, date: "2026-11-24 10:00:00.000Z" },
      { total: 1, date: "2026-11-24 12:00:00.000Z" },
    ]);
    const refused = await logStats(params({ filter: "status >" }));
    expect(refused.ok || refused.kind === "invalid" ? (refused as { formErrors?: string[] }).formErrors : null).toEqual(["Invalid filter format."]);
  });

  it("shows one log by id, 404 for an unknown or malformed id", async () => {
    await seedLogs();
    const [first] = unwrap(await listLogs(params({ perPage: "1" }))).items;
    expect(unwrap(await viewLog(String(first!.id)))).toEqual(first);
    expect((await viewLog(String(Number(first!.id) + 1000))).ok).toBe(false);
    expect((await viewLog("no-es-un-id")).ok).toBe(false);
  });

  it("deletes what is older than the retention", async () => {
    await seedLogs();
    // Seven days before this is 2026-11-24 10:01:30: the three logs before then go.
    const now = new Date("2026-12-01T10:01:30Z");
    expect(await deleteOldLogs(7, now)).toBe(3);
    expect(unwrap(await listLogs(params({ sort: "created" }))).items.map((item) => item.message)).toEqual(["GET /catalogo", "GET /cotiza", "GET /api/logs"]);
    expect(await deleteOldLogs(7, now)).toBe(0);
  });
});
