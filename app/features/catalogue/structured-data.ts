import { priceWithIva } from "~/lib/money";
import { productImageUrl, type ProductImageView } from "./images";
import { stockStatus } from "./forms";

const AVAILABILITY = {
  disponible: "https://schema.org/InStock",
  pocas: "https://schema.org/LimitedAvailability",
  "sobre-pedido": "https://schema.org/BackOrder",
} as const;

/** schema.org Product for a product page: the offer's price is one unit in MXN with IVA included. */
export function productJsonLd(
  product: { slug: string; sku: string; name: string; category: string; shortDescription: string; priceCentavos: number; ivaBp: number; unit: string; stock: number; minOrder: number; images: ProductImageView[] },
  options: { publicUrl: string; sellerName: string },
) {
  const url = `${options.publicUrl}/catalogo/${product.slug}`;
  const price = (priceWithIva(product.priceCentavos, product.ivaBp) / 100).toFixed(2);
  return {
    "@context": "https://schema.org",
    "@type": "Product",
    "@id": `${url}#producto`,
    name: product.name,
    sku: product.sku,
    mpn: product.sku,
    description: product.shortDescription,
    category: product.category,
    url,
    brand: { "@type": "Brand", name: options.sellerName },
    ...(product.images.length
      ? { image: product.images.map((image) => `${options.publicUrl}${productImageUrl(image.id, image.widths.at(-1)!)}`) }
      : {}),
    offers: {
      "@type": "Offer",
      url,
      price,
      priceCurrency: "MXN",
      availability: AVAILABILITY[stockStatus(product.stock, product.unit).level],
      itemCondition: "https://schema.org/NewCondition",
      priceSpecification: { "@type": "UnitPriceSpecification", price, priceCurrency: "MXN", valueAddedTaxIncluded: true },
      eligibleQuantity: { "@type": "QuantitativeValue", minValue: product.minOrder, unitText: product.unit },
      seller: { "@type": "Organization", name: options.sellerName },
    },
  };
}
