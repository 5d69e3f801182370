import { describe, expect, it, vi } from "vitest";

// The staff dashboard's figures, counted in Mexico City days.
// Integration test on a real database (PGlite, or PostgreSQL with TEST_DATABASE_URL); rows are
// inserted directly with Drizzle.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("solicitudes-dashboard"));

import { getDashboardStats } from "./dashboard.server";
import { insertSolicitudes as insert, useSolicitudTestDatabase } from "../../../tests/support/solicitud-requests";

useSolicitudTestDatabase(dataDir);

describe("getDashboardStats", () => {
  it("counts today and this week (from Monday) in Mexico City, the unread, and lists the latest 10", async () => {
    // Wednesday 2026-03-11, 12:00 in Mexico City. The week began Monday 2026-03-09 at 06:00 UTC.
    const now = new Date("2026-03-11T18:00:00Z");
    await insert(
      { number: "T-hoy-1", createdAt: new Date("2026-03-11T06:00:00Z") },
      { number: "T-hoy-2", createdAt: new Date("2026-03-11T17:59:00Z"), readAt: new Date() },
      { number: "T-ayer", createdAt: new Date("2026-03-11T05:59:59Z") },
      { number: "T-lunes", createdAt: new Date("2026-03-09T06:00:00Z"), readAt: new Date() },
      { number: "T-domingo", createdAt: new Date("2026-03-09T05:59:59Z") },
      ...Array.from({ length: 8 }, (_, index) => ({ number: `T-viejo-${index}`, createdAt: new Date(Date.UTC(2026, 1, 1 + index)), readAt: new Date() })),
    );
    const stats = await getDashboardStats(now);
    expect(stats).toMatchObject({ today: 2, week: 4, unread: 3, weekStart: "2026-03-09" });
    expect(stats.latest.map((row) => row.number)).toEqual(["T-hoy-2", "T-hoy-1", "T-ayer", "T-lunes", "T-domingo", "T-viejo-7", "T-viejo-6", "T-viejo-5", "T-viejo-4", "T-viejo-3"]);
    expect(stats.latest[0]).toMatchObject({ unread: false, fileCount: 0 });
  });

  it("on a Sunday counts the week back to Monday, and on a Monday from that same day", async () => {
    await insert({ number: "S-lunes", createdAt: new Date("2026-03-09T12:00:00Z") }, { number: "S-domingo", createdAt: new Date("2026-03-15T12:00:00Z") });
    expect(await getDashboardStats(new Date("2026-03-16T03:00:00Z"))).toMatchObject({ today: 1, week: 2, weekStart: "2026-03-09" });
    expect(await getDashboardStats(new Date("2026-03-16T07:00:00Z"))).toMatchObject({ today: 0, week: 0, weekStart: "2026-03-16" });
  });
});
