import { Form, useSearchParams } from "react-router";
import type { Route } from "./+types/formularios";
import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";
import { LiveNotices } from "~/components/live/live-notices";
import { AppLink } from "~/components/ui/app-link";
import { requireStaffArea } from "~/features/accounts/guards.server";
import { DEFAULT_PER_PAGE, parseSolicitudFilters } from "~/features/solicitudes/filters";
import { listSolicitudes } from "~/features/solicitudes/list.server";
import { StatusPill, UnreadMarker } from "~/features/solicitudes/components/solicitud-badges";
import { useLiveSolicitudes } from "~/features/solicitudes/components/use-live-solicitudes";
import { INDUSTRY_OPTIONS, SOLICITUD_STATUSES, SOLICITUD_TYPES } from "~/features/solicitudes/forms";
import { formatDateTime, formatNumber } from "~/lib/format";
import { pageCount } from "~/lib/list-params";
import { requestMeta } from "~/lib/request-meta";
import { pageMeta } from "~/lib/seo";
import { ListEmptyState } from "~/components/ui/list-empty-state";
import { FilterSelect } from "~/components/ui/filter-select";
import { FILTER_FIELD_CLASS, FilterActions, FilterDateRange, FilterDateRangeHelp, FilterSearch } from "~/components/ui/filter-fields";
import { TableScroll } from "~/components/ui/table-scroll";

export const meta: Route.MetaFunction = () =>
  pageMeta({ title: "Solicitudes recibidas", description: "Solicitudes de cotización y mensajes de contacto.", noindex: true });

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaffArea(requestMeta(request, context), "solicitudes");
  const filters = parseSolicitudFilters(new URL(request.url).searchParams);
  return { filters, ...(await listSolicitudes(filters)) };
}

const PER_PAGE_CHOICES = [30, 50, 100, 200, 500];
const SHORT_TYPE: Record<string, string> = { cotizacion: "Cotización", contacto: "Contacto" };
const FILTER_KEYS = ["tipo", "estado", "industria", "desde", "hasta", "q"] as const;

const linkClass = "font-semibold text-forja-700 underline underline-offset-2";

/** "2026-03-12" → "12/03/2026", as the date fields show it in es-MX. */
const formatIsoDay = (day: string) => day.split("-").reverse().join("/");

