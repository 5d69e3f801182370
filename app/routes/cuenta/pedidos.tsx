import type { Route } from "./+types/pedidos";
import { AppLink } from "~/components/ui/app-link";
import { PageIntro } from "~/components/ui/page-intro";
import { TableScroll } from "~/components/ui/table-scroll";
import { requireUser } from "~/features/accounts/guards.server";
import { OrderStatusPill } from "~/features/orders/components/order-status-pill";
import { listCustomerOrders } from "~/features/orders/customer-orders.server";
import { deliveryLabel, paymentLabel } from "~/features/orders/forms";
import { formatDate, formatMoney, formatNumber } from "~/lib/format";
import { requestMeta } from "~/lib/request-meta";
import { pageMeta } from "~/lib/seo";

export const meta: Route.MetaFunction = () => pageMeta({ title: "Mis pedidos", description: "Sus pedidos en Forja y su estado.", noindex: true });

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(requestMeta(request, context));
  return { orders: await listCustomerOrders(user.id) };
}

export default function MyOrdersPage({ loaderData }: Route.ComponentProps) {
  const { orders } = loaderData;
  return (
    <>
      <PageIntro eyebrow="Mi cuenta" title="Mis pedidos" lead="Sus pedidos y en qué van, incluidos los que hizo sin iniciar sesión con el correo de esta cuenta, una vez confirmado.">
        <AppLink to="/cuenta" className="btn-secondary">
          Volver a mi cuenta
        </AppLink>
      </PageIntro>
      <div className="container-page py-10">
        {orders.length === 0 ? (
          <div className="rounded-lg border border-dashed border-acero-300 p-8 text-acero-700">
            <p>Todavía no tiene pedidos con esta cuenta.</p>
            <AppLink to="/catalogo" className="btn-primary mt-4">
              Ver el catálogo
            </AppLink>
          </div>
        ) : (
          <TableScroll label="Mis pedidos" className="rounded-lg border border-acero-200">
            <table className="min-w-full divide-y divide-acero-200 text-sm">
              <caption className="sr-only">Mis pedidos, del más reciente al más antiguo</caption>
              <thead className="bg-acero-50 text-left text-acero-800">
                <tr>
                  <th scope="col" className="px-4 py-3 font-semibold">Pedido</th>
                  <th scope="col" className="px-4 py-3 font-semibold">Fecha</th>
                  <th scope="col" className="px-4 py-3 font-semibold">Estado</th>
                  <th scope="col" className="px-4 py-3 font-semibold">Entrega y pago</th>
                  <th scope="col" className="px-4 py-3 text-right font-semibold">Piezas</th>
                  <th scope="col" className="px-4 py-3 text-right font-semibold">Total con IVA</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-acero-100">
                {orders.map((order) => (
                  <tr key={order.number}>
                    <td className="px-4 py-3 whitespace-nowrap">
                      <AppLink to={`/checkout/confirmacion/${order.number}`} className="font-semibold text-forja-700 underline underline-offset-2">
                        {order.number}
                      </AppLink>
                    </td>
                    <td className="px-4 py-3 whitespace-nowrap text-acero-800">{formatDate(order.createdAt)}</td>
                    <td className="px-4 py-3">
                      <OrderStatusPill status={order.status} />
                    </td>
                    <td className="px-4 py-3 text-acero-800">
                      {deliveryLabel(order.delivery)} · {paymentLabel(order.paymentMethod)}
                    </td>
                    <td className="px-4 py-3 text-right text-acero-800">{formatNumber(order.items)}</td>
                    <td className="px-4 py-3 text-right font-medium text-acero-900 tabular-nums">{formatMoney(order.totalCentavos)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </div>
    </>
  );
}
