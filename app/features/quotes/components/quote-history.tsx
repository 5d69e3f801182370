import { formatDateTime, formatMoney } from "~/lib/format";

// The events of a quote (who, when, what), newest first. Props only: the customer's page passes
// the events it may see, the staff page passes all of them.

export interface QuoteHistoryEvent {
  id: string;
  kind: string;
  revision: number | null;
  detail: string | null;
  actorName: string;
  createdAt: Date | string;
}

function describe(event: QuoteHistoryEvent): string {
  const revision = event.revision ? ` (revisión ${event.revision})` : "";
  switch (event.kind) {
    case "creada":
      return `Cotización creada${event.detail ? `. ${event.detail}` : ""}`;
    case "guardada": {
      const total = /^Total (\d+) centavos$/.exec(event.detail ?? "");
      return `Borrador guardado${revision}${total ? `; total ${formatMoney(Number(total[1]))} con IVA` : ""}`;
    }
    case "enviada":
      return `Enviada al cliente${revision}`;
    case "revision":
      return `Revisión ${event.revision ?? ""} en preparación${event.detail ? `. ${event.detail}` : ""}`;
    case "aceptada":
      return `Aceptada${revision}`;
    case "rechazada":
      return `Rechazada${revision}${event.detail ? `: ${event.detail}` : ""}`;
    case "vencida":
      return `Venció sin respuesta${revision}`;
    case "cancelada":
      return `Cancelada${revision}`;
    default:
      return `${event.kind}${revision}${event.detail ? `: ${event.detail}` : ""}`;
  }
}

export function QuoteHistory({ events, emptyText = "Sin movimientos todavía." }: { events: QuoteHistoryEvent[]; emptyText?: string }) {
  if (events.length === 0) return <p className="text-sm text-acero-700">{emptyText}</p>;
  return (
    <ol className="space-y-3">
      {[...events].reverse().map((event) => (
        <li key={event.id} className="border-l-2 border-acero-200 pl-3 text-sm">
          <p className="text-acero-900">{describe(event)}</p>
          <p className="text-xs text-acero-600">
            <time dateTime={new Date(event.createdAt).toISOString()}>{formatDateTime(event.createdAt)}</time> · {event.actorName}
          </p>
        </li>
      ))}
    </ol>
  );
}
