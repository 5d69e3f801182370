import type { ProductImageView } from "../images";
import { ProductImage } from "./product-image";

/**
 * The product's photos: the first one large and loaded at once (it is the page's main image), the
 * others below it, loaded as they come near. Every image has its width and height: nothing shifts.
 */
export function ProductGallery({ images, category, sku, name }: { images: ProductImageView[]; category: string; sku: string; name: string }) {
  const [main, ...rest] = images;
  if (!main) {
    return <ProductImage image={null} category={category} sku={sku} sizes="100vw" className="aspect-[4/3] w-full rounded-lg border border-acero-200" />;
  }
  return (
    <div>
      <ProductImage
        image={main}
        category={category}
        sku={sku}
        sizes="(min-width: 1152px) 34rem, (min-width: 1024px) 48vw, 100vw"
        fallbackWidth={1024}
        eager
        alt={main.alt || name}
        className="h-auto w-full rounded-lg border border-acero-200"
      />
      {rest.length ? (
        <ul className="mt-4 grid grid-cols-2 gap-4" aria-label="Más fotografías">
          {rest.map((image) => (
            <li key={image.id}>
              <ProductImage
                image={image}
                category={category}
                sku={sku}
                sizes="(min-width: 1152px) 17rem, (min-width: 1024px) 24vw, 50vw"
                fallbackWidth={640}
                alt={image.alt || name}
                className="h-auto w-full rounded-lg border border-acero-200"
              />
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
