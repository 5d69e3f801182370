import { Form } from "react-router";
import { AppLink } from "~/components/ui/app-link";
import { formatUnitQuantity } from "~/lib/units";

/**
 * Adds the product to the server-side cart: POST /carrito with intent=agregar, productId and
 * quantity (the cart's action, in features/orders, checks stock and minimum again).
 */
export function AddToCartForm({ product }: { product: { id: string; name: string; unit: string; stock: number; minOrder: number } }) {
  const { stock, minOrder, unit } = product;
  if (stock <= 0) {
    return (
      <div className="rounded-lg border border-acero-200 bg-acero-50 p-4 text-sm text-acero-800">
        <p className="font-semibold text-acero-900">Sin existencia por ahora: se fabrica sobre pedido.</p>
        <p className="mt-1">Le confirmamos plazo y precio por volumen en una cotización formal.</p>
        <AppLink to="/cotiza" className="btn-primary mt-3">
          Solicitar cotización
        </AppLink>
      </div>
    );
  }
  if (stock < minOrder) {
    return (
      <div className="rounded-lg border border-acero-200 bg-acero-50 p-4 text-sm text-acero-800">
        <p className="font-semibold text-acero-900">
          Quedan {formatUnitQuantity(stock, unit)}, menos que el pedido mínimo de {formatUnitQuantity(minOrder, unit)}.
        </p>
        <AppLink to="/cotiza" className="btn-primary mt-3">
          Solicitar cotización
        </AppLink>
      </div>
    );
  }
  return (
    <Form method="post" action="/carrito" className="flex flex-wrap items-end gap-3" aria-label={`Agregar ${product.name} al carrito`}>
      <input type="hidden" name="intent" value="agregar" />
      <input type="hidden" name="productId" value={product.id} />
      <div>
        <label htmlFor="cantidad" className="block text-sm font-semibold text-acero-900">
          Cantidad
        </label>
        <input
          id="cantidad"
          name="quantity"
          type="number"
          inputMode="numeric"
          required
          min={minOrder}
          max={stock}
          step={1}
          defaultValue={minOrder}
          aria-describedby="cantidad-ayuda"
          className="mt-1 block w-28 rounded-md border border-acero-300 bg-white px-3 py-2 text-base text-acero-900 shadow-sm focus:border-forja-600"
        />
      </div>
      <button type="submit" className="btn-primary">
        Agregar al carrito
      </button>
      <p id="cantidad-ayuda" className="w-full text-xs text-acero-600">
        {minOrder > 1 ? `Pedido mínimo: ${formatUnitQuantity(minOrder, unit)}. ` : ""}
        Máximo disponible: {formatUnitQuantity(stock, unit)}.
      </p>
    </Form>
  );
}
