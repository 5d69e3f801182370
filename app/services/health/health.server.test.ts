import { afterAll, describe, expect, it } from "vitest";
import { closeTestDatabase, createTestDatabase } from "../../../tests/support/test-database";
import { useDatabase, type Database } from "~/db/client.server";
import { getHealth } from "./health.server";

describe("getHealth", () => {
  let database: Database | undefined;

  afterAll(async () => {
    await closeTestDatabase(database);
  });

  it("reports 503 when no database is installed", async () => {
    useDatabase(undefined);
    const report = await getHealth();
    expect(report.status).toBe(503);
    expect(report.body).toMatchObject({ code: 503, message: expect.any(String), details: expect.stringMatching(/not initialised/) });
  });

  it("reports 200 after a real round trip to the database", async () => {
    database = await createTestDatabase();
    const report = await getHealth();
    expect(report.status).toBe(200);
    expect(report.body).toEqual({
      code: 200,
      message: "API is healthy.",
      data: { database: database.kind, latencyMs: expect.any(Number), uptimeSeconds: expect.any(Number) },
    });
    if (report.status !== 200) throw new Error("unreachable");
    expect(report.body.data.latencyMs).toBeGreaterThanOrEqual(0);
    expect(report.body.data.latencyMs).toBeLessThan(3_000);
    expect(report.body.data.uptimeSeconds).toBeGreaterThanOrEqual(0);
    // Serialisable as the API's JSON body.
    expect(JSON.parse(JSON.stringify(report.body))).toEqual(report.body);
  });

  it("reports 503 with a message and details once the database is closed", async () => {
    await database!.close();
    const started = Date.now();
    const report = await getHealth();
    expect(Date.now() - started).toBeLessThan(3_500);
    expect(report.status).toBe(503);
    if (report.status !== 503) throw new Error("unreachable");
    expect(report.body.code).toBe(503);
    expect(report.body.message).toBe("La base de datos no responde.");
    expect(report.body.details).toEqual(expect.any(String));
    expect(report.body.details.length).toBeGreaterThan(0);
    expect(report.body).not.toHaveProperty("data");
    expect(JSON.stringify(report.body)).not.toMatch(/\n\s+at /); // no stack trace
  });
});