export default function AdminFormsPage({ loaderData }: Route.ComponentProps) {
  const { filters, rows, total, hasNext } = loaderData;
  const [params] = useSearchParams();
  // Live: a new or changed request reloads this view; a new one is also named in a notice.
  const notices = useLiveSolicitudes();

  // Every link keeps the rest of the view: the URL is the whole state.
  const hrefWith = (changes: Record<string, string | null>, base = "") => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value === null) next.delete(key);
      else next.set(key, value);
    }
    const query = next.toString();
    return `${base}${query ? `?${query}` : base ? "" : "?"}`;
  };
  const pageHref = (page: number) => hrefWith({ pagina: page > 1 ? String(page) : null });
  const sortHref = (column: "fecha" | "estado") => {
    const sameColumn = filters.sort === column;
    const defaultDir = column === "fecha" ? "desc" : "asc";
    const dir = sameColumn ? (filters.dir === "asc" ? "desc" : "asc") : defaultDir;
    return hrefWith({ orden: column === "fecha" ? null : column, dir: dir === defaultDir ? null : dir, pagina: null });
  };
  const csvHref = hrefWith({ pagina: null, porPagina: null, sinTotal: null }, "/admin/formularios/exportar.csv");

  const filtered = FILTER_KEYS.some((key) => params.get(key));
  // "Desde" after "Hasta" can match nothing: say so, and offer the range the other way round.
  const reversedDates = Boolean(filters.from && filters.to && filters.from > filters.to);
  const pages = total === null ? null : pageCount(total, filters.perPage);
  const firstShown = (filters.page - 1) * filters.perPage + 1;
  const lastShown = firstShown + rows.length - 1;
  const perPageChoices = PER_PAGE_CHOICES.includes(filters.perPage) ? PER_PAGE_CHOICES : [...PER_PAGE_CHOICES, filters.perPage].sort((a, b) => a - b);

  return (
    <main id="contenido" className="p-6 sm:p-8">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold text-acero-900">Solicitudes recibidas</h1>
          <p className="mt-1 text-acero-700" aria-live="polite">
            {total === null
              ? rows.length
                ? `Mostrando ${formatNumber(firstShown)}–${formatNumber(lastShown)} (sin contar el total).`
                : "Sin resultados en esta página."
              : total === 0
                ? reversedDates
                  ? "Ninguna solicitud: las fechas están invertidas."
                  : "Ninguna solicitud."
                : `${total === 1 ? "1 solicitud" : `${formatNumber(total)} solicitudes`}${filtered ? " con estos filtros" : ""}${rows.length ? `; mostrando ${formatNumber(firstShown)}–${formatNumber(lastShown)}` : ""}.`}
          </p>
        </div>
        <a href={csvHref} className="btn-dark py-2 text-sm">
          Exportar CSV
        </a>
      </div>

      <Form method="get" key={params.toString()} className="mt-6 rounded-lg border border-acero-200 bg-white p-4" aria-label="Filtrar solicitudes">
        {filters.sort !== "fecha" ? <input type="hidden" name="orden" value={filters.sort} /> : null}
        {params.get("dir") ? <input type="hidden" name="dir" value={filters.dir} /> : null}
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <FilterSearch defaultValue={filters.q ?? ""} placeholder="Número, nombre, empresa o correo" />
          <FilterSelect id="filtro-tipo" name="tipo" label="Tipo" options={SOLICITUD_TYPES} defaultValue={filters.type ?? ""} allLabel="Todos" className={FILTER_FIELD_CLASS} />
          <FilterSelect id="filtro-estado" name="estado" label="Estado" options={SOLICITUD_STATUSES} defaultValue={filters.status ?? ""} allLabel="Todos" className={FILTER_FIELD_CLASS} />
          <FilterSelect id="filtro-industria" name="industria" label="Industria" options={INDUSTRY_OPTIONS} defaultValue={filters.industry ?? ""} allLabel="Todas" className={FILTER_FIELD_CLASS} />
          <FilterDateRange from={filters.from ?? ""} to={filters.to ?? ""} />
          <div>
            <label htmlFor="filtro-por-pagina" className="block text-sm font-semibold text-acero-900">
              Por página
            </label>
            <select id="filtro-por-pagina" name="porPagina" defaultValue={String(filters.perPage)} className={FILTER_FIELD_CLASS}>
              {perPageChoices.map((choice) => (
                <option key={choice} value={choice}>
                  {choice}
                </option>
              ))}
            </select>
          </div>
        </div>
        <FilterDateRangeHelp />
        <FilterActions clearHref="/admin/formularios" showClear={filtered || filters.skipTotal || filters.perPage !== DEFAULT_PER_PAGE}>
          <label className="flex items-center gap-2 text-sm text-acero-800">
            <input type="checkbox" name="sinTotal" value="1" defaultChecked={filters.skipTotal} className="h-4 w-4" />
            No contar el total (más rápido con muchos registros)
          </label>
        </FilterActions>
      </Form>

      {rows.length === 0 && reversedDates ? (
        <div className="mt-8 rounded-lg border border-dashed border-acero-300 bg-white p-6 text-acero-700" data-testid="fechas-invertidas">
          <p>
            La fecha «Desde» ({formatIsoDay(filters.from!)}) es posterior a «Hasta» ({formatIsoDay(filters.to!)}), así que ninguna
            solicitud puede coincidir.{" "}
            <AppLink to={hrefWith({ desde: filters.to!, hasta: filters.from!, pagina: null })} className={linkClass}>
              Intercambiar las fechas
            </AppLink>
          </p>
        </div>
      ) : rows.length === 0 ? (
        <ListEmptyState
          pastTheEnd={filters.page > 1 && total !== 0}
          filtered={filtered}
          firstPageHref={pageHref(1)}
          allHref="/admin/formularios"
          pastTheEndText="Esta página ya no tiene solicitudes."
          noMatchText="Ninguna solicitud coincide con estos filtros."
          seeAllLabel="Ver todas"
        >
          Todavía no hay solicitudes recibidas. Aquí aparecerán las solicitudes de cotización de /cotiza y los mensajes de /contact.
        </ListEmptyState>
      ) : (
        <TableScroll label="Solicitudes recibidas" className="mt-6 rounded-lg border border-acero-200 bg-white">
          <table className="min-w-full divide-y divide-acero-200 text-sm">
            <caption className="sr-only">Solicitudes recibidas; los encabezados Fecha y Estado ordenan la tabla</caption>
            <thead className="bg-acero-50 text-left text-acero-800">
              <tr>
                <th scope="col" className="px-4 py-3 font-semibold">
                  <span className="sr-only">Leído</span>
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">Tipo</th>
                <th scope="col" className="px-4 py-3 font-semibold">Número</th>
                <SortHeader label="Fecha" column="fecha" filters={filters} href={sortHref("fecha")} />
                <th scope="col" className="px-4 py-3 font-semibold">Nombre</th>
                <th scope="col" className="px-4 py-3 font-semibold">Empresa</th>
                <th scope="col" className="px-4 py-3 font-semibold">Industria</th>
                <SortHeader label="Estado" column="estado" filters={filters} href={sortHref("estado")} />
                <th scope="col" className="px-4 py-3 text-right font-semibold">Archivos</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-acero-100">
              {rows.map((row) => (
                <tr key={row.id} className={row.unread ? "bg-forja-50/40 font-semibold" : undefined}>
                  <td className="px-4 py-3">
                    <UnreadMarker unread={row.unread} />
                  </td>
                  <td className="px-4 py-3 text-acero-800">{SHORT_TYPE[row.type] ?? row.type}</td>
                  <td className="px-4 py-3 whitespace-nowrap">
                    <AppLink to={`/admin/formularios/${row.id}`} className={linkClass}>
                      {row.number}
                    </AppLink>
                  </td>
                  <td className="px-4 py-3 whitespace-nowrap text-acero-800">{formatDateTime(row.createdAt)}</td>
                  <td className="px-4 py-3 text-acero-900">{row.name}</td>
                  <td className="px-4 py-3 text-acero-800">{row.company || "—"}</td>
                  <td className="px-4 py-3 text-acero-800">{INDUSTRY_OPTIONS.find((option) => option.value === row.industry)?.label ?? "—"}</td>
                  <td className="px-4 py-3">
                    <StatusPill status={row.status} />
                  </td>
                  <td className="px-4 py-3 text-right text-acero-800">{row.fileCount || "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}

      {filters.page > 1 || hasNext ? (
        <nav aria-label="Páginas" className="mt-4 flex flex-wrap items-center gap-4 text-sm">
          {filters.page > 2 ? (
            <AppLink to={pageHref(1)} className={linkClass}>
              Primera
            </AppLink>
          ) : null}
          {filters.page > 1 ? (
            <AppLink to={pageHref(filters.page - 1)} className={linkClass} rel="prev">
              Anterior
            </AppLink>
          ) : null}
          <span>
            Página {formatNumber(filters.page)}
            {pages !== null ? ` de ${formatNumber(pages)}` : ""}
          </span>
          {hasNext ? (
            <AppLink to={pageHref(filters.page + 1)} className={linkClass} rel="next">
              Siguiente
            </AppLink>
          ) : null}
          {hasNext && pages !== null && pages > filters.page + 1 ? (
            <AppLink to={pageHref(pages)} className={linkClass}>
              Última
            </AppLink>
          ) : null}
        </nav>
      ) : null}
      <LiveNotices notices={notices} />
    </main>
  );
}

function SortHeader({
  label,
  column,
  filters,
  href,
}: {
  label: string;
  column: "fecha" | "estado";
  filters: { sort: string; dir: "asc" | "desc" };
  href: string;
}) {
  const active = filters.sort === column;
  const direction = active ? (filters.dir === "asc" ? "ascending" : "descending") : undefined;
  const next = active ? (filters.dir === "asc" ? "descendente" : "ascendente") : column === "fecha" ? "descendente" : "ascendente";
  return (
    <th scope="col" className="px-4 py-3 font-semibold" aria-sort={direction}>
      <AppLink to={href} className="inline-flex items-center gap-1 underline-offset-2 hover:underline">
        {label}
        <span aria-hidden="true">{active ? (filters.dir === "asc" ? "▲" : "▼") : "↕"}</span>
        <span className="sr-only">, ordenar en forma {next}</span>
      </AppLink>
    </th>
  );
}

export function ErrorBoundary() {
  return <RouteErrorBoundary />;
}
