import type { Route } from "./+types/catalogo";
import { AppLink } from "~/components/ui/app-link";
import { PageIntro } from "~/components/ui/page-intro";
import { CatalogueFilters } from "~/features/catalogue/components/catalogue-filters";
import { Pagination } from "~/components/ui/pagination";
import { ProductCard } from "~/features/catalogue/components/product-card";
import { listProducts } from "~/features/catalogue/public-list.server";
import { CATALOGUE_PAGE_SIZE, catalogueHref, parseCatalogueQuery } from "~/features/catalogue/search";
import { formatCount, formatNumber } from "~/lib/format";
import { liveDataPageHandle } from "~/lib/page-cache";
import { pageMeta } from "~/lib/seo";
import { useSiteFacts } from "../site/site-facts";

// The same for every visitor: the server keeps the HTML until the catalogue's data changes, so
// stock and prices stay live (liveDataPageHandle). Errors go to the site layout's boundary (a
// route boundary here would nest a second <main> inside the layout's).

export const handle = liveDataPageHandle("catalogo");

export const meta: Route.MetaFunction = ({ loaderData }) => {
  const query = loaderData?.query;
  const category = loaderData?.category;
  const title = query?.q ? `Búsqueda «${query.q}» en el catálogo` : category ? `${category.name} | Catálogo` : "Catálogo";
  return pageMeta({
    title,
    description: category
      ? `${category.name}: piezas estándar de Forja con precio en MXN e IVA incluido, existencia al día y envío desde Querétaro.`
      : "Soportes, bridas, bujes, gabinetes de lámina, placas de montaje y refacciones estándar fabricadas por Forja. Precios con IVA incluido.",
    // Search results and deep pages are for people, not for the index.
    noindex: Boolean(query?.q) || (query?.page ?? 1) > 1,
  });
};

export async function loader({ request }: Route.LoaderArgs) {
  const query = parseCatalogueQuery(new URL(request.url).searchParams);
  return listProducts(query);
}

const linkClass = "font-semibold text-forja-700 underline underline-offset-2";

export default function CataloguePage({ loaderData }: Route.ComponentProps) {
  const { query, products, total, pages, categories, category } = loaderData;
  const facts = useSiteFacts();
  const first = (query.page - 1) * CATALOGUE_PAGE_SIZE + 1;
  const last = first + products.length - 1;
  const filtered = Boolean(query.q || query.category);

  return (
    <>
      <PageIntro
        eyebrow="Catálogo"
        title={category ? category.name : "Piezas estándar listas para pedir"}
        lead="Soportes y escuadras de acero, bridas maquinadas, bujes de bronce, gabinetes de lámina y refacciones, fabricados en nuestra planta de Querétaro. Precios por unidad en MXN con IVA incluido."
      >
        <AppLink to="/cotiza" className="btn-secondary">
          ¿Necesita otra medida? Cotice una pieza a la medida
        </AppLink>
      </PageIntro>

      <div className="container-page py-8">
        <CatalogueFilters query={query} categories={categories} />

        {categories.length > 1 ? (
          <nav aria-label="Categorías" className="mt-6 hidden sm:block">
            <ul className="flex flex-wrap gap-2">
              <li>
                <CategoryChip href={catalogueHref({ q: query.q, sort: query.sort })} current={!query.category} label="Todas" />
              </li>
              {categories.map((item) => (
                <li key={item.slug}>
                  <CategoryChip
                    href={catalogueHref({ q: query.q, category: item.slug, sort: query.sort })}
                    current={query.category === item.slug}
                    label={`${item.name} (${formatNumber(item.count)})`}
                  />
                </li>
              ))}
            </ul>
          </nav>
        ) : null}

        <p className="mt-6 text-sm text-acero-700" aria-live="polite" data-testid="catalogo-resumen">
          {total === 0
            ? null
            : `${formatCount(total, "producto", "productos")}${query.q ? ` para «${query.q}»` : ""}${category ? ` en ${category.name}` : ""}${
                pages > 1 && products.length ? `; mostrando ${formatNumber(first)}–${formatNumber(last)}` : ""
              }.`}
        </p>

        {products.length === 0 ? (
          <EmptyState query={query} total={total} unknownCategory={Boolean(query.category && !category)} filtered={filtered} />
        ) : (
          <ul className="mt-4 grid gap-6 sm:grid-cols-2 lg:grid-cols-3" aria-label="Productos">
            {products.map((product, index) => (
              <li key={product.id}>
                {/* The first row is above the fold: its images load at once, the rest lazily. */}
                <ProductCard product={product} eager={query.page === 1 && index < 3} />
              </li>
            ))}
          </ul>
        )}

        <Pagination page={query.page} pages={pages} hrefFor={(page) => catalogueHref({ ...query, page })} label="Páginas del catálogo" />

        <aside className="mt-12 rounded-lg bg-acero-50 p-6 text-sm text-acero-800">
          <h2 className="text-base font-semibold text-acero-900">Precios y entregas</h2>
          <ul className="mt-2 list-disc space-y-1 pl-5">
            <li>Precios por unidad en pesos mexicanos con IVA incluido; la factura CFDI desglosa el IVA.</li>
            <li>Pago por transferencia SPEI o al recoger en planta ({facts.address.street}).</li>
            <li>
              Volúmenes mayores, otras medidas o materiales:{" "}
              <AppLink to="/cotiza" className={linkClass}>
                solicite una cotización
              </AppLink>
              .
            </li>
          </ul>
        </aside>
      </div>
    </>
  );
}

