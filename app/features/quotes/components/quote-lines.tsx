import type { QuoteLine } from "../types";
import { formatMoney } from "~/lib/format";
import { formatDiscount, formatLineQuantity } from "../totals";
import { TableScroll } from "~/components/ui/table-scroll";

// A quote's lines and totals as the customer reads them (also the staff preview and detail).
// Unit prices and amounts are before IVA; the total says it includes IVA.

export function QuoteLinesTable({ lines, caption }: { lines: QuoteLine[]; caption: string }) {
  if (lines.length === 0) return <p className="text-acero-700">Sin partidas.</p>;
  const anyDiscount = lines.some((line) => line.discountBp > 0);
  return (
    <TableScroll label={caption} className="rounded-md border border-acero-200">
      <table className="min-w-full divide-y divide-acero-200 text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-acero-50 text-left text-acero-800">
          <tr>
            <th scope="col" className="px-3 py-2 font-semibold">
              #
            </th>
            <th scope="col" className="px-3 py-2 font-semibold">
              Descripción
            </th>
            <th scope="col" className="px-3 py-2 text-right font-semibold">
              Cantidad
            </th>
            <th scope="col" className="px-3 py-2 text-right font-semibold">
              Precio unitario <span className="font-normal">(antes de IVA)</span>
            </th>
            {anyDiscount ? (
              <th scope="col" className="px-3 py-2 text-right font-semibold">
                Descuento
              </th>
            ) : null}
            <th scope="col" className="px-3 py-2 text-right font-semibold">
              Importe <span className="font-normal">(antes de IVA)</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-acero-100">
          {lines.map((line, index) => (
            <tr key={`${index}-${line.description}`}>
              <td className="px-3 py-2 align-top text-acero-700">{index + 1}</td>
              <td className="px-3 py-2 align-top whitespace-pre-wrap text-acero-900">{line.description}</td>
              <td className="px-3 py-2 text-right align-top whitespace-nowrap text-acero-900">
                {formatLineQuantity(line.quantityMilli, line.unit)}
              </td>
              <td className="px-3 py-2 text-right align-top whitespace-nowrap text-acero-900">{formatMoney(line.unitPriceCentavos)}</td>
              {anyDiscount ? (
                <td className="px-3 py-2 text-right align-top whitespace-nowrap text-acero-900">{line.discountBp ? formatDiscount(line.discountBp) : "—"}</td>
              ) : null}
              <td className="px-3 py-2 text-right align-top font-medium whitespace-nowrap text-acero-900">{formatMoney(line.netCentavos)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

export function QuoteTotals({
  subtotalCentavos,
  ivaCentavos,
  totalCentavos,
  className = "",
}: {
  subtotalCentavos: number;
  ivaCentavos: number;
  totalCentavos: number;
  className?: string;
}) {
  return (
    <dl className={`ml-auto w-full max-w-sm space-y-1 text-sm ${className}`}>
      <div className="flex justify-between gap-4">
        <dt className="text-acero-700">Subtotal</dt>
        <dd className="text-acero-900">{formatMoney(subtotalCentavos)}</dd>
      </div>
      <div className="flex justify-between gap-4">
        <dt className="text-acero-700">IVA 16 %</dt>
        <dd className="text-acero-900">{formatMoney(ivaCentavos)}</dd>
      </div>
      <div className="flex justify-between gap-4 border-t border-acero-200 pt-1 text-base font-bold">
        <dt className="text-acero-900">
          Total <span className="text-sm font-normal text-acero-700">(IVA incluido)</span>
        </dt>
        <dd className="text-acero-900">{formatMoney(totalCentavos)} MXN</dd>
      </div>
    </dl>
  );
}
