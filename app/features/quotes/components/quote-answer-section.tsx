import type { SubmissionResult } from "@conform-to/react";
import { AppLink } from "~/components/ui/app-link";
import { formatDate, formatDateTime } from "~/lib/format";
import type { QuoteStatus } from "../states";
import { AcceptQuoteForm } from "./accept-form";
import { RejectQuoteForm } from "./reject-form";

// The customer's answer on their quote page: accept (name as signature) or reject while the quote
// is open, and afterwards the record of what happened to it.

const linkClass = "font-semibold text-forja-700 underline underline-offset-2";

export interface AnsweredQuote {
  status: QuoteStatus;
  acceptedName: string | null;
  acceptedAt: Date | string | null;
  rejectedReason: string | null;
  rejectedNote: string | null;
  rejectedAt: Date | string | null;
  validUntil: Date | string | null;
  cancelledAt: Date | string | null;
}

export interface QuoteAnswerSectionProps {
  quote: AnsweredQuote & { number: string };
  /** The revision being answered. */
  revision: number;
  /** The total as shown, e.g. "$12,345.60". */
  total: string;
  canAccept: boolean;
  canReject: boolean;
  acceptResult?: SubmissionResult<string[]>;
  rejectResult?: SubmissionResult<string[]>;
  /** The rejection form stays open after it was posted, so its errors are in view. */
  rejectOpen: boolean;
}

export function QuoteAnswerSection({ quote, revision, total, canAccept, canReject, acceptResult, rejectResult, rejectOpen }: QuoteAnswerSectionProps) {
  const open = canAccept || canReject;
  return (
    <section aria-labelledby="respuesta" id="responder" className="rounded-lg border border-acero-200 p-6">
      <h2 id="respuesta" className="text-lg font-semibold text-acero-900">
        {open ? "Su respuesta" : "Estado de la cotización"}
      </h2>
      {open ? (
        <>
          <p className="mt-2 text-acero-700">
            Si está de acuerdo, acéptela aquí con su nombre como firma. Si algo no le funciona, escríbanos abajo antes de rechazarla: podemos
            preparar una revisión.
          </p>
          {canAccept ? (
            <div className="mt-5">
              <AcceptQuoteForm number={quote.number} revision={revision} total={total} lastResult={acceptResult} />
            </div>
          ) : null}
          {canReject ? (
            <details className="mt-8 border-t border-acero-200 pt-5" open={rejectOpen}>
              <summary className="cursor-pointer font-semibold text-acero-900">No me conviene: rechazar la cotización</summary>
              <div className="mt-4">
                <RejectQuoteForm revision={revision} lastResult={rejectResult} />
              </div>
            </details>
          ) : null}
        </>
      ) : (
        <StatusRecord quote={quote} />
      )}
    </section>
  );
}

/** What happened to a quote that can no longer be answered. */
function StatusRecord({ quote }: { quote: AnsweredQuote }) {
  if (quote.status === "aceptada") {
    return (
      <div className="mt-3 rounded-md border border-green-200 bg-green-50 p-4 text-green-900">
        <p className="font-semibold">
          Aceptada por {quote.acceptedName}
          {quote.acceptedAt ? ` el ${formatDateTime(quote.acceptedAt)}` : ""} (hora de la Ciudad de México).
        </p>
        <p className="mt-1 text-sm">Nuestro equipo le escribirá para coordinar la liberación de archivos y la fecha de entrega. El PDF incluye el registro de su aceptación y los datos para el pago.</p>
      </div>
    );
  }
  if (quote.status === "rechazada") {
    return (
      <div className="mt-3 text-acero-800">
        <p>
          Usted rechazó esta cotización{quote.rejectedAt ? ` el ${formatDateTime(quote.rejectedAt)} (hora de la Ciudad de México)` : ""}.
        </p>
        {quote.rejectedReason ? <p className="mt-1">Motivo: {quote.rejectedReason}.</p> : null}
        {quote.rejectedNote ? <p className="mt-2 whitespace-pre-wrap text-acero-700">«{quote.rejectedNote}»</p> : null}
        <p className="mt-2 text-sm">Si cambian sus necesidades, escríbanos y le enviamos una revisión.</p>
      </div>
    );
  }
  if (quote.status === "vencida") {
    return (
      <p className="mt-3 text-acero-800">
        Esta cotización venció{quote.validUntil ? ` el ${formatDate(quote.validUntil)}` : ""} y ya no se puede aceptar. Escríbanos abajo y le
        enviamos una revisión con precios y plazos vigentes.
      </p>
    );
  }
  if (quote.status === "cancelada") {
    return (
      <p className="mt-3 text-acero-800">
        Forja canceló esta cotización{quote.cancelledAt ? ` el ${formatDate(quote.cancelledAt)}` : ""}. Si tiene dudas, escríbanos abajo o{" "}
        <AppLink to="/cotiza" className={linkClass}>
          solicite una cotización nueva
        </AppLink>
        .
      </p>
    );
  }
  return null;
}
