import { AppLink } from "~/components/ui/app-link";
import type { ProductImageView } from "../images";
import { formatUnitQuantity } from "~/lib/units";
import { ProductImage } from "./product-image";
import { ProductPrice } from "./product-price";
import { StockBadge } from "./stock-badge";

export interface ProductCardData {
  slug: string;
  sku: string;
  name: string;
  category: string;
  shortDescription: string;
  priceCentavos: number;
  ivaBp: number;
  unit: string;
  stock: number;
  minOrder: number;
  image: ProductImageView | null;
}

/** One product in the catalogue grid; the whole card's title links to its page. */
export function ProductCard({ product, eager }: { product: ProductCardData; eager: boolean }) {
  return (
    <article className="relative flex h-full flex-col overflow-hidden rounded-lg border border-acero-200 bg-white shadow-sm transition-shadow focus-within:shadow-md hover:shadow-md">
      <ProductImage
        image={product.image}
        category={product.category}
        sku={product.sku}
        sizes="(min-width: 1024px) 22rem, (min-width: 640px) 50vw, 100vw"
        fallbackWidth={640}
        eager={eager}
        alt=""
        className="aspect-[4/3] h-auto w-full border-b border-acero-100"
      />
      <div className="flex flex-1 flex-col p-4">
        <p className="text-xs font-semibold tracking-wide text-forja-700 uppercase">{product.category}</p>
        <h2 className="mt-1 text-base font-semibold text-acero-900">
          <AppLink to={`/catalogo/${product.slug}`} className="after:absolute after:inset-0 hover:text-forja-700">
            {product.name}
          </AppLink>
        </h2>
        <p className="mt-1 font-mono text-xs text-acero-600">SKU {product.sku}</p>
        <p className="mt-2 line-clamp-3 text-sm text-acero-700">{product.shortDescription}</p>
        <div className="mt-auto pt-4">
          <ProductPrice priceCentavos={product.priceCentavos} ivaBp={product.ivaBp} unit={product.unit} />
          <div className="mt-2 flex flex-wrap items-center gap-2 text-xs text-acero-700">
            <StockBadge stock={product.stock} unit={product.unit} />
            {product.minOrder > 1 ? <span>Pedido mínimo: {formatUnitQuantity(product.minOrder, product.unit)}</span> : null}
          </div>
        </div>
      </div>
    </article>
  );
}
