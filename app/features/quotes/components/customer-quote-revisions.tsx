import type { RevisionComparison as RevisionComparisonData } from "../compare-revisions";
import { formatDate, formatMoney } from "~/lib/format";
import { RevisionComparison } from "./revision-comparison";

// The revisions the customer was sent, newest first, with what changed between them; on their
// quote page, next to the current one.

export interface CustomerQuoteRevisionsProps {
  revisions: { revision: number; sentAt: Date | string | null; totalCentavos: number }[];
  /** The revision the page shows (the one still in force). */
  current: number;
  comparisons: RevisionComparisonData[];
}

export function CustomerQuoteRevisions({ revisions, current, comparisons }: CustomerQuoteRevisionsProps) {
  return (
    <section aria-labelledby="revisiones" className="rounded-lg border border-acero-200 p-6">
      <h2 id="revisiones" className="text-lg font-semibold text-acero-900">
        Revisiones
      </h2>
      <ol className="mt-3 space-y-1 text-sm">
        {[...revisions].reverse().map((item) => (
          <li key={item.revision} className="flex flex-wrap justify-between gap-x-3">
            <span className={item.revision === current ? "font-semibold text-acero-900" : "text-acero-800"}>
              Revisión {item.revision}
              {item.revision === current ? " (vigente)" : ""}
              {item.sentAt ? ` · ${formatDate(item.sentAt)}` : ""}
            </span>
            <span className="text-acero-900">{formatMoney(item.totalCentavos)}</span>
          </li>
        ))}
      </ol>
      {comparisons.length ? (
        <div className="mt-4 space-y-4">
          {[...comparisons].reverse().map((comparison) => (
            <RevisionComparison key={comparison.revision} comparison={comparison} headingLevel={3} />
          ))}
        </div>
      ) : (
        <p className="mt-3 text-sm text-acero-700">Esta es la única revisión; si la actualizamos, aquí verá qué cambió.</p>
      )}
    </section>
  );
}
