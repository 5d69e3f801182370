import { and, eq, isNotNull, isNull } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { solicitudEvents, solicitudes } from "~/db/schema/solicitudes";
import { invalid, notFoundResult, ok, type Result } from "~/lib/result";
import type { SolicitudAction } from "./forms";
import { isSolicitudId } from "./ids";
import { allowedNextStatuses, canMoveSolicitud, isSolicitudStatus, statusLabel, type SolicitudStatus } from "./states";

// What the staff do to a solicitud: move it through its states (as the table in states.ts allows),
// annotate it, mark it read or unread. Each command writes its event in the same transaction as the
// change it records.

export interface StaffActor {
  id: string;
  name: string;
}

export const NOTE_MAX_LENGTH = 5000;

const notFound = () => notFoundResult("No encontramos esa solicitud.");

export async function changeSolicitudStatus(input: { id: string; to: SolicitudStatus; actor: StaffActor }): Promise<Result<{ from: SolicitudStatus; to: SolicitudStatus }>> {
  const { id, to, actor } = input;
  if (!isSolicitudId(id)) return notFound();
  if (!isSolicitudStatus(to)) return invalid("Elija un estado de la lista.");
  return getDb().transaction(async (tx) => {
    const [current] = await tx.select({ status: solicitudes.status }).from(solicitudes).where(eq(solicitudes.id, id)).for("update").limit(1);
    if (!current) return notFound();
    const from = current.status;
    if (from === to) return invalid(`La solicitud ya está en «${statusLabel(to)}».`);
    if (!canMoveSolicitud({ from, to, who: "personal" })) {
      const allowed = allowedNextStatuses(from);
      const options = allowed.map((status) => `«${statusLabel(status)}»`).join(", ");
      return invalid(
        allowed.length
          ? `No se puede pasar de «${statusLabel(from)}» a «${statusLabel(to)}». Desde «${statusLabel(from)}» puede pasar a ${options}.`
          : `No se puede pasar de «${statusLabel(from)}» a «${statusLabel(to)}»: «${statusLabel(from)}» es un estado final.`,
      );
    }
    await tx.update(solicitudes).set({ status: to, updatedAt: new Date() }).where(eq(solicitudes.id, id));
    await tx.insert(solicitudEvents).values({ solicitudId: id, kind: "estado", fromStatus: from, toStatus: to, actorId: actor.id, actorName: actor.name });
    return ok({ from, to });
  });
}

export async function addSolicitudNote(input: { id: string; note: string; actor: StaffActor }): Promise<Result> {
  const { id, actor } = input;
  const text = input.note.trim();
  if (!text) return invalid("Escriba la nota antes de guardarla.");
  if (text.length > NOTE_MAX_LENGTH) return invalid("La nota puede tener hasta 5,000 caracteres.");
  if (!isSolicitudId(id)) return notFound();
  return getDb().transaction(async (tx) => {
    const [found] = await tx.update(solicitudes).set({ updatedAt: new Date() }).where(eq(solicitudes.id, id)).returning({ id: solicitudes.id });
    if (!found) return notFound();
    await tx.insert(solicitudEvents).values({ solicitudId: id, kind: "nota", note: text, actorId: actor.id, actorName: actor.name });
    return ok();
  });
}

/** Marks read or unread; `changed` is false (and no event is written) when it already was. */
export async function markSolicitudRead(input: { id: string; read: boolean; actor: StaffActor }): Promise<Result<{ changed: boolean }>> {
  const { id, read, actor } = input;
  if (!isSolicitudId(id)) return notFound();
  return getDb().transaction(async (tx) => {
    // Conditional update: two staff opening the same request at once write one "leído" event.
    const [changed] = await tx
      .update(solicitudes)
      .set({ readAt: read ? new Date() : null })
      .where(and(eq(solicitudes.id, id), read ? isNull(solicitudes.readAt) : isNotNull(solicitudes.readAt)))
      .returning({ id: solicitudes.id });
    if (!changed) {
      const [exists] = await tx.select({ id: solicitudes.id }).from(solicitudes).where(eq(solicitudes.id, id)).limit(1);
      return exists ? ok({ changed: false }) : notFound();
    }
    await tx.insert(solicitudEvents).values({ solicitudId: id, kind: read ? "leido" : "no_leido", actorId: actor.id, actorName: actor.name });
    return ok({ changed: true });
  });
}

/** Runs one form of the detail page; the message says what happened, in Spanish. */
export async function applySolicitudAction(input: {
  id: string;
  action: SolicitudAction;
  actor: StaffActor;
}): Promise<Result<{ intent: SolicitudAction["intent"]; message: string }>> {
  const { id, action, actor } = input;
  if (action.intent === "estado") {
    const result = await changeSolicitudStatus({ id, to: action.status, actor });
    return result.ok ? ok({ intent: action.intent, message: `Estado cambiado a «${statusLabel(result.value.to)}».` }) : result;
  }
  if (action.intent === "nota") {
    const result = await addSolicitudNote({ id, note: action.note, actor });
    return result.ok ? ok({ intent: action.intent, message: "Nota guardada en el historial." }) : result;
  }
  const result = await markSolicitudRead({ id, read: false, actor });
  return result.ok ? ok({ intent: action.intent, message: "Marcado como no leído." }) : result;
}

/** A quote was created from this request: it moves to "cotizado" (from nuevo or en revisión), with its event. */
export async function markSolicitudQuoted(id: string, actor: { id: string | null; name: string }): Promise<void> {
  await getDb().transaction(async (tx) => {
    const [current] = await tx.select({ status: solicitudes.status }).from(solicitudes).where(eq(solicitudes.id, id)).for("update").limit(1);
    if (!current || !canMoveSolicitud({ from: current.status, to: "cotizado", who: "cotizacion" })) return;
    await tx.update(solicitudes).set({ status: "cotizado", updatedAt: new Date() }).where(eq(solicitudes.id, id));
    await tx.insert(solicitudEvents).values({ solicitudId: id, kind: "estado", fromStatus: current.status, toStatus: "cotizado", actorId: actor.id, actorName: actor.name });
  });
}
