import { randomUUID } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";

// What the staff do to a solicitud: status moves (the state table), notes, read marks, the detail page's forms.
// Integration test on a real database (PGlite, or PostgreSQL with TEST_DATABASE_URL); rows are
// inserted directly with Drizzle.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("solicitudes-commands"));

import { getDb } from "~/db/client.server";
import { solicitudEvents, solicitudes } from "~/db/schema/solicitudes";
import { failureMessages, failureStatus, type Result } from "~/lib/result";
import { addSolicitudNote, applySolicitudAction, changeSolicitudStatus, markSolicitudQuoted, markSolicitudRead, type StaffActor } from "./commands.server";
import { getSolicitudDetail, openSolicitud } from "./detail.server";
import { solicitudActionSchema } from "./forms";
import { listSolicitudes } from "./list.server";
import { allowedNextStatuses } from "./states";
import { TEST_STAFF } from "../../../tests/support/auth-requests";
import { insertSolicitudes as insert, solicitudFilters as filters, useSolicitudTestDatabase } from "../../../tests/support/solicitud-requests";

const staff: StaffActor = TEST_STAFF;

useSolicitudTestDatabase(dataDir, { staff: true });

/** A refusal as the staff page shows it: the failure's HTTP status and its message. */
function answer<T>(result: Result<T>) {
  return result.ok ? result : { ok: false as const, status: failureStatus(result), message: failureMessages(result).formErrors[0] };
}

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
      expect(await changeSolicitudStatus({ id: row.id, to, actor: staff })).toMatchObject({ ok: true });
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
    expect((await changeSolicitudStatus({ id: a.id, to: "descartado", actor: staff })).ok).toBe(true);
    expect((await changeSolicitudStatus({ id: b.id, to: "cerrado", actor: staff })).ok).toBe(true);
    expect((await changeSolicitudStatus({ id: c.id, to: "descartado", actor: staff })).ok).toBe(true);
    expect((await changeSolicitudStatus({ id: d.id, to: "descartado", actor: staff })).ok).toBe(true);
    expect(allowedNextStatuses("nuevo")).toEqual(["en_revision", "cerrado", "descartado"]);
    expect(allowedNextStatuses("cotizado")).toEqual(["cerrado", "descartado"]);
  });

  it("refuses illegal moves with a Spanish message and changes nothing", async () => {
    const [fresh, closed, discarded, quoted] = await insert({}, { status: "cerrado" }, { status: "descartado" }, { status: "cotizado" });
    expect(answer(await changeSolicitudStatus({ id: fresh.id, to: "cotizado", actor: staff }))).toEqual({
      ok: false,
      status: 400,
      message: "No se puede pasar de «Nuevo» a «Cotizado». Desde «Nuevo» puede pasar a «En revisión», «Cerrado», «Descartado».",
    });
    expect(answer(await changeSolicitudStatus({ id: closed.id, to: "en_revision", actor: staff }))).toEqual({
      ok: false,
      status: 400,
      message: "No se puede pasar de «Cerrado» a «En revisión»: «Cerrado» es un estado final.",
    });
    expect((await changeSolicitudStatus({ id: discarded.id, to: "nuevo", actor: staff })).ok).toBe(false);
    expect((await changeSolicitudStatus({ id: quoted.id, to: "en_revision", actor: staff })).ok).toBe(false);
    expect(answer(await changeSolicitudStatus({ id: fresh.id, to: "nuevo", actor: staff }))).toEqual({ ok: false, status: 400, message: "La solicitud ya está en «Nuevo»." });
    expect(answer(await changeSolicitudStatus({ id: fresh.id, to: "inventado" as never, actor: staff }))).toMatchObject({ ok: false, status: 400 });
    expect(answer(await changeSolicitudStatus({ id: randomUUID(), to: "en_revision", actor: staff }))).toMatchObject({ ok: false, status: 404 });
    expect(answer(await changeSolicitudStatus({ id: "no-es-un-uuid", to: "en_revision", actor: staff }))).toMatchObject({ ok: false, status: 404 });
    const statuses = await getDb().select({ status: solicitudes.status }).from(solicitudes).orderBy(asc(solicitudes.number));
    expect(statuses.map((row) => row.status)).toEqual(["nuevo", "cerrado", "descartado", "cotizado"]);
    expect(await getDb().select().from(solicitudEvents)).toEqual([]);
  });

  it("keeps internal notes in the history, refusing empty ones", async () => {
    const [row] = await insert({});
    expect(answer(await addSolicitudNote({ id: row.id, note: "   ", actor: staff }))).toEqual({ ok: false, status: 400, message: "Escriba la nota antes de guardarla." });
    expect((await addSolicitudNote({ id: row.id, note: "x".repeat(5001), actor: staff })).ok).toBe(false);
    expect(await addSolicitudNote({ id: row.id, note: "  Llamar el lunes; pide acero 316.  ", actor: staff })).toEqual({ ok: true, value: undefined });
    expect(answer(await addSolicitudNote({ id: randomUUID(), note: "Nota", actor: staff }))).toMatchObject({ ok: false, status: 404 });
    expect(await events(row.id)).toEqual([{ kind: "nota", fromStatus: null, toStatus: null, note: "Llamar el lunes; pide acero 316.", actorId: staff.id, actorName: staff.name }]);
  });

  it("opening marks read once; 'marcar como no leído' clears it; both are in the history", async () => {
    const [row] = await insert({});
    const opened = await openSolicitud({ id: row.id, actor: staff });
    expect(opened?.readAt).toBeInstanceOf(Date);
    expect((await openSolicitud({ id: row.id, actor: staff }))?.readAt).toEqual(opened?.readAt);
    expect((await listSolicitudes(filters())).rows[0].unread).toBe(false);

    expect(await markSolicitudRead({ id: row.id, read: false, actor: staff })).toEqual({ ok: true, value: { changed: true } });
    expect(await markSolicitudRead({ id: row.id, read: false, actor: staff })).toEqual({ ok: true, value: { changed: false } });
    expect((await listSolicitudes(filters())).rows[0].unread).toBe(true);
    expect((await getSolicitudDetail(row.id))?.readAt).toBeNull();

    expect((await events(row.id)).map((event) => event.kind)).toEqual(["leido", "no_leido"]);
    expect(answer(await markSolicitudRead({ id: randomUUID(), read: true, actor: staff }))).toMatchObject({ ok: false, status: 404 });
    expect(await openSolicitud({ id: randomUUID(), actor: staff })).toBeNull();
    expect(await openSolicitud({ id: "../../etc/passwd", actor: staff })).toBeNull();
  });

  it("runs the detail page's forms through one schema and one call", async () => {
    const [row] = await insert({});
    const parse = (form: Record<string, string>) => solicitudActionSchema().safeParse(form);
    expect(parse({ intent: "borrar" }).success).toBe(false);
    expect(parse({ intent: "estado" }).success).toBe(false);
    const status = parse({ intent: "estado", status: "en_revision" });
    expect(await applySolicitudAction({ id: row.id, action: status.data!, actor: staff })).toEqual({ ok: true, value: { intent: "estado", message: "Estado cambiado a «En revisión»." } });
    expect(await applySolicitudAction({ id: row.id, action: parse({ intent: "nota", note: "Revisar plano" }).data!, actor: staff })).toMatchObject({ ok: true });
    expect(answer(await applySolicitudAction({ id: row.id, action: parse({ intent: "nota" }).data!, actor: staff }))).toMatchObject({ ok: false, status: 400 });
    await markSolicitudRead({ id: row.id, read: true, actor: staff });
    expect(await applySolicitudAction({ id: row.id, action: parse({ intent: "no_leido" }).data!, actor: staff })).toMatchObject({ ok: true, value: { intent: "no_leido" } });
  });
});

describe("markSolicitudQuoted", () => {
  it("moves a request to «Cotizado» when a quote is made from it, from nuevo or en revisión only, with its event", async () => {
    const [fresh, reviewing, closed] = await insert({}, { status: "en_revision" }, { status: "cerrado" });
    for (const row of [fresh, reviewing, closed]) await markSolicitudQuoted(row.id, { id: staff.id, name: staff.name });
    const statuses = await getDb().select({ status: solicitudes.status }).from(solicitudes).orderBy(asc(solicitudes.number));
    expect(statuses.map((row) => row.status)).toEqual(["cotizado", "cotizado", "cerrado"]);
    expect((await getDb().select().from(solicitudEvents)).map((event) => [event.fromStatus, event.toStatus]).sort()).toEqual([
      ["en_revision", "cotizado"],
      ["nuevo", "cotizado"],
    ]);
  });
});
