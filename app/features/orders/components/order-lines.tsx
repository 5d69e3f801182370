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
 *
 * The five columns need about 540 px. In a narrower box (a phone, measured on the box itself with a
 * container query, so the staff panel's sidebar counts too) the table keeps two columns: the product,
 * with «3 piezas × $1,290.00» and the IVA stacked under its name, and the line's amount, so nothing
 * hides in a box that scrolls sideways. Screen readers get the same cells as the eye.
 */
export function OrderLines({ items, caption }: { items: OrderLineView[]; caption: string }) {
  return (
    <TableScroll label={caption} className="@container rounded-lg border border-acero-200 bg-white">
      <table className="min-w-full divide-y divide-acero-200 text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-acero-50 text-left text-acero-800">
          <tr>
            <th scope="col" className="px-4 py-3 font-semibold">Producto</th>
            <th scope="col" className="hidden px-4 py-3 text-right font-semibold @2xl:table-cell">Cantidad</th>
            <th scope="col" className="hidden px-4 py-3 text-right font-semibold @2xl:table-cell">Precio unitario con IVA</th>
            <th scope="col" className="hidden px-4 py-3 text-right font-semibold @2xl:table-cell">IVA incluido</th>
            <th scope="col" className="px-4 py-3 text-right font-semibold">Importe con IVA</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-acero-100">
          {items.map((item) => {
            const quantity = formatUnitQuantity(item.quantity, item.unit);
            const unitPrice = formatMoney(priceWithIva(item.unitPriceCentavos, item.ivaBp));
            const ivaRate = `${item.ivaBp / 100} %`;
            return (
              <tr key={item.id} data-testid="order-line">
                <td className="px-4 py-3">
                  <span className="font-medium text-acero-900">{item.name}</span>
                  <span className="block text-xs text-acero-600">SKU {item.sku}</span>
                  {/* The three middle columns, stacked, while the box is too narrow to show them. */}
                  <span className="mt-1 block text-acero-800 tabular-nums @2xl:hidden" data-testid="order-line-detail">
                    {quantity} × {unitPrice}
                  </span>
                  <span className="block text-xs text-acero-600 tabular-nums @2xl:hidden">
                    IVA incluido: {formatMoney(item.ivaCentavos)} ({ivaRate})
                  </span>
                </td>
                <td className="hidden px-4 py-3 text-right whitespace-nowrap text-acero-800 @2xl:table-cell">{quantity}</td>
                <td className="hidden px-4 py-3 text-right text-acero-800 tabular-nums @2xl:table-cell">{unitPrice}</td>
                <td className="hidden px-4 py-3 text-right text-acero-800 tabular-nums @2xl:table-cell">
                  {formatMoney(item.ivaCentavos)} <span className="text-xs text-acero-600">({ivaRate})</span>
                </td>
                <td className="px-4 py-3 text-right font-medium whitespace-nowrap text-acero-900 tabular-nums" data-testid="order-line-total">
                  {formatMoney(item.netCentavos + item.ivaCentavos)}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableScroll>
  );
}
