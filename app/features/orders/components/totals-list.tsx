import { formatMoney } from "~/lib/format";

/** Subtotal, IVA and total as the server computed them (IVA per line, rounded per line). */
export function TotalsList({ totals, className = "" }: { totals: { subtotalCentavos: number; ivaCentavos: number; totalCentavos: number }; className?: string }) {
  return (
    <dl className={`space-y-1 text-sm ${className}`}>
      <div className="flex justify-between gap-4">
        <dt className="text-acero-700">Subtotal</dt>
        <dd className="text-acero-900 tabular-nums">{formatMoney(totals.subtotalCentavos)}</dd>
      </div>
      <div className="flex justify-between gap-4">
        <dt className="text-acero-700">IVA</dt>
        <dd className="text-acero-900 tabular-nums">{formatMoney(totals.ivaCentavos)}</dd>
      </div>
      <div className="flex justify-between gap-4 border-t border-acero-200 pt-2 text-base font-bold">
        <dt className="text-acero-900">Total</dt>
        <dd className="text-acero-900 tabular-nums" data-testid="order-total">
          {formatMoney(totals.totalCentavos)}
        </dd>
      </div>
    </dl>
  );
}
