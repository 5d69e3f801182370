import type { ReactNode } from "react";
import { formatDateTime, formatWorkingDays } from "~/lib/format";
import { QuoteLinesTable, QuoteTotals } from "./quote-lines";
import { StaffField, StaffPanel, type StaffQuoteRevision } from "./staff-quote-panel";

// What the customer has and did, on the staff quote page: the revision sent (with the internal
// notes, staff only), and the record of their acceptance or rejection when there is one.

export interface StaffQuoteRecordProps {
  quote: {
    acceptedName: string | null;
    acceptedAt: Date | string | null;
    acceptedIp: string | null;
    acceptedUserAgent: string | null;
    rejectedReason: string | null;
    rejectedNote: string | null;
    rejectedAt: Date | string | null;
  };
  /** The revision the customer sees; undefined before the first send. */
  sent: StaffQuoteRevision | undefined;
  /** The validity in words (see staffQuoteValidity). */
  validity: ReactNode;
}

export function StaffQuoteRecord({ quote, sent, validity }: StaffQuoteRecordProps) {
  return (
    <>
      {sent ? (
        <StaffPanel title={`Revisión enviada (${sent.revision})`} id="seccion-enviada">
          <dl className="mb-4 grid gap-4 wrap-anywhere sm:grid-cols-3">
            <StaffField label="Enviada">{sent.sentAt ? formatDateTime(sent.sentAt) : null}</StaffField>
            <StaffField label="Vigencia">{validity}</StaffField>
            <StaffField label="Plazo de entrega">{formatWorkingDays(sent.leadTimeDays)}</StaffField>
          </dl>
          <QuoteLinesTable lines={sent.lines} caption={`Partidas de la revisión ${sent.revision}`} />
          <QuoteTotals subtotalCentavos={sent.subtotalCentavos} ivaCentavos={sent.ivaCentavos} totalCentavos={sent.totalCentavos} className="mt-4" />
          {sent.terms ? (
            <details className="mt-4 text-sm">
              <summary className="cursor-pointer font-semibold text-acero-800">Términos y condiciones</summary>
              <p className="mt-2 whitespace-pre-wrap text-acero-900">{sent.terms}</p>
            </details>
          ) : null}
          {sent.notes ? (
            <div className="mt-4 rounded-md bg-acero-50 p-3 text-sm">
              <p className="font-semibold text-acero-800">Notas internas</p>
              <p className="mt-1 whitespace-pre-wrap text-acero-900">{sent.notes}</p>
            </div>
          ) : null}
        </StaffPanel>
      ) : null}

      {quote.acceptedAt ? (
        <StaffPanel title="Aceptación del cliente" id="seccion-aceptacion">
          <dl className="grid gap-4 wrap-anywhere sm:grid-cols-2">
            <StaffField label="Firmó como">
              <span className="font-semibold">{quote.acceptedName}</span>
            </StaffField>
            <StaffField label="Fecha y hora">{formatDateTime(quote.acceptedAt)} (hora de la Ciudad de México)</StaffField>
            <StaffField label="Dirección IP">{quote.acceptedIp}</StaffField>
            <StaffField label="Navegador" wide>
              {quote.acceptedUserAgent ? <span className="text-sm break-all">{quote.acceptedUserAgent}</span> : null}
            </StaffField>
          </dl>
        </StaffPanel>
      ) : null}

      {quote.rejectedAt ? (
        <StaffPanel title="Rechazo del cliente" id="seccion-rechazo">
          <dl className="grid gap-4 wrap-anywhere sm:grid-cols-2">
            <StaffField label="Motivo">{quote.rejectedReason}</StaffField>
            <StaffField label="Fecha y hora">{formatDateTime(quote.rejectedAt)} (hora de la Ciudad de México)</StaffField>
            <StaffField label="Comentario del cliente" wide>
              {quote.rejectedNote ? <span className="whitespace-pre-wrap">{quote.rejectedNote}</span> : null}
            </StaffField>
          </dl>
        </StaffPanel>
      ) : null}
    </>
  );
}
