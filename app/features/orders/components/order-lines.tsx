import { formatMoney } from "~/lib/format";
import { priceWithIva } from "~/lib/money";
import { formatUnitQuantity } from "~/lib/units";
import { TableScroll } from "~/components/ui/table-scroll";

export interface OrderLineView {
  id: string;
  sku: string;
  name: string;
  unit: string;
  quantity: number;
  unitPriceCentavos: number;
  ivaBp: number;
  netCentavos: number;
  ivaCentavos: number;
}

/**
 * An order's lines as stored when it was placed (prices of that moment, not today's): the unit price
 * with IVA the customer saw, the IVA inside the line and the line's amount (quantity × that price).
 */
export function OrderLines({ items, caption }: { items: OrderLineView[]; caption: string }) {
  return (
    <TableScroll label={caption} className="rounded-lg border border-acero-200 bg-white">
      <table className="min-w-full divide-y divide-acero-200 text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-acero-50 text-left text-acero-800">
          <tr>
            <th scope="col" className="px-4 py-3 font-semibold">Producto</th>
            <th scope="col" className="px-4 py-3 text-right font-semibold">Cantidad</th>
            <th scope="col" className="px-4 py-3 text-right font-semibold">Precio unitario con IVA</th>
            <th scope="col" className="px-4 py-3 text-right font-semibold">IVA incluido</th>
            <th scope="col" className="px-4 py-3 text-right font-semibold">Importe con IVA</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-acero-100">
          {items.map((item) => (
            <tr key={item.id}>
              <td className="px-4 py-3">
                <span className="font-medium text-acero-900">{item.name}</span>
                <span className="block text-xs text-acero-600">SKU {item.sku}</span>
              </td>
              <td className="px-4 py-3 text-right whitespace-nowrap text-acero-800">{formatUnitQuantity(item.quantity, item.unit)}</td>
              <td className="px-4 py-3 text-right text-acero-800 tabular-nums">{formatMoney(priceWithIva(item.unitPriceCentavos, item.ivaBp))}</td>
              <td className="px-4 py-3 text-right text-acero-800 tabular-nums">
                {formatMoney(item.ivaCentavos)} <span className="text-xs text-acero-600">({item.ivaBp / 100} %)</span>
              </td>
              <td className="px-4 py-3 text-right font-medium text-acero-900 tabular-nums">{formatMoney(item.netCentavos + item.ivaCentavos)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
