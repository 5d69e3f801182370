import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { closeTestDatabase, createTestDatabase } from "../../tests/support/test-database";
import { useDatabase, type Database } from "~/db/client.server";
import { loader as healthLoader } from "~/routes/api/health";
import { createHttpClient } from "./http";
import { probeSystemStatus } from "./system-status";

// The dashboard's "Estado del sistema" probe over real HTTP: a loopback server answering with the
// site's own /api/health route (a real database round trip, or a 503 when there is no database),
// and a port nobody listens on for a server that cannot be reached.

let server: Server;
let baseUrl = "";
let database: Database | undefined;

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url !== "/api/health") {
      response.writeHead(404).end();
      return;
    }
    void healthLoader().then(async (answer) => {
      response.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" });
      response.end(await answer.text());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  vi.spyOn(console, "info").mockImplementation(() => undefined);
  vi.spyOn(console, "error").mockImplementation(() => undefined);
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await closeTestDatabase(database);
});

describe("probeSystemStatus", () => {
  it("says in Spanish that the database does not answer when the health endpoint gives 503", async () => {
    useDatabase(undefined);
    const status = await probeSystemStatus(createHttpClient({ baseUrl }));
    expect(status).toMatchObject({ ok: false, title: "El sitio responde, pero la base de datos no.", detail: expect.stringMatching(/not initialised/) });
  });

  it("reports the database and its round trip once it answers", async () => {
    database = await createTestDatabase();
    const status = await probeSystemStatus(createHttpClient({ baseUrl }));
    // The suite runs on PGlite, and again on PostgreSQL in CI (TEST_DATABASE_URL).
    expect(status).toMatchObject({ ok: true, database: database.kind === "postgres" ? "PostgreSQL" : "PGlite (integrada)" });
    if (!status.ok) throw new Error("unreachable");
    expect(status.databaseMs).toEqual(expect.any(Number));
    expect(status.databaseMs!).toBeGreaterThanOrEqual(0);
    expect(status.totalMs).toBeGreaterThanOrEqual(status.databaseMs!);
    expect(status.checkedAt).toBeInstanceOf(Date);
  });

  it("says the server cannot be reached when nothing listens", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const deadUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const status = await probeSystemStatus(createHttpClient({ baseUrl: deadUrl }));
    expect(status).toMatchObject({ ok: false, title: "No se pudo contactar al servidor: el sitio está caído o se perdió la conexión.", detail: null });
  });
});
