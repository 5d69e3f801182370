import { AppLink } from "~/components/ui/app-link";
import { formatDateTime } from "~/lib/format";
import type { QuoteStatus } from "../states";
import { QuoteStatusPill } from "./quote-status-pill";

// The top of the staff quote page: back link, number and status, the customer, and links to the
// solicitud it came from and to the PDF of the revision the customer has.

const linkClass = "font-semibold text-forja-700 underline underline-offset-2";

export interface StaffQuoteHeaderProps {
  quote: {
    id: string;
    number: string;
    status: QuoteStatus;
    customerName: string;
    customerCompany: string | null;
    customerEmail: string;
    createdAt: Date | string;
    solicitudId: string | null;
    sentRevision: number | null;
  };
  /** The newest revision, named while a new one is being prepared after a send. */
  currentRevision: number;
  editable: boolean;
}

export function StaffQuoteHeader({ quote, currentRevision, editable }: StaffQuoteHeaderProps) {
  return (
    <>
      <p className="text-sm">
        <AppLink to="/admin/cotizaciones" className={linkClass}>
          ← Cotizaciones
        </AppLink>
      </p>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-bold text-acero-900">{quote.number}</h1>
        <QuoteStatusPill status={quote.status} />
        {editable && quote.sentRevision ? <span className="text-sm text-acero-700">· preparando la revisión {currentRevision}</span> : null}
      </div>
      <p className="mt-1 text-acero-700">
        {quote.customerName ? <strong className="text-acero-900">{quote.customerName}</strong> : "Cliente sin capturar"}
        {quote.customerCompany ? ` (${quote.customerCompany})` : ""}
        {quote.customerEmail ? ` · ${quote.customerEmail}` : ""} · creada el {formatDateTime(quote.createdAt)}
      </p>
      <p className="mt-2 flex flex-wrap gap-x-5 gap-y-1 text-sm">
        {quote.solicitudId ? (
          <AppLink to={`/admin/formularios/${quote.solicitudId}`} className={linkClass}>
            Ver la solicitud de origen
          </AppLink>
        ) : null}
        {quote.sentRevision ? (
          <a href={`/quotes/${quote.id}/pdf`} className={linkClass}>
            Abrir el PDF (revisión {quote.sentRevision})
          </a>
        ) : null}
      </p>
    </>
  );
}
