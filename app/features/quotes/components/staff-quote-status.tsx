import type { ReactNode } from "react";
import { Form, useNavigation } from "react-router";
import { formatDate } from "~/lib/format";
import type { QuoteStatus } from "../states";
import { QuoteStatusPill, quoteStatusLabel } from "./quote-status-pill";
import { StaffPanel } from "./staff-quote-panel";

// The status panel of the staff quote page: the status, its validity in words, and the commands
// the lifecycle table allows now (new revision, cancel), or why there are none.

const DAY_MS = 24 * 60 * 60 * 1000;

/** The validity of a quote in words for staff (countdown while sent), or null before it is sent. */
export function staffQuoteValidity(
  quote: { status: QuoteStatus; validUntil: Date | string | null; cancelledAt: Date | string | null },
  now: Date | string,
): ReactNode {
  if (!quote.validUntil) return null;
  const until = new Date(quote.validUntil);
  switch (quote.status) {
    case "vencida":
      return <>Vencida el {formatDate(until)}</>;
    case "enviada": {
      const left = Math.ceil((until.getTime() - new Date(now).getTime()) / DAY_MS);
      return (
        <>
          Vence el {formatDate(until)} ({left <= 1 ? "menos de un día" : `en ${left} días`})
        </>
      );
    }
    case "cancelada":
      return <>Sin efecto: se canceló{quote.cancelledAt ? ` el ${formatDate(quote.cancelledAt)}` : ""}</>;
    default:
      return <>Válida hasta el {formatDate(until)}</>;
  }
}

export interface StaffQuoteStatusProps {
  quote: { number: string; status: QuoteStatus };
  /** The newest revision, the one a new revision copies. */
  currentRevision: number;
  validity: ReactNode;
  canRevise: boolean;
  canCancel: boolean;
  /** The page's bare address. */
  action: string;
}

export function StaffQuoteStatus({ quote, currentRevision, validity, canRevise, canCancel, action }: StaffQuoteStatusProps) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  return (
    <StaffPanel title="Estado" id="seccion-estado">
      <p className="flex flex-wrap items-center gap-2 text-acero-800">
        Estado actual: <QuoteStatusPill status={quote.status} />
      </p>
      {validity ? <p className="mt-2 text-sm text-acero-800">{validity}</p> : null}
      <div className="mt-4 space-y-3">
        {canRevise ? (
          <Form method="post" action={action}>
            <button type="submit" name="intent" value="revisar" className="btn-dark w-full py-2" disabled={busy}>
              Crear revisión
            </button>
            <p className="mt-1 text-xs text-acero-600">Copia la revisión {currentRevision} en un borrador nuevo para cambiar precios, partidas o plazo.</p>
          </Form>
        ) : null}
        {canCancel ? (
          <details className="rounded-md border border-red-200 p-3">
            <summary className="cursor-pointer text-sm font-semibold text-red-800">Cancelar cotización…</summary>
            <Form method="post" action={action} className="mt-3 space-y-2">
              <p className="text-sm text-acero-800">
                {quote.status === "enviada"
                  ? "El cliente ya no podrá aceptarla. Esta acción no se deshace."
                  : quote.status === "vencida"
                    ? "La cotización vencida queda archivada como cancelada. Esta acción no se deshace."
                    : "El borrador queda archivado como cancelado. Esta acción no se deshace."}
              </p>
              <button type="submit" name="intent" value="cancelar" className="btn w-full bg-red-700 py-2 text-white hover:bg-red-800" disabled={busy}>
                Sí, cancelar {quote.number}
              </button>
            </Form>
          </details>
        ) : null}
        {!canRevise && !canCancel ? (
          <p className="text-sm text-acero-700">«{quoteStatusLabel(quote.status)}» es un estado final: la cotización ya no cambia.</p>
        ) : null}
      </div>
    </StaffPanel>
  );
}
