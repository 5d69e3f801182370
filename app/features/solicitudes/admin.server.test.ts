import fs from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

// Integration tests of the staff side of solicitudes on a real database (PGlite, or PostgreSQL with
// TEST_DATABASE_URL). Rows are inserted directly with Drizzle; files are written under a temporary
// DATA_DIR, exactly where the upload code puts them.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("admin-solicitudes"));

import { getDb } from "~/db/client.server";
import { user } from "~/db/schema/auth";
import { solicitudEvents, solicitudFiles, solicitudes } from "~/db/schema/solicitudes";
import { closeTestDatabase, createTestDatabase } from "../../../tests/support/test-database";
import {
  addSolicitudNote,
  allowedNextStatuses,
  applySolicitudAction,
  attachmentDisposition,
  changeSolicitudStatus,
  csvField,
  getDashboardStats,
  getSolicitudDetail,
  getSolicitudFile,
  listSolicitudes,
  markSolicitudRead,
  openSolicitud,
  parseSolicitudFilters,
  startOfMexicoCityDay,
  streamSolicitudesCsv,
  solicitudesCsvFileName,
  SolicitudActionSchema,
  type StaffActor,
} from "./admin.server";

let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
const staff: StaffActor = { id: `staff-${process.pid}`, name: "Laura Méndez" };

beforeAll(async () => {
  database = await createTestDatabase();
  await getDb().insert(user).values({ id: staff.id, name: staff.name, email: `laura-${process.pid}@forja.mx`, role: "admin", emailVerified: true });
});

