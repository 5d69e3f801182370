import { Form, useSearchParams } from "react-router";
import type { Route } from "./+types/productos";
import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";
import { AppLink } from "~/components/ui/app-link";
import { requireStaffArea } from "~/features/accounts/guards.server";
import { Pagination } from "~/components/ui/pagination";
import { ProductImage } from "~/features/catalogue/components/product-image";
import { StockBadge } from "~/features/catalogue/components/stock-badge";
import { listProductsForStaff } from "~/features/catalogue/staff-products.server";
import { parseStaffProductFilters, STAFF_STATUSES } from "~/features/catalogue/search";
import { formatCount, formatMoney, formatNumber } from "~/lib/format";
import { priceWithIva } from "~/lib/money";
import { requestMeta } from "~/lib/request-meta";
import { pageMeta } from "~/lib/seo";
import { ListEmptyState } from "~/components/ui/list-empty-state";
import { FILTER_FIELD_CLASS, FilterActions, FilterSearch } from "~/components/ui/filter-fields";
import { TableScroll } from "~/components/ui/table-scroll";

export const meta: Route.MetaFunction = () => pageMeta({ title: "Productos", description: "Catálogo: productos, precios, existencias e imágenes.", noindex: true });

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaffArea(requestMeta(request, context), "productos");
  const filters = parseStaffProductFilters(new URL(request.url).searchParams);
  return { filters, ...(await listProductsForStaff(filters)) };
}

const linkClass = "font-semibold text-forja-700 underline underline-offset-2";

export default function AdminProductsPage({ loaderData }: Route.ComponentProps) {
  const { filters, rows, total, pages, categories } = loaderData;
  const [params] = useSearchParams();
  const filtered = Boolean(filters.q || filters.category || filters.status !== "todos");
  const pageHref = (page: number) => {
    const next = new URLSearchParams(params);
    if (page > 1) next.set("pagina", String(page));
    else next.delete("pagina");
    const query = next.toString();
    return query ? `?${query}` : "/admin/productos";
  };

  return (
    <main id="contenido" className="p-6 sm:p-8">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold text-acero-900">Productos</h1>
          <p className="mt-1 text-acero-700" aria-live="polite">
            {total === 0 ? "Ningún producto" : formatCount(total, "producto", "productos")}
            {filtered ? " con estos filtros" : ""}.
          </p>
        </div>
        <AppLink to="/admin/productos/nuevo" className="btn-primary py-2 text-sm">
          Nuevo producto
        </AppLink>
      </div>

      <Form method="get" key={params.toString()} className="mt-6 grid gap-4 rounded-lg border border-acero-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-5" aria-label="Filtrar productos">
        <FilterSearch defaultValue={filters.q} placeholder="Nombre, SKU, material o medida" />
        <div>
          <label htmlFor="filtro-categoria" className="block text-sm font-semibold text-acero-900">
            Categoría
          </label>
          <select id="filtro-categoria" name="categoria" defaultValue={filters.category} className={FILTER_FIELD_CLASS}>
            <option value="">Todas</option>
            {categories.map((category) => (
              <option key={category} value={category}>
                {category}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="filtro-estado" className="block text-sm font-semibold text-acero-900">
            Estado
          </label>
          <select id="filtro-estado" name="estado" defaultValue={filters.status} className={FILTER_FIELD_CLASS}>
            {STAFF_STATUSES.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
        <FilterActions clearHref="/admin/productos" showClear={filtered} submitLabel="Aplicar" className="flex items-end gap-3" />
      </Form>

      {rows.length === 0 ? (
        <ListEmptyState
          pastTheEnd={filters.page > 1 && total > 0}
          filtered={filtered}
          firstPageHref={pageHref(1)}
          allHref="/admin/productos"
          pastTheEndText="Esta página ya no tiene productos."
          noMatchText="Ningún producto coincide con estos filtros."
          seeAllLabel="Ver todos"
        >
          Todavía no hay productos.{" "}
          <AppLink to="/admin/productos/nuevo" className={linkClass}>
            Dé de alta el primero
          </AppLink>
          .
        </ListEmptyState>
      ) : (
        <TableScroll label="Productos del catálogo" className="mt-6 rounded-lg border border-acero-200 bg-white">
          <table className="min-w-full divide-y divide-acero-200 text-sm">
            <caption className="sr-only">Productos del catálogo</caption>
            <thead className="bg-acero-50 text-left text-acero-800">
              <tr>
                <th scope="col" className="px-4 py-3 font-semibold">
                  <span className="sr-only">Imagen</span>
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">Producto</th>
                <th scope="col" className="px-4 py-3 font-semibold">SKU</th>
                <th scope="col" className="px-4 py-3 font-semibold">Categoría</th>
                <th scope="col" className="px-4 py-3 text-right font-semibold">Precio neto</th>
                <th scope="col" className="px-4 py-3 text-right font-semibold">Con IVA</th>
                <th scope="col" className="px-4 py-3 text-right font-semibold">Existencia</th>
                <th scope="col" className="px-4 py-3 font-semibold">Estado</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-acero-100">
              {rows.map((row) => (
                <tr key={row.id} className={row.active ? undefined : "bg-acero-50 text-acero-600"}>
                  <td className="px-4 py-2">
                    <ProductImage image={row.image} category={row.category} sku={row.sku} sizes="4rem" fallbackWidth={320} alt="" compact className="size-12 rounded border border-acero-200" />
                  </td>
                  <td className="min-w-64 px-4 py-3">
                    <AppLink to={`/admin/productos/${row.id}`} className={linkClass}>
                      {row.name}
                    </AppLink>
                  </td>
                  <td className="px-4 py-3 font-mono whitespace-nowrap">{row.sku}</td>
                  <td className="px-4 py-3">{row.category}</td>
                  <td className="px-4 py-3 text-right whitespace-nowrap">{formatMoney(row.priceCentavos)}</td>
                  <td className="px-4 py-3 text-right whitespace-nowrap">{formatMoney(priceWithIva(row.priceCentavos, row.ivaBp))}</td>
                  <td className="px-4 py-3 text-right whitespace-nowrap">
                    <span className="mr-2">{formatNumber(row.stock)}</span>
                    <StockBadge stock={row.stock} unit={row.unit} />
                  </td>
                  <td className="px-4 py-3">
                    <span className={row.active ? "font-semibold text-green-800" : "font-semibold text-acero-700"}>{row.active ? "Activo" : "Inactivo"}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}

      <Pagination page={filters.page} pages={pages} hrefFor={pageHref} label="Páginas" />
    </main>
  );
}

export function ErrorBoundary() {
  return <RouteErrorBoundary />;
}
