import { Form, useSearchParams } from "react-router";
import type { Route } from "./+types/cotizaciones";
import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";
import { AppLink } from "~/components/ui/app-link";
import { requireStaffArea } from "~/features/accounts/guards.server";
import { QuoteStatusPill } from "~/features/quotes/components/quote-status-pill";
import { listQuotesForStaff, STAFF_QUOTES_PAGE_SIZE } from "~/features/quotes/list.server";
import { QUOTE_STATUSES } from "~/features/quotes/forms";
import { formatCount, formatDate, formatMoney, formatNumber } from "~/lib/format";
import { MAX_PAGE, pageCount, positiveInt, searchText, SPANISH_LIST_PARAMS } from "~/lib/list-params";
import { requestMeta } from "~/lib/request-meta";
import { pageMeta } from "~/lib/seo";
import { Pagination } from "~/components/ui/pagination";
import { ListEmptyState } from "~/components/ui/list-empty-state";
import { FilterSelect } from "~/components/ui/filter-select";
import { FILTER_FIELD_CLASS, FilterActions, FilterSearch } from "~/components/ui/filter-fields";
import { TableScroll } from "~/components/ui/table-scroll";

export const meta: Route.MetaFunction = () => pageMeta({ title: "Cotizaciones", description: "Cotizaciones para clientes.", noindex: true });

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaffArea(requestMeta(request, context), "cotizaciones");
  const params = new URL(request.url).searchParams;
  const requested = params.get("estado") ?? "";
  const status = QUOTE_STATUSES.some((option) => option.value === requested) ? requested : "";
  const q = searchText(params.get("q"), 100) ?? "";
  const page = positiveInt(params.get(SPANISH_LIST_PARAMS.page), 1, MAX_PAGE);
  const { rows, total } = await listQuotesForStaff({ status: status || undefined, q, page });
  return { rows, total, page, status, q, pageSize: STAFF_QUOTES_PAGE_SIZE };
}

const linkClass = "font-semibold text-forja-700 underline underline-offset-2";

export default function AdminQuotesPage({ loaderData }: Route.ComponentProps) {
  const { rows, total, page, status, q, pageSize } = loaderData;
  const [params] = useSearchParams();
  const pages = pageCount(total, pageSize);
  const filtered = Boolean(status || q);
  const pageHref = (target: number) => {
    const next = new URLSearchParams(params);
    if (target > 1) next.set("pagina", String(target));
    else next.delete("pagina");
    const query = next.toString();
    return query ? `?${query}` : "/admin/cotizaciones";
  };
  const firstShown = (page - 1) * pageSize + 1;
  const lastShown = firstShown + rows.length - 1;

  return (
    <main id="contenido" className="p-6 sm:p-8">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold text-acero-900">Cotizaciones</h1>
          <p className="mt-1 text-acero-700" aria-live="polite">
            {total === 0
              ? filtered
                ? "Ninguna cotización con estos filtros."
                : "Todavía no hay cotizaciones."
              : `${formatCount(total, "cotización", "cotizaciones")}${filtered ? " con estos filtros" : ""}${rows.length ? `; mostrando ${formatNumber(firstShown)}–${formatNumber(lastShown)}` : ""}.`}
          </p>
        </div>
        <AppLink to="/admin/cotizaciones/nueva" className="btn-primary py-2 text-sm">
          Nueva cotización
        </AppLink>
      </div>

      <Form method="get" key={params.toString()} role="search" aria-label="Filtrar cotizaciones" className="mt-6 rounded-lg border border-acero-200 bg-white p-4">
        <div className="grid gap-4 sm:grid-cols-3">
          <FilterSearch defaultValue={q} placeholder="Número, cliente, empresa o correo" />
          <FilterSelect id="filtro-estado" name="estado" label="Estado" options={QUOTE_STATUSES} defaultValue={status} allLabel="Todos" className={FILTER_FIELD_CLASS} />
        </div>
        <FilterActions clearHref="/admin/cotizaciones" showClear={filtered} />
      </Form>

      {rows.length === 0 ? (
        <ListEmptyState
          pastTheEnd={page > 1 && total > 0}
          filtered={filtered}
          firstPageHref={pageHref(1)}
          allHref="/admin/cotizaciones"
          pastTheEndText="Esta página ya no tiene cotizaciones."
          noMatchText="Ninguna cotización coincide con estos filtros."
          seeAllLabel="Ver todas"
        >
          Todavía no hay cotizaciones. Cree una desde una solicitud en{" "}
          <AppLink to="/admin/formularios" className={linkClass}>
            Solicitudes
          </AppLink>{" "}
          o empiece una en blanco con «Nueva cotización».
        </ListEmptyState>
      ) : (
        <TableScroll label="Cotizaciones" className="mt-6 rounded-lg border border-acero-200 bg-white">
          <table className="min-w-full divide-y divide-acero-200 text-sm">
            <caption className="sr-only">Cotizaciones, de la más reciente a la más antigua</caption>
            <thead className="bg-acero-50 text-left text-acero-800">
              <tr>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Número
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Cliente
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Estado
                </th>
                <th scope="col" className="px-4 py-3 text-right font-semibold">
                  Total <span className="font-normal">(IVA incl.)</span>
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Vigente hasta
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-acero-100">
              {rows.map((row) => (
                <tr key={row.id}>
                  <td className="px-4 py-3 whitespace-nowrap">
                    <AppLink to={`/admin/cotizaciones/${row.id}`} className={linkClass}>
                      {row.number}
                    </AppLink>
                  </td>
                  <td className="px-4 py-3">
                    <span className="block text-acero-900">{row.customerName || "Sin nombre"}</span>
                    {row.customerCompany ? <span className="block text-xs text-acero-700">{row.customerCompany}</span> : null}
                  </td>
                  <td className="px-4 py-3">
                    <QuoteStatusPill status={row.status} />
                  </td>
                  <td className="px-4 py-3 text-right whitespace-nowrap text-acero-900">{formatMoney(row.totalCentavos)}</td>
                  <td className="px-4 py-3 whitespace-nowrap text-acero-800">{row.validUntil ? formatDate(row.validUntil) : "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}

      <Pagination page={page} pages={pages} hrefFor={pageHref} />
    </main>
  );
}

export function ErrorBoundary() {
  return <RouteErrorBoundary />;
}
