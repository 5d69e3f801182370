import { randomUUID } from "node:crypto";
import { describe, expect, it, vi } from "vitest";

// One solicitud as the staff read it.
// Integration test on a real database (PGlite, or PostgreSQL with TEST_DATABASE_URL); rows are
// inserted directly with Drizzle.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("solicitudes-detail"));

import { getDb } from "~/db/client.server";
import { user } from "~/db/schema/auth";
import { solicitudEvents, solicitudFiles } from "~/db/schema/solicitudes";
import type { StaffActor } from "./commands.server";
import { getSolicitudDetail } from "./detail.server";
import { TEST_STAFF } from "../../../tests/support/auth-requests";
import { insertSolicitudes as insert, useSolicitudTestDatabase } from "../../../tests/support/solicitud-requests";

const staff: StaffActor = TEST_STAFF;

useSolicitudTestDatabase(dataDir, { staff: true });

describe("getSolicitudDetail", () => {
  it("returns every field, the files, the estimates, the NDA record, the account and the history with names", async () => {
    const customerId = `cliente-${randomUUID()}`;
    await getDb().insert(user).values({ id: customerId, name: "Sofía Treviño", email: `${customerId}@ejemplo.mx` });
    const [row] = await insert({
      userId: customerId,
      name: "Sofía Treviño",
      company: "Dispositivos Médicos del Centro",
      phone: "4421234567",
      city: "Querétaro, Qro.",
      industry: "medica",
      service: "maquinado-cnc",
      description: "Carcasa de aluminio para un monitor de signos vitales.",
      quantity: 50,
      extraQuantities: [100, 500],
      requiredBy: "2026-04-30",
      material: "Aluminio 6061-T6",
      finish: "Anodizado natural",
      tolerance: "estrictas",
      threads: true,
      certificates: ["conformidad", "dimensional"],
      ndaVersion: "NDA-FORJA-2026-01",
      ndaAcceptedAt: new Date("2026-03-10T17:00:00Z"),
      estimates: [{ fileId: "f", fileName: "carcasa.stl", volumeMm3: 12_345.6, bbox: { x: 10, y: 20, z: 30 }, triangles: 1200, closed: true, price: { service: "maquinado-cnc", minCentavos: 150_000, maxCentavos: 300_000 } }],
    });
    await getDb()
      .insert(solicitudFiles)
      .values({ solicitudId: row.id, originalName: "carcasa.stl", storagePath: `x/${randomUUID()}`, kind: "stl", mimeType: "model/stl", size: 84_000, sha256: "abc" });
    await getDb().insert(solicitudEvents).values({ solicitudId: row.id, kind: "creado", toStatus: "nuevo", actorName: "Sofía Treviño", createdAt: new Date("2026-03-10T17:00:00Z") });
    // An event whose name was not kept shows the account's name.
    await getDb().insert(solicitudEvents).values({ solicitudId: row.id, kind: "nota", note: "Sin nombre guardado", actorId: staff.id });

    const detail = await getSolicitudDetail(row.id);
    expect(detail).toMatchObject({
      number: row.number,
      status: "nuevo",
      nextStatuses: ["en_revision", "cerrado", "descartado"],
      industry: "medica",
      service: "maquinado-cnc",
      quantity: 50,
      extraQuantities: [100, 500],
      requiredBy: "2026-04-30",
      tolerance: "estrictas",
      threads: true,
      certificates: ["conformidad", "dimensional"],
      ndaVersion: "NDA-FORJA-2026-01",
      ndaAcceptedAt: new Date("2026-03-10T17:00:00Z"),
      account: { id: customerId, name: "Sofía Treviño" },
      files: [{ originalName: "carcasa.stl", kind: "stl", mimeType: "model/stl", size: 84_000 }],
      estimates: [{ fileName: "carcasa.stl", volumeMm3: 12_345.6, closed: true }],
    });
    expect(detail?.events.map((event) => [event.kind, event.actorName])).toEqual([
      ["creado", "Sofía Treviño"],
      ["nota", staff.name],
    ]);
    expect(await getSolicitudDetail(randomUUID())).toBeNull();
    expect(await getSolicitudDetail("123")).toBeNull();
  });
});
