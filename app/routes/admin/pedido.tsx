import { Form, data } from "react-router";
import type { Route } from "./+types/pedido";
import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";
import { AppLink } from "~/components/ui/app-link";
import { FormErrors, FormNotice } from "~/components/ui/form";
import { requireStaffArea } from "~/features/accounts/guards.server";
import { OrderLines } from "~/features/orders/components/order-lines";
import { OrderStatusPill } from "~/features/orders/components/order-status-pill";
import { TotalsList } from "~/features/orders/components/totals-list";
import { getOrderDetail } from "~/features/orders/staff-detail.server";
import { allowedActions } from "~/features/orders/states";
import { changeOrderStatus } from "~/features/orders/status-commands.server";
import { regimenLabel, usoCfdiLabel } from "~/features/orders/sat-catalogs";
import { OrderTransitionSchema, deliveryLabel, formatOrderAddress, orderStatusLabel, paymentLabel } from "~/features/orders/forms";
import { notFound } from "~/lib/errors";
import { formatDateTime } from "~/lib/format";
import { requestMeta } from "~/lib/request-meta";
import { failureMessages, failureStatus } from "~/lib/result";
import { pageMeta } from "~/lib/seo";
import { readForm } from "~/lib/request-body";

export const meta: Route.MetaFunction = ({ loaderData }) =>
  pageMeta({ title: loaderData ? `Pedido ${loaderData.order.number}` : "Pedido", description: "Detalle y estado de un pedido.", noindex: true });

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireStaffArea(requestMeta(request, context), "pedidos");
  const detail = await getOrderDetail(params.id);
  if (!detail) notFound(request);
  return detail;
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const staff = await requireStaffArea(requestMeta(request, context), "pedidos");
  const fields = Object.fromEntries(await readForm(request));
  // A refused change keeps the note that was written; a successful one empties the box (see the form's key).
  const note = typeof fields.note === "string" ? fields.note : "";
  const parsed = OrderTransitionSchema.safeParse(fields);
  if (!parsed.success) return data({ ok: false, message: parsed.error.issues[0]?.message ?? "Revise el formulario.", note }, { status: 400 });
  const result = await changeOrderStatus({ orderId: params.id, to: parsed.data.status, note: parsed.data.note, actor: { id: staff.id, name: staff.name } });
  if (result.ok) return data({ ok: true, message: result.value.message, note: "" }, { status: 200 });
  if (result.kind === "not-found") notFound(request);
  return data({ ok: false, message: failureMessages(result).formErrors.join(" "), note }, { status: failureStatus(result) });
}

const TRANSITION_BUTTON: Record<string, string> = { cancelado: "btn-secondary py-2 text-sm text-red-800" };

