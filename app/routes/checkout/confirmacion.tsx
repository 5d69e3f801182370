import type { Route } from "./+types/confirmacion";
import { AppLink } from "~/components/ui/app-link";
import { PageIntro } from "~/components/ui/page-intro";
import { OrderLines } from "~/features/orders/components/order-lines";
import { OrderStatusPill } from "~/features/orders/components/order-status-pill";
import { PaymentInstructions } from "~/features/orders/components/payment-instructions";
import { TotalsList } from "~/features/orders/components/totals-list";
import { getOrderConfirmation } from "~/features/orders/customer-orders.server";
import { orderViewer } from "~/features/orders/http.server";
import { regimenLabel, usoCfdiLabel } from "~/features/orders/sat-catalogs";
import { deliveryLabel, formatOrderAddress } from "~/features/orders/forms";
import { SHIPPING_NOT_INCLUDED } from "~/features/orders/shipping";
import { notFound } from "~/lib/errors";
import { endSentence, formatDateTime } from "~/lib/format";
import { requestMeta } from "~/lib/request-meta";
import { pageMeta } from "~/lib/seo";
import { useSiteFacts } from "../site/site-facts";

export const meta: Route.MetaFunction = ({ params }) => pageMeta({ title: `Pedido ${params.number}`, description: "Su pedido y cómo pagarlo.", noindex: true });

// Only the order's owner: the account that placed it, or (for a guest) the browser that placed it.
// Anyone else gets the same 404 as for a number that does not exist.
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const confirmation = await getOrderConfirmation(params.number, await orderViewer(requestMeta(request, context)));
  if (!confirmation) notFound(request);
  return confirmation;
}

export default function OrderConfirmationPage({ loaderData }: Route.ComponentProps) {
  const { order, items, payment } = loaderData;
  const facts = useSiteFacts();
  const fresh = order.status === "pendiente_pago";
  return (
    <>
      <PageIntro
        eyebrow={fresh ? "Pedido recibido" : "Pedido"}
        title={fresh ? `Gracias, recibimos su pedido ${order.number}` : `Pedido ${order.number}`}
        lead={
          <>
            {endSentence(`Hecho el ${formatDateTime(order.createdAt)}`)} Estado: <OrderStatusPill status={order.status} />
            {fresh ? <span className="block text-base wrap-anywhere">Le enviamos la confirmación a {order.email}.</span> : null}
          </>
        }
      />
      <div className="container-page grid grid-cols-1 gap-8 py-10 lg:grid-cols-3">
        <div className="space-y-8 lg:col-span-2">
          {order.status === "pendiente_pago" ? (
            <PaymentInstructions method={order.paymentMethod} delivery={order.delivery} payment={payment} totalCentavos={order.totalCentavos} number={order.number} plant={{ address: facts.address.formatted, hours: facts.hours.inSentence }} />
          ) : null}
          <section aria-labelledby="productos">
            <h2 id="productos" className="mb-3 text-lg font-semibold text-acero-900">
              Productos
            </h2>
            <OrderLines items={items} caption={`Productos del pedido ${order.number}`} />
          </section>
        </div>
        <aside className="h-fit space-y-6 rounded-lg border border-acero-200 bg-acero-50 p-6 wrap-anywhere">
          <TotalsList totals={order} />
          <div>
            <h2 className="text-sm font-semibold text-acero-900">Entrega</h2>
            <p className="mt-1 text-sm text-acero-800">{order.delivery === "envio" && order.address ? `Envío a ${formatOrderAddress(order.address)}` : deliveryLabel(order.delivery)}</p>
            {order.delivery === "envio" ? (
              <p className="mt-1 text-sm font-medium text-acero-900" data-testid="shipping-not-included">
                {SHIPPING_NOT_INCLUDED}
              </p>
            ) : null}
          </div>
          <div>
            <h2 className="text-sm font-semibold text-acero-900">Factura</h2>
            {order.invoice ? (
              <p className="mt-1 text-sm text-acero-800">
                {order.invoice.razonSocial} · RFC {order.invoice.rfc}
                <span className="block">Régimen {regimenLabel(order.invoice.regimenFiscal)}</span>
                <span className="block">Uso {usoCfdiLabel(order.invoice.usoCfdi)} · CP {order.invoice.codigoPostal}</span>
              </p>
            ) : (
              <p className="mt-1 text-sm text-acero-800">Sin factura.</p>
            )}
          </div>
          <div className="flex flex-col gap-2">
            {order.userId ? (
              <AppLink to="/cuenta/pedidos" className="btn-secondary">
                Ver mis pedidos
              </AppLink>
            ) : null}
            <AppLink to="/catalogo" className="text-center text-sm font-semibold text-forja-700 underline underline-offset-2">
              Volver al catálogo
            </AppLink>
          </div>
        </aside>
      </div>
    </>
  );
}
