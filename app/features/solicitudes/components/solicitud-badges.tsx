import { statusLabel, type SolicitudStatus } from "../states";

// Small marks shared by the staff pages: the status pill and the unread dot (with words for
// screen readers, since a colour or a dot alone says nothing to them).

const STATUS_STYLES: Record<SolicitudStatus, string> = {
  nuevo: "bg-forja-100 text-forja-700",
  en_revision: "bg-amber-100 text-amber-900",
  cotizado: "bg-blue-100 text-blue-900",
  cerrado: "bg-green-100 text-green-900",
  descartado: "bg-acero-100 text-acero-700",
};

export function StatusPill({ status }: { status: SolicitudStatus }) {
  return (
    <span className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ${STATUS_STYLES[status] ?? STATUS_STYLES.descartado}`}>
      {statusLabel(status)}
    </span>
  );
}

export function UnreadMarker({ unread }: { unread: boolean }) {
  if (!unread) return <span className="sr-only">Leído</span>;
  return (
    <span className="inline-flex items-center" title="Sin leer">
      <span aria-hidden="true" className="inline-block h-2.5 w-2.5 rounded-full bg-forja-600" />
      <span className="sr-only">Sin leer</span>
    </span>
  );
}
