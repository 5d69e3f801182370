import { Form, useSearchParams } from "react-router";
import type { Route } from "./+types/pedidos";
import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";
import { LiveNotices, useLiveNotices } from "~/components/live/live-notices";
import { AppLink } from "~/components/ui/app-link";
import { requireStaffArea } from "~/features/accounts/guards.server";
import { OrderStatusPill } from "~/features/orders/components/order-status-pill";
import { ORDERS_PER_PAGE, parseOrderFilters } from "~/features/orders/filters";
import { listOrders } from "~/features/orders/staff-list.server";
import { ORDER_STATUSES, deliveryLabel, paymentLabel } from "~/features/orders/forms";
import { formatCount, formatDateTime, formatMoney, formatNumber } from "~/lib/format";
import { useLiveUpdates } from "~/lib/live/use-live-updates";
import { requestMeta } from "~/lib/request-meta";
import { pageMeta } from "~/lib/seo";
import { Pagination } from "~/components/ui/pagination";
import { ListEmptyState } from "~/components/ui/list-empty-state";
import { FilterSelect } from "~/components/ui/filter-select";
import { FILTER_FIELD_CLASS, FilterActions, FilterDateRange, FilterDateRangeHelp, FilterSearch } from "~/components/ui/filter-fields";
import { TableScroll } from "~/components/ui/table-scroll";

export const meta: Route.MetaFunction = () => pageMeta({ title: "Pedidos", description: "Pedidos de la tienda en línea.", noindex: true });

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaffArea(requestMeta(request, context), "pedidos");
  const filters = parseOrderFilters(new URL(request.url).searchParams);
  return { filters, ...(await listOrders(filters)) };
}

const FILTER_KEYS = ["estado", "desde", "hasta", "q"] as const;
const linkClass = "font-semibold text-forja-700 underline underline-offset-2";

export default function AdminOrdersPage({ loaderData }: Route.ComponentProps) {
  const { filters, rows, total, pages } = loaderData;
  const [params] = useSearchParams();
  const filtered = FILTER_KEYS.some((key) => params.get(key));
  const pageHref = (page: number) => {
    const next = new URLSearchParams(params);
    if (page > 1) next.set("pagina", String(page));
    else next.delete("pagina");
    const query = next.toString();
    return query ? `?${query}` : "?";
  };
  const firstShown = (filters.page - 1) * ORDERS_PER_PAGE + 1;
  // Live: a new order or a change of status reloads the list; a new one is named in a notice.
  const { notices, announce } = useLiveNotices();
  useLiveUpdates(["pedidos/*"], {
    onEvent({ action, record }) {
      if (action !== "create" || !record.id || !record.numero) return;
      announce({ id: `pedido:${String(record.id)}`, text: "Pedido nuevo", link: { to: `/admin/pedidos/${String(record.id)}`, label: String(record.numero) } });
    },
  });

  return (
    <main id="contenido" className="p-6 sm:p-8">
      <h1 className="text-2xl font-bold text-acero-900">Pedidos</h1>
      <p className="mt-1 text-acero-700" aria-live="polite">
        {total === 0
          ? filtered
            ? "Ningún pedido con estos filtros."
            : "Todavía no hay pedidos."
          : `${formatCount(total, "pedido", "pedidos")}${filtered ? " con estos filtros" : ""}${rows.length ? `; mostrando ${formatNumber(firstShown)}–${formatNumber(firstShown + rows.length - 1)}` : ""}.`}
      </p>

      <Form method="get" key={params.toString()} className="mt-6 rounded-lg border border-acero-200 bg-white p-4" aria-label="Filtrar pedidos">
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
          <FilterSearch defaultValue={filters.q ?? ""} placeholder="Número, referencia, nombre, correo o RFC" />
          <FilterSelect id="filtro-estado" name="estado" label="Estado" options={ORDER_STATUSES} defaultValue={filters.status ?? ""} allLabel="Todos" className={FILTER_FIELD_CLASS} />
          <FilterDateRange from={filters.from ?? ""} to={filters.to ?? ""} />
        </div>
        <FilterDateRangeHelp />
        <FilterActions clearHref="/admin/pedidos" showClear={filtered} />
      </Form>

      {rows.length === 0 ? (
        <ListEmptyState
          pastTheEnd={filters.page > 1 && total > 0}
          filtered={filtered}
          firstPageHref={pageHref(1)}
          allHref="/admin/pedidos"
          pastTheEndText="Esta página ya no tiene pedidos."
          noMatchText="Ningún pedido coincide con estos filtros."
          seeAllLabel="Ver todos"
        >
          Aquí aparecerán los pedidos de la tienda en línea (/catalogo → /checkout).
        </ListEmptyState>
      ) : (
        <TableScroll label="Pedidos" className="mt-6 rounded-lg border border-acero-200 bg-white">
          <table className="min-w-full divide-y divide-acero-200 text-sm">
            <caption className="sr-only">Pedidos, del más reciente al más antiguo</caption>
            <thead className="bg-acero-50 text-left text-acero-800">
              <tr>
                <th scope="col" className="px-4 py-3 font-semibold">Número</th>
                <th scope="col" className="px-4 py-3 font-semibold">Fecha</th>
                <th scope="col" className="px-4 py-3 font-semibold">Cliente</th>
                <th scope="col" className="px-4 py-3 font-semibold">RFC</th>
                <th scope="col" className="px-4 py-3 font-semibold">Entrega y pago</th>
                <th scope="col" className="px-4 py-3 font-semibold">Estado</th>
                <th scope="col" className="px-4 py-3 text-right font-semibold">Total</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-acero-100">
              {rows.map((row) => (
                <tr key={row.id}>
                  <td className="px-4 py-3 whitespace-nowrap">
                    <AppLink to={`/admin/pedidos/${row.id}`} className={linkClass}>
                      {row.number}
                    </AppLink>
                  </td>
                  <td className="px-4 py-3 whitespace-nowrap text-acero-800">{formatDateTime(row.createdAt)}</td>
                  <td className="px-4 py-3 text-acero-900">
                    {row.name}
                    <span className="block text-xs text-acero-600">
                      {row.company ? `${row.company} · ` : ""}
                      {row.email}
                    </span>
                  </td>
                  <td className="px-4 py-3 font-mono text-xs text-acero-800">{row.rfc ?? "—"}</td>
                  <td className="px-4 py-3 text-acero-800">
                    {deliveryLabel(row.delivery)}
                    <span className="block text-xs text-acero-600">{paymentLabel(row.paymentMethod)}</span>
                  </td>
                  <td className="px-4 py-3">
                    <OrderStatusPill status={row.status} />
                  </td>
                  <td className="px-4 py-3 text-right font-medium text-acero-900 tabular-nums">{formatMoney(row.totalCentavos)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}

      <Pagination page={Math.min(filters.page, pages)} pages={pages} hrefFor={pageHref} />
      <LiveNotices notices={notices} />
    </main>
  );
}

export function ErrorBoundary() {
  return <RouteErrorBoundary />;
}
