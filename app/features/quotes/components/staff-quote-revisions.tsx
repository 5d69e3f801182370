import type { RevisionComparison as RevisionComparisonData } from "../compare-revisions";
import { formatDateTime, formatMoney, formatWorkingDays } from "~/lib/format";
import { QuoteLinesTable, QuoteTotals } from "./quote-lines";
import { RevisionComparison } from "./revision-comparison";
import { StaffPanel, type StaffQuoteRevision } from "./staff-quote-panel";

// Every revision of a quote, newest first, on the staff page: earlier sent ones open to their lines
// (the one the customer has is shown in full above), then what changed between sent revisions.

export interface StaffQuoteRevisionsProps {
  revisions: StaffQuoteRevision[];
  comparisons: RevisionComparisonData[];
  sentRevision: number | null;
}

export function StaffQuoteRevisions({ revisions, comparisons, sentRevision }: StaffQuoteRevisionsProps) {
  return (
    <StaffPanel title="Revisiones" id="seccion-revisiones">
      <ol className="space-y-3">
        {[...revisions].reverse().map((revision) => (
          <li key={revision.id} className="rounded-md border border-acero-200 p-3 text-sm">
            <p className="flex flex-wrap items-baseline justify-between gap-2">
              <span className="font-semibold text-acero-900">Revisión {revision.revision}</span>
              <span className="text-acero-800">
                {revision.sentAt ? `Enviada el ${formatDateTime(revision.sentAt)}` : "Borrador sin enviar"} · total {formatMoney(revision.totalCentavos)} (IVA incluido)
              </span>
            </p>
            {revision.sentAt && revision.revision !== sentRevision ? (
              <details className="mt-2">
                <summary className="cursor-pointer font-medium text-forja-700">Ver las partidas de la revisión {revision.revision}</summary>
                <div className="mt-2">
                  <QuoteLinesTable lines={revision.lines} caption={`Partidas de la revisión ${revision.revision}`} />
                  <QuoteTotals subtotalCentavos={revision.subtotalCentavos} ivaCentavos={revision.ivaCentavos} totalCentavos={revision.totalCentavos} className="mt-3" />
                  <p className="mt-2 text-acero-700">Plazo de entrega: {formatWorkingDays(revision.leadTimeDays)}</p>
                </div>
              </details>
            ) : null}
          </li>
        ))}
      </ol>
      {comparisons.length ? (
        <div className="mt-5 space-y-4">
          <h3 className="font-semibold text-acero-900">Qué cambió entre revisiones enviadas</h3>
          {[...comparisons].reverse().map((comparison) => (
            <RevisionComparison key={`${comparison.previous}-${comparison.revision}`} comparison={comparison} headingLevel={4} />
          ))}
        </div>
      ) : sentRevision ? (
        <p className="mt-3 text-sm text-acero-700">La comparación aparece cuando se envía una segunda revisión.</p>
      ) : null}
    </StaffPanel>
  );
}
