import { randomUUID } from "node:crypto";
import { describe, expect, it, vi } from "vitest";

// The staff list of solicitudes: pages, order, filters, search and date range.
// Integration test on a real database (PGlite, or PostgreSQL with TEST_DATABASE_URL); rows are
// inserted directly with Drizzle.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("solicitudes-list"));

import { getDb } from "~/db/client.server";
import { solicitudFiles } from "~/db/schema/solicitudes";
import { mexicoCityDayRange, startOfMexicoCityDay } from "~/lib/time";
import { listSolicitudes } from "./list.server";
import { insertSolicitudes as insert, insertSolicitudSeries, solicitudFilters as filters, useSolicitudTestDatabase } from "../../../tests/support/solicitud-requests";

useSolicitudTestDatabase(dataDir);

describe("listSolicitudes", () => {
  it("returns the list columns, with unread and the file count", async () => {
    const [withFiles, read] = await insert(
      { name: "Ana Ruiz", company: "Moldes del Bajío", industry: "automotriz", createdAt: new Date("2026-03-10T17:00:00Z") },
      { name: "Beto Lara", readAt: new Date(), type: "contacto", createdAt: new Date("2026-03-10T16:00:00Z") },
    );
    await getDb()
      .insert(solicitudFiles)
      .values(
        ["a.step", "b.stl"].map((name) => ({ solicitudId: withFiles.id, originalName: name, storagePath: `x/${randomUUID()}`, kind: "step", mimeType: "model/step", size: 10, sha256: "0" })),
      );
    const list = await listSolicitudes(filters());
    expect(list.total).toBe(2);
    expect(list.hasNext).toBe(false);
    expect(list.rows).toEqual([
      {
        id: withFiles.id,
        number: withFiles.number,
        type: "cotizacion",
        createdAt: new Date("2026-03-10T17:00:00Z"),
        name: "Ana Ruiz",
        company: "Moldes del Bajío",
        email: withFiles.email,
        industry: "automotriz",
        status: "nuevo",
        unread: true,
        fileCount: 2,
      },
      expect.objectContaining({ id: read.id, type: "contacto", unread: false, fileCount: 0, company: null }),
    ]);
  });

  it("pages by 30 by default with the total, and the last page says there is no next one", async () => {
    const rows = await insertSolicitudSeries(75);
    const newestFirst = rows.map((row) => row.number).reverse();
    const first = await listSolicitudes(filters());
    expect(first.rows).toHaveLength(30);
    expect(first.total).toBe(75);
    expect(first.hasNext).toBe(true);
    expect(first.rows.map((row) => row.number)).toEqual(newestFirst.slice(0, 30));
    const third = await listSolicitudes(filters("pagina=3"));
    expect(third.rows.map((row) => row.number)).toEqual(newestFirst.slice(60));
    expect(third.hasNext).toBe(false);
    const beyond = await listSolicitudes(filters("pagina=9"));
    expect(beyond).toEqual({ rows: [], total: 75, hasNext: false });
  });

  it("shows at most 500 per page", async () => {
    await insertSolicitudSeries(520);
    const page = await listSolicitudes(filters("porPagina=1000"));
    expect(page.rows).toHaveLength(500);
    expect(page.total).toBe(520);
    expect(page.hasNext).toBe(true);
    const rest = await listSolicitudes(filters("porPagina=500&pagina=2"));
    expect(rest.rows).toHaveLength(20);
    expect(rest.hasNext).toBe(false);
  });

  it("with sinTotal=1 skips the count and still knows whether a next page exists (fetching one more row)", async () => {
    await insertSolicitudSeries(60);
    const first = await listSolicitudes(filters("sinTotal=1"));
    expect(first.total).toBeNull();
    expect(first.rows).toHaveLength(30);
    expect(first.hasNext).toBe(true);
    // Exactly two full pages: the second must not claim a third.
    const second = await listSolicitudes(filters("sinTotal=1&pagina=2"));
    expect(second.rows).toHaveLength(30);
    expect(second.hasNext).toBe(false);
  });

  it("sorts by date in both directions, ties broken by id so pages never overlap", async () => {
    const sameTime = new Date("2026-03-10T18:00:00Z");
    const rows = await insert(...Array.from({ length: 7 }, () => ({ createdAt: sameTime })), { createdAt: new Date("2026-03-09T18:00:00Z") });
    const ids = new Set<string>();
    for (let page = 1; page <= 4; page += 1) {
      for (const row of (await listSolicitudes(filters(`porPagina=2&pagina=${page}`))).rows) ids.add(row.id);
    }
    expect(ids.size).toBe(8);
    const ascending = await listSolicitudes(filters("dir=asc"));
    expect(ascending.rows[0].id).toBe(rows[7].id);
    const descending = await listSolicitudes(filters("dir=desc"));
    expect(descending.rows.at(-1)!.id).toBe(rows[7].id);
  });

  it("sorts by status in workflow order (nuevo first), newest first within a status", async () => {
    await insert(
      { number: "A-cerrado", status: "cerrado", createdAt: new Date("2026-03-10T10:00:00Z") },
      { number: "A-nuevo-viejo", status: "nuevo", createdAt: new Date("2026-03-01T10:00:00Z") },
      { number: "A-cotizado", status: "cotizado", createdAt: new Date("2026-03-10T10:00:00Z") },
      { number: "A-nuevo-reciente", status: "nuevo", createdAt: new Date("2026-03-09T10:00:00Z") },
      { number: "A-descartado", status: "descartado", createdAt: new Date("2026-03-10T10:00:00Z") },
      { number: "A-revision", status: "en_revision", createdAt: new Date("2026-03-10T10:00:00Z") },
    );
    const byStatus = await listSolicitudes(filters("orden=estado"));
    expect(byStatus.rows.map((row) => row.number)).toEqual(["A-nuevo-reciente", "A-nuevo-viejo", "A-revision", "A-cotizado", "A-cerrado", "A-descartado"]);
    const reversed = await listSolicitudes(filters("orden=estado&dir=desc"));
    expect(reversed.rows.map((row) => row.number)).toEqual(["A-descartado", "A-cerrado", "A-cotizado", "A-revision", "A-nuevo-reciente", "A-nuevo-viejo"]);
  });

  it("filters by type, status and industry, together", async () => {
    await insert(
      { number: "F-1", type: "cotizacion", status: "nuevo", industry: "medica" },
      { number: "F-2", type: "cotizacion", status: "cotizado", industry: "medica" },
      { number: "F-3", type: "contacto", status: "nuevo" },
      { number: "F-4", type: "cotizacion", status: "nuevo", industry: "minera" },
    );
    const numbers = async (query: string) => (await listSolicitudes(filters(query))).rows.map((row) => row.number).sort();
    expect(await numbers("tipo=contacto")).toEqual(["F-3"]);
    expect(await numbers("estado=nuevo")).toEqual(["F-1", "F-3", "F-4"]);
    expect(await numbers("industria=medica")).toEqual(["F-1", "F-2"]);
    expect(await numbers("tipo=cotizacion&estado=nuevo&industria=medica")).toEqual(["F-1"]);
    expect((await listSolicitudes(filters("tipo=cotizacion&estado=nuevo"))).total).toBe(2);
  });

  it("searches number, name, company and email without regard to case; % and _ are literal", async () => {
    await insert(
      { number: "SOL-2026-0042", name: "María Fernández", company: "Tornillería del Norte", email: "compras@tornillos.mx" },
      { number: "SOL-2026-0043", name: "Jorge Peña", company: "100% Plásticos", email: "jorge_pena@plasticos.mx" },
      { number: "SOL-2026-0044", name: "Otro", company: null, email: "otro@ejemplo.mx" },
    );
    const numbers = async (q: string) => (await listSolicitudes(filters(`q=${encodeURIComponent(q)}`))).rows.map((row) => row.number).sort();
    expect(await numbers("0042")).toEqual(["SOL-2026-0042"]);
    expect(await numbers("maría")).toEqual(["SOL-2026-0042"]);
    expect(await numbers("TORNILLERÍA")).toEqual(["SOL-2026-0042"]);
    expect(await numbers("COMPRAS@")).toEqual(["SOL-2026-0042"]);
    expect(await numbers("sol-2026-004")).toEqual(["SOL-2026-0042", "SOL-2026-0043", "SOL-2026-0044"]);
    expect(await numbers("100%")).toEqual(["SOL-2026-0043"]);
    expect(await numbers("%")).toEqual(["SOL-2026-0043"]);
    expect(await numbers("jorge_")).toEqual(["SOL-2026-0043"]);
    expect(await numbers("o_r")).toEqual([]);
    expect(await numbers("nadie")).toEqual([]);
  });

  it("reads the date range as whole days in Mexico City (UTC−6), both ends included", async () => {
    // 2026-03-10 in Mexico City runs from 06:00 UTC that day to 06:00 UTC the next.
    await insert(
      { number: "D-antes", createdAt: new Date("2026-03-10T05:59:59.999Z") },
      { number: "D-inicio", createdAt: new Date("2026-03-10T06:00:00.000Z") },
      { number: "D-noche", createdAt: new Date("2026-03-11T05:59:59.999Z") },
      { number: "D-despues", createdAt: new Date("2026-03-11T06:00:00.000Z") },
    );
    const numbers = async (query: string) => (await listSolicitudes(filters(query))).rows.map((row) => row.number).sort();
    expect(await numbers("desde=2026-03-10&hasta=2026-03-10")).toEqual(["D-inicio", "D-noche"]);
    expect(await numbers("desde=2026-03-10")).toEqual(["D-despues", "D-inicio", "D-noche"]);
    expect(await numbers("hasta=2026-03-10")).toEqual(["D-antes", "D-inicio", "D-noche"]);
    expect(await numbers("desde=2026-03-11&hasta=2026-03-10")).toEqual([]);
  });

  it("knows Mexico City's offsets, including the daylight saving time it had until 2022", () => {
    // The list reads its range through ~/lib/time.
    expect(startOfMexicoCityDay("2026-03-10").toISOString()).toBe("2026-03-10T06:00:00.000Z");
    expect(startOfMexicoCityDay("2026-07-01").toISOString()).toBe("2026-07-01T06:00:00.000Z");
    expect(startOfMexicoCityDay("2022-06-15").toISOString()).toBe("2022-06-15T05:00:00.000Z");
    expect(startOfMexicoCityDay("2022-04-03").toISOString()).toBe("2022-04-03T06:00:00.000Z");
    expect(mexicoCityDayRange("2026-03-10", "2026-03-10")).toEqual({ start: new Date("2026-03-10T06:00:00.000Z"), end: new Date("2026-03-11T06:00:00.000Z") });
  });
});
