import { formatDateTime } from "~/lib/format";
import { statusLabel } from "../states";
import { SolicitudPanel } from "./solicitud-panel";

// The history of a solicitud on the staff page, newest first: received, status changes, internal
// notes, read and unread marks, each with when and who.

export interface SolicitudHistoryEvent {
  id: string;
  kind: string;
  fromStatus: string | null;
  toStatus: string | null;
  note: string | null;
  actorName: string | null;
  createdAt: Date | string;
}

function EventText({ event }: { event: SolicitudHistoryEvent }) {
  switch (event.kind) {
    case "creado":
      return <>Solicitud recibida</>;
    case "estado":
      return (
        <>
          Cambió el estado de «{statusLabel(event.fromStatus ?? "")}» a «{statusLabel(event.toStatus ?? "")}»
        </>
      );
    case "nota":
      return (
        <>
          Nota interna:
          <span className="mt-1 block rounded-md bg-acero-50 p-2 whitespace-pre-wrap text-acero-900">{event.note}</span>
        </>
      );
    case "leido":
      return <>Marcó como leído</>;
    case "no_leido":
      return <>Marcó como no leído</>;
    default:
      return <>{event.kind}</>;
  }
}

export function SolicitudHistory({ events }: { events: SolicitudHistoryEvent[] }) {
  return (
    <SolicitudPanel title="Historial" id="seccion-historial">
      {events.length ? (
        <ol className="space-y-3">
          {[...events].reverse().map((event) => (
            <li key={event.id} className="border-l-2 border-acero-200 pl-3 text-sm">
              <p className="text-acero-900">
                <EventText event={event} />
              </p>
              <p className="text-xs text-acero-600">
                {formatDateTime(event.createdAt)}
                {event.actorName ? ` · ${event.actorName}` : ""}
              </p>
            </li>
          ))}
        </ol>
      ) : (
        <p className="text-sm text-acero-700">Sin movimientos todavía.</p>
      )}
    </SolicitudPanel>
  );
}