export default function AdminOrderPage({ loaderData, actionData }: Route.ComponentProps) {
  const { order, items, events } = loaderData;
  // The workflow table decides the buttons, the same table the action's domain call refuses with.
  const allowed = allowedActions(order);
  return (
    <main id="contenido" className="p-6 sm:p-8">
      <AppLink to="/admin/pedidos" className="text-sm font-semibold text-forja-700 underline underline-offset-2">
        ← Pedidos
      </AppLink>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-bold text-acero-900">Pedido {order.number}</h1>
        <OrderStatusPill status={order.status} />
      </div>
      <p className="mt-1 text-acero-700">
        {formatDateTime(order.createdAt)} · {deliveryLabel(order.delivery)} · {paymentLabel(order.paymentMethod)}
        {order.paymentMethod === "spei" ? (
          <>
            {" "}
            · referencia <span className="font-mono font-semibold">{order.paymentReference}</span>
          </>
        ) : null}
      </p>

      <div className="mt-4 space-y-3" aria-live="polite">
        {actionData ? actionData.ok ? <FormNotice>{actionData.message}</FormNotice> : <FormErrors errors={[actionData.message]} /> : null}
      </div>

      <div className="mt-6 grid grid-cols-1 gap-6 xl:grid-cols-3">
        <div className="space-y-6 xl:col-span-2">
          <OrderLines items={items} caption={`Productos del pedido ${order.number}`} />
          <TotalsList totals={order} className="ml-auto max-w-xs rounded-lg border border-acero-200 bg-white p-4" />

          <section aria-labelledby="historial" className="rounded-lg border border-acero-200 bg-white p-6">
            <h2 id="historial" className="text-lg font-semibold text-acero-900">
              Historial
            </h2>
            <ol className="mt-4 space-y-3">
              {events.map((event) => (
                <li key={event.id} className="border-l-2 border-acero-200 pl-4 text-sm">
                  <p className="font-semibold text-acero-900">
                    {event.fromStatus ? `${orderStatusLabel(event.fromStatus)} → ` : ""}
                    {orderStatusLabel(event.toStatus)}
                  </p>
                  <p className="text-acero-700">
                    {formatDateTime(event.createdAt)} · {event.actorName}
                  </p>
                  {event.note ? <p className="mt-1 text-acero-800">{event.note}</p> : null}
                </li>
              ))}
            </ol>
          </section>
        </div>

        <div className="space-y-6">
          <section aria-labelledby="cambiar-estado" className="rounded-lg border border-acero-200 bg-white p-6">
            <h2 id="cambiar-estado" className="text-lg font-semibold text-acero-900">
              Cambiar estado
            </h2>
            {allowed.length === 0 ? (
              <p className="mt-2 text-sm text-acero-700">Este pedido está «{orderStatusLabel(order.status)}» y ya no admite cambios.</p>
            ) : (
              // Keyed by the history: a status change adds an entry, which rebuilds the form and empties the
              // note, so it is not sent again with the next status (and its email).
              <Form method="post" className="mt-4 space-y-4" key={events.length}>
                <div>
                  <label htmlFor="nota" className="block text-sm font-semibold text-acero-900">
                    Nota para el cliente <span className="font-normal text-acero-600">(opcional)</span>
                  </label>
                  <textarea
                    id="nota"
                    name="note"
                    rows={3}
                    maxLength={1000}
                    defaultValue={actionData && !actionData.ok ? actionData.note : ""}
                    className="mt-1 block w-full rounded-md border border-acero-300 px-3 py-2 text-sm"
                    placeholder="Por ejemplo, la guía de la paquetería"
                  />
                  <p className="mt-1 text-xs text-acero-600">Se incluye en el correo que avisa al cliente del cambio.</p>
                </div>
                <div className="flex flex-wrap gap-2">
                  {allowed.map((next) => (
                    <button key={next.value} type="submit" name="status" value={next.value} className={TRANSITION_BUTTON[next.value] ?? "btn-dark py-2 text-sm"}>
                      {next.value === "cancelado" ? "Cancelar pedido y devolver inventario" : `Marcar como «${next.label}»`}
                    </button>
                  ))}
                </div>
              </Form>
            )}
          </section>

          <section aria-labelledby="cliente" className="rounded-lg border border-acero-200 bg-white p-6 text-sm wrap-anywhere">
            <h2 id="cliente" className="text-lg font-semibold text-acero-900">
              Cliente
            </h2>
            <p className="mt-2 text-acero-900">{order.name}</p>
            {order.company ? <p className="text-acero-800">{order.company}</p> : null}
            <p>
              <a href={`mailto:${order.email}`} className="text-forja-700 underline underline-offset-2">
                {order.email}
              </a>
            </p>
            <p>
              <a href={`tel:${order.phone.replace(/[^\d+]/g, "")}`} className="text-forja-700 underline underline-offset-2">
                {order.phone}
              </a>
            </p>
            <p className="mt-2 text-xs text-acero-600">{order.userId ? "Con cuenta de cliente." : "Compra como invitado."}</p>
            <h3 className="mt-4 font-semibold text-acero-900">Entrega</h3>
            <p className="text-acero-800">{order.delivery === "envio" && order.address ? formatOrderAddress(order.address) : "Recoge en planta."}</p>
            <h3 className="mt-4 font-semibold text-acero-900">Factura</h3>
            {order.invoice ? (
              <dl className="text-acero-800">
                <dt className="sr-only">RFC</dt>
                <dd className="font-mono">{order.invoice.rfc}</dd>
                <dt className="sr-only">Razón social</dt>
                <dd>{order.invoice.razonSocial}</dd>
                <dt className="sr-only">Régimen fiscal</dt>
                <dd>Régimen {regimenLabel(order.invoice.regimenFiscal)}</dd>
                <dt className="sr-only">Uso del CFDI</dt>
                <dd>Uso {usoCfdiLabel(order.invoice.usoCfdi)}</dd>
                <dt className="sr-only">Código postal fiscal</dt>
                <dd>CP fiscal {order.invoice.codigoPostal}</dd>
              </dl>
            ) : (
              <p className="text-acero-800">Sin factura.</p>
            )}
            {order.notes ? (
              <>
                <h3 className="mt-4 font-semibold text-acero-900">Notas del cliente</h3>
                <p className="whitespace-pre-line text-acero-800">{order.notes}</p>
              </>
            ) : null}
          </section>
        </div>
      </div>
    </main>
  );
}

export function ErrorBoundary() {
  return <RouteErrorBoundary />;
}