function CategoryChip({ href, current, label }: { href: string; current: boolean; label: string }) {
  return (
    <AppLink
      to={href}
      aria-current={current ? "page" : undefined}
      preventScrollReset
      className={`inline-block rounded-full border px-3 py-1 text-sm ${current ? "border-acero-900 bg-acero-900 text-white" : "border-acero-300 text-acero-800 hover:border-forja-600"}`}
    >
      {label}
    </AppLink>
  );
}

function EmptyState({ query, total, unknownCategory, filtered }: { query: { q: string; page: number }; total: number; unknownCategory: boolean; filtered: boolean }) {
  return (
    <div className="mt-6 rounded-lg border border-dashed border-acero-300 bg-white p-6 text-acero-800" data-testid="catalogo-vacio">
      {unknownCategory ? (
        <>
          <h2 className="text-lg font-semibold text-acero-900">Esa categoría no existe</h2>
          <p className="mt-2">
            Puede que haya cambiado de nombre.{" "}
            <AppLink to={catalogueHref({ q: query.q })} className={linkClass}>
              Ver todas las categorías
            </AppLink>
          </p>
        </>
      ) : query.page > 1 && total > 0 ? (
        <>
          <h2 className="text-lg font-semibold text-acero-900">Esta página ya no tiene productos</h2>
          <p className="mt-2">
            <AppLink to={catalogueHref({ ...query, page: 1 })} className={linkClass}>
              Volver a la primera página
            </AppLink>
          </p>
        </>
      ) : filtered ? (
        <>
          <h2 className="text-lg font-semibold text-acero-900">{query.q ? `No encontramos productos para «${query.q}»` : "No hay productos en esta categoría"}</h2>
          <ul className="mt-2 list-disc space-y-1 pl-5 text-sm">
            <li>Revise la ortografía o use menos palabras; los acentos no importan.</li>
            <li>Busque por material, medida o SKU, por ejemplo «bronce», «2 in» o «FOR-BRD».</li>
            <li>
              <AppLink to="/catalogo" className={linkClass}>
                Ver todo el catálogo
              </AppLink>{" "}
              o{" "}
              <AppLink to="/cotiza" className={linkClass}>
                cotizar una pieza a la medida
              </AppLink>
              .
            </li>
          </ul>
        </>
      ) : (
        <>
          <h2 className="text-lg font-semibold text-acero-900">El catálogo está en preparación</h2>
          <p className="mt-2">
            Mientras tanto, fabricamos sobre plano:{" "}
            <AppLink to="/cotiza" className={linkClass}>
              solicite una cotización
            </AppLink>
            .
          </p>
        </>
      )}
    </div>
  );
}