afterAll(async () => {
  await closeTestDatabase(database);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

beforeEach(async () => {
  // Events and files go with their solicitud (ON DELETE CASCADE).
  await getDb().delete(solicitudes);
});

type NewSolicitud = typeof solicitudes.$inferInsert;
let sequence = 0;

function aSolicitud(overrides: Partial<NewSolicitud> = {}): NewSolicitud {
  sequence += 1;
  return {
    number: `SOL-2026-${String(sequence).padStart(5, "0")}`,
    type: "cotizacion",
    name: `Cliente ${sequence}`,
    email: `cliente${sequence}@ejemplo.mx`,
    privacyAcceptedAt: new Date("2026-03-01T12:00:00Z"),
    formToken: `token-${process.pid}-${sequence}`,
    ...overrides,
  };
}

async function insert(...rows: Partial<NewSolicitud>[]) {
  return getDb()
    .insert(solicitudes)
    .values(rows.map((row) => aSolicitud(row)))
    .returning();
}

/** n rows one minute apart, newest last, ending at `end`. */
async function insertSeries(n: number, end = new Date("2026-03-10T18:00:00Z"), overrides: Partial<NewSolicitud> = {}) {
  const rows = Array.from({ length: n }, (_, index) => aSolicitud({ createdAt: new Date(end.getTime() - (n - 1 - index) * 60_000), ...overrides }));
  const inserted = [];
  for (let start = 0; start < rows.length; start += 500) inserted.push(...(await getDb().insert(solicitudes).values(rows.slice(start, start + 500)).returning()));
  return inserted;
}

const filters = (query = "") => parseSolicitudFilters(new URLSearchParams(query));

async function readAll(stream: ReadableStream<Uint8Array>): Promise<{ text: string; bytes: Uint8Array; chunks: Uint8Array[] }> {
  const chunks: Uint8Array[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
  }
  const bytes = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return { text: new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes), bytes, chunks };
}

/** A small RFC 4180 reader, to check what a spreadsheet would see. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ",") {
      row.push(field);
      field = "";
    } else if (char === "\r" && text[i + 1] === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i += 1;
    } else field += char;
  }
  if (field || row.length) rows.push([...row, field]);
  return rows;
}

describe("SolicitudFiltersSchema", () => {
  it("defaults to page 1, 30 per page, newest first, with the total", () => {
    expect(filters()).toEqual({
      page: 1,
      perPage: 30,
      sort: "fecha",
      dir: "desc",
      type: undefined,
      status: undefined,
      industry: undefined,
      from: undefined,
      to: undefined,
      q: undefined,
      skipTotal: false,
    });
  });

  it("reads every filter from the URL", () => {
    expect(
      filters("pagina=3&porPagina=100&orden=estado&dir=desc&tipo=contacto&estado=cotizado&industria=medica&desde=2026-01-01&hasta=2026-01-31&q=%20Tornillos%20&sinTotal=1"),
    ).toEqual({
      page: 3,
      perPage: 100,
      sort: "estado",
      dir: "desc",
      type: "contacto",
      status: "cotizado",
      industry: "medica",
      from: "2026-01-01",
      to: "2026-01-31",
      q: "Tornillos",
      skipTotal: true,
    });
    expect(filters("orden=estado").dir).toBe("asc");
  });

  it("clamps the page size to 500 and drops values it does not know, so a shared link always opens", () => {
    expect(filters("porPagina=1000").perPage).toBe(500);
    expect(filters("porPagina=0").perPage).toBe(1);
    expect(filters("porPagina=muchos").perPage).toBe(30);
    expect(filters("pagina=0").page).toBe(1);
    expect(filters("pagina=-4").page).toBe(1);
    expect(filters("pagina=abc").page).toBe(1);
    const junk = filters("orden=nombre&dir=arriba&tipo=spam&estado=borrado&industria=textil&desde=2026-02-30&hasta=ayer&q=%20%20&sinTotal=0");
    expect(junk).toMatchObject({ sort: "fecha", dir: "desc", type: undefined, status: undefined, industry: undefined, from: undefined, to: undefined, q: undefined, skipTotal: false });
  });

  it("treats the empty values of a submitted GET form as absent", () => {
    expect(filters("tipo=&estado=&industria=&desde=&hasta=&q=&porPagina=30")).toEqual(filters());
  });
});

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
    const rows = await insertSeries(75);
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
    await insertSeries(520);
    const page = await listSolicitudes(filters("porPagina=1000"));
    expect(page.rows).toHaveLength(500);
    expect(page.total).toBe(520);
    expect(page.hasNext).toBe(true);
    const rest = await listSolicitudes(filters("porPagina=500&pagina=2"));
    expect(rest.rows).toHaveLength(20);
    expect(rest.hasNext).toBe(false);
  });

  it("with sinTotal=1 skips the count and still knows whether a next page exists (fetching one more row)", async () => {
    await insertSeries(60);
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
    expect(startOfMexicoCityDay("2026-03-10").toISOString()).toBe("2026-03-10T06:00:00.000Z");
    expect(startOfMexicoCityDay("2026-07-01").toISOString()).toBe("2026-07-01T06:00:00.000Z");
    expect(startOfMexicoCityDay("2022-06-15").toISOString()).toBe("2022-06-15T05:00:00.000Z");
    expect(startOfMexicoCityDay("2022-04-03").toISOString()).toBe("2022-04-03T06:00:00.000Z");
  });
});

describe("status, notes and read marks", () => {
  async function events(id: string) {
    return getDb()
      .select({ kind: solicitudEvents.kind, fromStatus: solicitudEvents.fromStatus, toStatus: solicitudEvents.toStatus, note: solicitudEvents.note, actorId: solicitudEvents.actorId, actorName: solicitudEvents.actorName })
      .from(solicitudEvents)
      .where(eq(solicitudEvents.solicitudId, id))
      .orderBy(asc(solicitudEvents.createdAt), asc(solicitudEvents.id));
  }

  it("allows nuevo → en revisión → cotizado → cerrado, recording each step with who made it", async () => {
    const [row] = await insert({});
    for (const to of ["en_revision", "cotizado", "cerrado"] as const) {
      expect(await changeSolicitudStatus(row.id, to, staff)).toMatchObject({ ok: true });
    }
    const [stored] = await getDb().select().from(solicitudes).where(eq(solicitudes.id, row.id));
    expect(stored.status).toBe("cerrado");
    expect(await events(row.id)).toEqual([
      { kind: "estado", fromStatus: "nuevo", toStatus: "en_revision", note: null, actorId: staff.id, actorName: staff.name },
      { kind: "estado", fromStatus: "en_revision", toStatus: "cotizado", note: null, actorId: staff.id, actorName: staff.name },
      { kind: "estado", fromStatus: "cotizado", toStatus: "cerrado", note: null, actorId: staff.id, actorName: staff.name },
    ]);
  });

  it("allows closing or discarding straight from nuevo or en revisión, and discarding a quoted one", async () => {
    const [a, b, c, d] = await insert({}, {}, { status: "en_revision" }, { status: "cotizado" });
    expect((await changeSolicitudStatus(a.id, "descartado", staff)).ok).toBe(true);
    expect((await changeSolicitudStatus(b.id, "cerrado", staff)).ok).toBe(true);
    expect((await changeSolicitudStatus(c.id, "descartado", staff)).ok).toBe(true);
    expect((await changeSolicitudStatus(d.id, "descartado", staff)).ok).toBe(true);
    expect(allowedNextStatuses("nuevo")).toEqual(["en_revision", "cerrado", "descartado"]);
    expect(allowedNextStatuses("cotizado")).toEqual(["cerrado", "descartado"]);
  });

  it("refuses illegal moves with a Spanish message and changes nothing", async () => {
    const [fresh, closed, discarded, quoted] = await insert({}, { status: "cerrado" }, { status: "descartado" }, { status: "cotizado" });
    expect(await changeSolicitudStatus(fresh.id, "cotizado", staff)).toEqual({
      ok: false,
      status: 400,
      message: "No se puede pasar de «Nuevo» a «Cotizado». Desde «Nuevo» puede pasar a «En revisión», «Cerrado», «Descartado».",
    });
    expect(await changeSolicitudStatus(closed.id, "en_revision", staff)).toEqual({
      ok: false,
      status: 400,
      message: "No se puede pasar de «Cerrado» a «En revisión»: «Cerrado» es un estado final.",
    });
    expect((await changeSolicitudStatus(discarded.id, "nuevo", staff)).ok).toBe(false);
    expect((await changeSolicitudStatus(quoted.id, "en_revision", staff)).ok).toBe(false);
    expect(await changeSolicitudStatus(fresh.id, "nuevo", staff)).toEqual({ ok: false, status: 400, message: "El formulario ya está en «Nuevo»." });
    expect(await changeSolicitudStatus(fresh.id, "inventado" as never, staff)).toMatchObject({ ok: false, status: 400 });
    expect(await changeSolicitudStatus(randomUUID(), "en_revision", staff)).toMatchObject({ ok: false, status: 404 });
    expect(await changeSolicitudStatus("no-es-un-uuid", "en_revision", staff)).toMatchObject({ ok: false, status: 404 });
    const statuses = await getDb().select({ status: solicitudes.status }).from(solicitudes).orderBy(asc(solicitudes.number));
    expect(statuses.map((row) => row.status)).toEqual(["nuevo", "cerrado", "descartado", "cotizado"]);
    expect(await getDb().select().from(solicitudEvents)).toEqual([]);
  });

  it("keeps internal notes in the history, refusing empty ones", async () => {
    const [row] = await insert({});
    expect(await addSolicitudNote(row.id, "   ", staff)).toEqual({ ok: false, status: 400, message: "Escriba la nota antes de guardarla." });
    expect((await addSolicitudNote(row.id, "x".repeat(5001), staff)).ok).toBe(false);
    expect(await addSolicitudNote(row.id, "  Llamar el lunes; pide acero 316.  ", staff)).toEqual({ ok: true, value: undefined });
    expect(await addSolicitudNote(randomUUID(), "Nota", staff)).toMatchObject({ ok: false, status: 404 });
    expect(await events(row.id)).toEqual([{ kind: "nota", fromStatus: null, toStatus: null, note: "Llamar el lunes; pide acero 316.", actorId: staff.id, actorName: staff.name }]);
  });

  it("opening marks read once; 'marcar como no leído' clears it; both are in the history", async () => {
    const [row] = await insert({});
    const opened = await openSolicitud(row.id, staff);
    expect(opened?.readAt).toBeInstanceOf(Date);
    expect((await openSolicitud(row.id, staff))?.readAt).toEqual(opened?.readAt);
    expect((await listSolicitudes(filters())).rows[0].unread).toBe(false);

    expect(await markSolicitudRead(row.id, false, staff)).toEqual({ ok: true, value: { changed: true } });
    expect(await markSolicitudRead(row.id, false, staff)).toEqual({ ok: true, value: { changed: false } });
    expect((await listSolicitudes(filters())).rows[0].unread).toBe(true);
    expect((await getSolicitudDetail(row.id))?.readAt).toBeNull();

    expect((await events(row.id)).map((event) => event.kind)).toEqual(["leido", "no_leido"]);
    expect(await markSolicitudRead(randomUUID(), true, staff)).toMatchObject({ ok: false, status: 404 });
    expect(await openSolicitud(randomUUID(), staff)).toBeNull();
    expect(await openSolicitud("../../etc/passwd", staff)).toBeNull();
  });

  it("runs the detail page's forms through one schema and one call", async () => {
    const [row] = await insert({});
    const parse = (form: Record<string, string>) => SolicitudActionSchema.safeParse(form);
    expect(parse({ intent: "borrar" }).success).toBe(false);
    expect(parse({ intent: "estado" }).success).toBe(false);
    const status = parse({ intent: "estado", status: "en_revision" });
    expect(await applySolicitudAction(row.id, status.data!, staff)).toEqual({ ok: true, value: { intent: "estado", message: "Estado cambiado a «En revisión»." } });
    expect(await applySolicitudAction(row.id, parse({ intent: "nota", note: "Revisar plano" }).data!, staff)).toMatchObject({ ok: true });
    expect(await applySolicitudAction(row.id, parse({ intent: "nota" }).data!, staff)).toMatchObject({ ok: false, status: 400 });
    await markSolicitudRead(row.id, true, staff);
    expect(await applySolicitudAction(row.id, parse({ intent: "no_leido" }).data!, staff)).toMatchObject({ ok: true, value: { intent: "no_leido" } });
  });
});

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

describe("getSolicitudFile", () => {
  async function storedFile(solicitudId: string, content: string, originalName = "pieza.step") {
    const storagePath = `2026/03/${randomUUID()}`;
    const absolute = path.join(dataDir, "uploads", storagePath);
    fs.mkdirSync(path.dirname(absolute), { recursive: true });
    fs.writeFileSync(absolute, content);
    const [file] = await getDb()
      .insert(solicitudFiles)
      .values({ solicitudId, originalName, storagePath, kind: "step", mimeType: "model/step", size: Buffer.byteLength(content), sha256: "0" })
      .returning();
    return file;
  }

  it("streams a file of the solicitud it belongs to", async () => {
    const [row] = await insert({});
    const content = "ISO-10303-21;\nHEADER;\n".repeat(10_000); // several chunks
    const file = await storedFile(row.id, content, "soporte motor.step");
    const download = await getSolicitudFile(row.id, file.id);
    expect(download).toMatchObject({ id: file.id, originalName: "soporte motor.step", mimeType: "model/step", size: Buffer.byteLength(content) });
    expect((await readAll(download!.body)).text).toBe(content);
  });

  it("never returns a file through another solicitud, an unknown id or a malformed one", async () => {
    const [owner, other] = await insert({}, {});
    const file = await storedFile(owner.id, "ISO-10303-21;");
    expect(await getSolicitudFile(other.id, file.id)).toBeNull();
    expect(await getSolicitudFile(owner.id, randomUUID())).toBeNull();
    expect(await getSolicitudFile(owner.id, "../../auth-secret")).toBeNull();
    expect(await getSolicitudFile("x", file.id)).toBeNull();
  });

  it("returns null (and logs) when the row exists but the file is gone from disk", async () => {
    const [row] = await insert({});
    const file = await storedFile(row.id, "ISO-10303-21;");
    fs.rmSync(path.join(dataDir, "uploads", file.storagePath));
    expect(await getSolicitudFile(row.id, file.id)).toBeNull();
  });

  it("names the attachment with an ASCII fallback and the exact UTF-8 name", () => {
    expect(attachmentDisposition("Ménsula (rev 2).step")).toBe(`attachment; filename="Mensula (rev 2).step"; filename*=UTF-8''M%C3%A9nsula%20%28rev%202%29.step`);
    expect(attachmentDisposition('a"b\\c\r\n.pdf')).toBe(`attachment; filename="a_b_c.pdf"; filename*=UTF-8''a%22b%5Cc.pdf`);
    expect(attachmentDisposition("")).toBe(`attachment; filename="archivo"; filename*=UTF-8''archivo`);
  });
});

describe("streamSolicitudesCsv", () => {
  it("starts with the UTF-8 BOM and a Spanish header, and escapes fields per RFC 4180", async () => {
    await insert({
      number: "SOL-2026-0001",
      name: 'Ana "La Ingeniera" Gómez',
      company: "Maquinados, S.A. de C.V.",
      email: "ana@ejemplo.mx",
      industry: "aeroespacial",
      description: "Primera línea\r\nsegunda línea, con coma",
      certificates: ["rohs", "reach"],
      threads: false,
      createdAt: new Date("2026-03-10T05:30:00Z"),
    });
    const { bytes, text } = await readAll(streamSolicitudesCsv(filters()));
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = parseCsv(text.slice(1));
    expect(rows[0].slice(0, 8)).toEqual(["Número", "Tipo", "Fecha (hora de Ciudad de México)", "Estado", "Leído", "Nombre", "Empresa", "Correo"]);
    expect(rows).toHaveLength(2);
    const record = Object.fromEntries(rows[0].map((header, index) => [header, rows[1][index]]));
    expect(record).toMatchObject({
      Número: "SOL-2026-0001",
      Tipo: "Solicitud de cotización",
      // 05:30 UTC is still the evening before in Mexico City.
      "Fecha (hora de Ciudad de México)": "2026-03-09 23:30",
      Estado: "Nuevo",
      Leído: "No",
      Nombre: 'Ana "La Ingeniera" Gómez',
      Empresa: "Maquinados, S.A. de C.V.",
      Industria: "Aeroespacial",
      Descripción: "Primera línea\r\nsegunda línea, con coma",
      Certificados: "RoHS, REACH",
      Roscas: "No",
    });
    expect(text).toContain('"Ana ""La Ingeniera"" Gómez"');
    expect(text.endsWith("\r\n")).toBe(true);
  });

  it("neutralises spreadsheet formulas by prefixing an apostrophe", async () => {
    await insert({ name: "=HYPERLINK(\"http://x\",\"clic\")", company: "+52 442 000 0000", email: "@evil.mx", city: "-1+1", material: "Acero=bueno" });
    const rows = parseCsv((await readAll(streamSolicitudesCsv(filters()))).text.slice(1));
    const record = Object.fromEntries(rows[0].map((header, index) => [header, rows[1][index]]));
    expect(record.Nombre).toBe("'=HYPERLINK(\"http://x\",\"clic\")");
    expect(record.Empresa).toBe("'+52 442 000 0000");
    expect(record.Correo).toBe("'@evil.mx");
    expect(record["Ciudad o estado"]).toBe("'-1+1");
    expect(record.Material).toBe("Acero=bueno");
    expect(csvField("\tcmd")).toBe("'\tcmd");
    expect(csvField("normal")).toBe("normal");
    expect(csvField("")).toBe("");
  });

  it("exports only the current filter, ignoring the page", async () => {
    await insert({ number: "C-1", type: "contacto" }, { number: "C-2", type: "cotizacion" }, { number: "C-3", type: "contacto" });
    const rows = parseCsv((await readAll(streamSolicitudesCsv(filters("tipo=contacto&pagina=5&porPagina=1")))).text.slice(1));
    expect(rows.slice(1).map((row) => row[0]).sort()).toEqual(["C-1", "C-3"]);
  });

  it("streams more than 1,000 rows in batches of 500, each row exactly once, even with equal timestamps", async () => {
    // Three rows per instant, in the same microsecond: only the id tells them apart.
    const rows = Array.from({ length: 1203 }, (_, index) =>
      aSolicitud({ createdAt: new Date(Date.UTC(2026, 2, 10, 12, 0, 0, Math.floor(index / 3))) }),
    );
    for (let start = 0; start < rows.length; start += 400) await getDb().insert(solicitudes).values(rows.slice(start, start + 400));
    const { text, chunks } = await readAll(streamSolicitudesCsv(filters()));
    const numbers = parseCsv(text.slice(1)).slice(1).map((row) => row[0]);
    expect(numbers).toHaveLength(1203);
    expect(new Set(numbers).size).toBe(1203);
    // Header chunk, then one chunk per batch: 500 + 500 + 203.
    expect(chunks).toHaveLength(4);
    expect(chunks.slice(1).map((chunk) => parseCsv(new TextDecoder().decode(chunk)).length)).toEqual([500, 500, 203]);
    // Same order as the list.
    const firstPage = await listSolicitudes(filters("porPagina=500"));
    expect(numbers.slice(0, 500)).toEqual(firstPage.rows.map((row) => row.number));
  });

  it("pages with microsecond timestamps and mixed sort directions without skipping or repeating", async () => {
    const statuses = ["nuevo", "en_revision", "cotizado", "cerrado", "descartado"] as const;
    await insert(...Array.from({ length: 37 }, (_, index) => ({ status: statuses[index % 5] })));
    // Same microsecond-precision now() for all: ties again broken by id.
    for (const query of ["orden=estado", "orden=estado&dir=desc", "dir=asc", ""]) {
      const expected = (await listSolicitudes(filters(`${query}&porPagina=500`))).rows.map((row) => row.number);
      const exported = parseCsv((await readAll(streamSolicitudesCsv(filters(query), { batchSize: 4 }))).text.slice(1))
        .slice(1)
        .map((row) => row[0]);
      expect(exported).toEqual(expected);
    }
  });

  it("names the file after the Mexico City date", () => {
    expect(solicitudesCsvFileName(new Date("2026-03-11T03:00:00Z"))).toBe("formularios-2026-03-10.csv");
  });
});

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
