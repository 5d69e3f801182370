import type { ReactNode } from "react";
import type { QuoteLine } from "../types";
import { QuoteLinesTable, QuoteTotals } from "./quote-lines";
import { formatWorkingDays } from "~/lib/format";

// One revision of a quote laid out as the customer reads it: who it is for, the lines, the totals,
// lead time, validity and terms. The staff preview renders a draft with it; pages that show a sent
// quote may too.

export interface QuoteDocumentProps {
  number: string;
  revision: number;
  customer: { name: string; company: string | null; email: string };
  lines: QuoteLine[];
  subtotalCentavos: number;
  ivaCentavos: number;
  totalCentavos: number;
  leadTimeDays: number;
  /** e.g. "Válida hasta el 3 de agosto de 2026" or "30 días a partir del envío". */
  validity: ReactNode;
  terms: string;
  headingLevel?: 2 | 3;
}

export function QuoteDocument(props: QuoteDocumentProps) {
  const Heading = `h${props.headingLevel ?? 2}` as "h2" | "h3";
  const SubHeading = `h${(props.headingLevel ?? 2) + 1}` as "h3" | "h4";
  const id = `documento-${props.number}-${props.revision}`;
  return (
    <article aria-labelledby={id} className="rounded-lg border border-acero-200 bg-white p-6">
      <header className="flex flex-wrap items-start justify-between gap-4 border-b border-acero-200 pb-4">
        <div>
          <p className="text-sm font-semibold tracking-wide text-forja-700 uppercase">Cotización</p>
          <Heading id={id} className="text-xl font-bold text-acero-900">
            {props.number} <span className="text-base font-normal text-acero-700">· revisión {props.revision}</span>
          </Heading>
        </div>
        <div className="text-sm wrap-anywhere text-acero-800 sm:text-right">
          <p className="font-semibold text-acero-900">{props.customer.name || "Cliente sin nombre"}</p>
          {props.customer.company ? <p>{props.customer.company}</p> : null}
          <p>{props.customer.email || "Sin correo"}</p>
        </div>
      </header>
      <div className="mt-4">
        <QuoteLinesTable lines={props.lines} caption={`Partidas de la cotización ${props.number}`} />
      </div>
      <QuoteTotals subtotalCentavos={props.subtotalCentavos} ivaCentavos={props.ivaCentavos} totalCentavos={props.totalCentavos} className="mt-4" />
      <dl className="mt-6 grid gap-4 text-sm sm:grid-cols-2">
        <div>
          <dt className="font-semibold text-acero-700">Plazo de entrega</dt>
          <dd className="text-acero-900">
            {formatWorkingDays(props.leadTimeDays)}
          </dd>
        </div>
        <div>
          <dt className="font-semibold text-acero-700">Vigencia</dt>
          <dd className="text-acero-900">{props.validity}</dd>
        </div>
      </dl>
      {props.terms ? (
        <section className="mt-6">
          <SubHeading className="text-sm font-semibold text-acero-700">Términos y condiciones</SubHeading>
          <p className="mt-1 text-sm whitespace-pre-wrap text-acero-900">{props.terms}</p>
        </section>
      ) : null}
    </article>
  );
}
