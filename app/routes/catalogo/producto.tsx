import { redirect } from "react-router";
import type { Route } from "./+types/producto";
import { AppLink } from "~/components/ui/app-link";
import { JsonLd } from "~/components/ui/json-ld";
import { AddToCartForm } from "~/features/catalogue/components/add-to-cart-form";
import { ProductCad } from "~/features/catalogue/components/product-cad";
import { ProductGallery } from "~/features/catalogue/components/product-gallery";
import { ProductPrice } from "~/features/catalogue/components/product-price";
import { StockBadge } from "~/features/catalogue/components/stock-badge";
import { productImageUrl } from "~/features/catalogue/images";
import { getProductBySlug } from "~/features/catalogue/product-page.server";
import { formatUnitQuantity, unitName } from "~/lib/units";
import { catalogueHref, slugify } from "~/features/catalogue/search";
import { productJsonLd } from "~/features/catalogue/structured-data";
import { getSiteFacts } from "~/features/site/site-facts.server";
import { getEnv } from "~/lib/env.server";
import { notFound } from "~/lib/errors";
import { liveDataPageHandle } from "~/lib/page-cache";
import { pageMeta } from "~/lib/seo";

// The same for every visitor: the server keeps the HTML until the catalogue's data changes, so
// stock and prices stay live (liveDataPageHandle). Errors go to the site layout's boundary (a
// route boundary here would nest a second <main> inside the layout's).

export const handle = liveDataPageHandle("catalogo");

export const meta: Route.MetaFunction = ({ loaderData }) => {
  if (!loaderData) return [];
  const { product, ogImage } = loaderData;
  const tags = pageMeta({ title: product.name, description: product.shortDescription });
  return ogImage ? [...tags, { property: "og:image", content: ogImage }] : tags;
};

export async function loader({ request, params }: Route.LoaderArgs) {
  const product = await getProductBySlug(params.slug);
  if (!product) notFound(request);
  if (product.slug !== params.slug) throw redirect(`/catalogo/${product.slug}`, 301);
  const { publicUrl } = getEnv();
  const { name: sellerName } = await getSiteFacts();
  const first = product.images[0];
  return {
    product,
    jsonLd: productJsonLd(product, { publicUrl, sellerName }),
    ogImage: first ? `${publicUrl}${productImageUrl(first.id, first.widths.at(-1)!)}` : null,
  };
}

export default function ProductPage({ loaderData }: Route.ComponentProps) {
  const { product, jsonLd } = loaderData;
  return (
    <>
      <JsonLd data={jsonLd} />
      <div className="container-page py-8">
        <nav aria-label="Ruta de navegación" className="text-sm text-acero-700">
          <ol className="flex flex-wrap items-center gap-1">
            <li>
              <AppLink to="/catalogo" className="underline-offset-2 hover:text-forja-700 hover:underline">
                Catálogo
              </AppLink>
            </li>
            <li aria-hidden="true">/</li>
            <li>
              <AppLink to={catalogueHref({ category: slugify(product.category) })} className="underline-offset-2 hover:text-forja-700 hover:underline">
                {product.category}
              </AppLink>
            </li>
            <li aria-hidden="true">/</li>
            <li aria-current="page" className="text-acero-900">
              {product.name}
            </li>
          </ol>
        </nav>

        <div className="mt-6 grid gap-10 lg:grid-cols-2">
          <ProductGallery images={product.images} category={product.category} sku={product.sku} name={product.name} />

          <div>
            <p className="text-sm font-semibold tracking-wide text-forja-700 uppercase">{product.category}</p>
            <h1 className="mt-1 text-3xl font-bold tracking-tight text-acero-900">{product.name}</h1>
            <p className="mt-2 font-mono text-sm text-acero-600">SKU {product.sku}</p>
            <p className="mt-4 text-lg text-acero-800">{product.shortDescription}</p>

            <div className="mt-6 rounded-lg border border-acero-200 p-5">
              <ProductPrice priceCentavos={product.priceCentavos} ivaBp={product.ivaBp} unit={product.unit} size="page" showNet />
              <dl className="mt-4 grid grid-cols-2 gap-x-4 gap-y-2 text-sm">
                <dt className="text-acero-700">Existencia</dt>
                <dd data-testid="existencia">
                  <StockBadge stock={product.stock} unit={product.unit} />
                </dd>
                <dt className="text-acero-700">Unidad de venta</dt>
                <dd className="text-acero-900">{unitName(product.unit)}</dd>
                <dt className="text-acero-700">Pedido mínimo</dt>
                <dd className="text-acero-900">{formatUnitQuantity(product.minOrder, product.unit)}</dd>
              </dl>
              <div className="mt-5">
                <AddToCartForm product={product} />
              </div>
            </div>

            <p className="mt-4 text-sm text-acero-700">
              Factura CFDI con el IVA desglosado. Pago por transferencia SPEI o al recoger en planta en Querétaro.
            </p>
          </div>
        </div>

        {product.model ? <ProductCad model={product.model} drawingSvg={product.drawingSvg} name={product.name} sku={product.sku} /> : null}

        {product.descriptionHtml ? (
          <section aria-labelledby="descripcion" className="mt-12 max-w-3xl">
            <h2 id="descripcion" className="text-2xl font-bold text-acero-900">
              Descripción y especificaciones
            </h2>
            <div className="prose-forja" dangerouslySetInnerHTML={{ __html: product.descriptionHtml }} />
          </section>
        ) : null}

        <aside className="mt-12 rounded-lg bg-acero-50 p-6">
          <h2 className="text-lg font-semibold text-acero-900">¿Necesita otra medida, material o volumen?</h2>
          <p className="mt-1 text-acero-800">Fabricamos variantes sobre plano con el mismo proceso. Un ingeniero le responde en uno a tres días hábiles.</p>
          <AppLink to="/cotiza" className="btn-secondary mt-4">
            Solicitar cotización
          </AppLink>
        </aside>
      </div>
    </>
  );
}
