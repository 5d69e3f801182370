import type { RevisionComparison as RevisionComparisonData } from "../compare-revisions";
import type { QuoteLine } from "../types";
import { formatMoney, formatWorkingDays } from "~/lib/format";
import { formatDiscount, formatLineQuantity } from "../totals";

// What changed between two sent revisions of a quote: lines added, removed or changed (old → new
// quantity, price, discount), the lead time and the total. Props only, so the staff detail and the
// customer's page show the same comparison (the shape compareRevisions returns).

const KIND_LABEL = { agregada: "Partida nueva", eliminada: "Partida eliminada", cambiada: "Partida modificada" } as const;
const KIND_STYLE = {
  agregada: "border-green-200 bg-green-50 text-green-900",
  eliminada: "border-red-200 bg-red-50 text-red-800",
  cambiada: "border-amber-200 bg-amber-50 text-amber-900",
} as const;
const KIND_MARK = { agregada: "+", eliminada: "−", cambiada: "~" } as const;


function lineSummary(line: QuoteLine): string {
  const discount = line.discountBp ? `, ${formatDiscount(line.discountBp)} de descuento` : "";
  return `${formatLineQuantity(line.quantityMilli, line.unit)} × ${formatMoney(line.unitPriceCentavos)}${discount} = ${formatMoney(line.netCentavos)} antes de IVA`;
}

function Change({ label, before, after }: { label: string; before: string; after: string }) {
  return (
    <li>
      {label}: <del className="text-acero-700">{before}</del>
      <span aria-hidden="true"> → </span>
      <span className="sr-only"> cambió a </span>
      <ins className="font-semibold no-underline">{after}</ins>
    </li>
  );
}

export function RevisionComparison({ comparison, headingLevel = 3 }: { comparison: RevisionComparisonData; headingLevel?: 2 | 3 | 4 }) {
  const Heading = `h${headingLevel}` as "h2" | "h3" | "h4";
  const { total } = comparison;
  const difference = total.after - total.before;
  const headingId = `comparacion-${comparison.previous}-${comparison.revision}`;
  return (
    <section aria-labelledby={headingId} className="rounded-md border border-acero-200 p-4">
      <Heading id={headingId} className="font-semibold text-acero-900">
        Cambios de la revisión {comparison.previous} a la {comparison.revision}
      </Heading>
      {comparison.lines.length === 0 && !comparison.leadTime ? (
        <p className="mt-2 text-sm text-acero-700">Las partidas y el plazo de entrega no cambiaron.</p>
      ) : null}
      {comparison.lines.length ? (
        <ul className="mt-3 space-y-3">
          {comparison.lines.map((change, index) => (
            <li key={`${change.kind}-${index}`} className="text-sm">
              <p className="flex flex-wrap items-center gap-2">
                <span className={`inline-flex items-center gap-1 rounded-full border px-2 py-0.5 text-xs font-semibold ${KIND_STYLE[change.kind]}`}>
                  <span aria-hidden="true">{KIND_MARK[change.kind]}</span>
                  {KIND_LABEL[change.kind]}
                </span>
                <span className="font-medium text-acero-900">{change.description}</span>
              </p>
              {change.kind === "agregada" && change.after ? <p className="mt-1 text-acero-800">{lineSummary(change.after)}</p> : null}
              {change.kind === "eliminada" && change.before ? (
                <p className="mt-1 text-acero-700">
                  Antes: <del>{lineSummary(change.before)}</del>
                </p>
              ) : null}
              {change.kind === "cambiada" && change.before && change.after ? (
                <ul className="mt-1 list-inside list-disc text-acero-800">
                  {change.before.quantityMilli !== change.after.quantityMilli || change.before.unit !== change.after.unit ? (
                    <Change
                      label="Cantidad"
                      before={formatLineQuantity(change.before.quantityMilli, change.before.unit)}
                      after={formatLineQuantity(change.after.quantityMilli, change.after.unit)}
                    />
                  ) : null}
                  {change.before.unitPriceCentavos !== change.after.unitPriceCentavos ? (
                    <Change
                      label="Precio unitario (antes de IVA)"
                      before={formatMoney(change.before.unitPriceCentavos)}
                      after={formatMoney(change.after.unitPriceCentavos)}
                    />
                  ) : null}
                  {change.before.discountBp !== change.after.discountBp ? (
                    <Change label="Descuento" before={formatDiscount(change.before.discountBp)} after={formatDiscount(change.after.discountBp)} />
                  ) : null}
                  <Change label="Importe (antes de IVA)" before={formatMoney(change.before.netCentavos)} after={formatMoney(change.after.netCentavos)} />
                </ul>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      <ul className="mt-3 space-y-1 border-t border-acero-100 pt-3 text-sm text-acero-800">
        {comparison.leadTime ? <Change label="Plazo de entrega" before={formatWorkingDays(comparison.leadTime.before)} after={formatWorkingDays(comparison.leadTime.after)} /> : null}
        {difference !== 0 ? (
          <Change label="Total (IVA incluido)" before={formatMoney(total.before)} after={formatMoney(total.after)} />
        ) : (
          <li>Total (IVA incluido): {formatMoney(total.after)}, sin cambio.</li>
        )}
        {difference !== 0 ? (
          <li className="font-semibold">
            Diferencia: {difference > 0 ? "+" : "−"}
            {formatMoney(Math.abs(difference))} ({difference > 0 ? "sube" : "baja"})
          </li>
        ) : null}
      </ul>
    </section>
  );
}
