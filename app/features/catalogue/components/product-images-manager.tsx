import { Form } from "react-router";
import type { ProductImageView } from "../images";
import { ProductImage } from "./product-image";

const smallButton = "rounded-md border border-acero-300 bg-white px-3 py-1 text-sm font-medium text-acero-900 hover:bg-acero-50";

/** The product's saved images: alt text, which one goes first, and removal. Each is its own small form. */
export function ProductImagesManager({ images, category, sku }: { images: ProductImageView[]; category: string; sku: string }) {
  if (images.length === 0) {
    return <p className="text-sm text-acero-700">Sin imágenes: el catálogo muestra un recuadro con la inicial de la categoría y el SKU.</p>;
  }
  return (
    <ol className="space-y-4">
      {images.map((image, index) => (
        <li key={image.id} className="flex flex-col gap-3 rounded-lg border border-acero-200 bg-white p-3 sm:flex-row xl:flex-col">
          <ProductImage image={image} category={category} sku={sku} sizes="(min-width: 1280px) 20rem, 10rem" fallbackWidth={640} alt="" className="aspect-[4/3] w-full shrink-0 rounded border border-acero-100 sm:w-40 xl:w-full" />
          <div className="min-w-0 flex-1 space-y-2">
            <p className="text-xs text-acero-600">
              {index === 0 ? <span className="mr-2 rounded bg-forja-50 px-1.5 py-0.5 font-semibold text-forja-700">Principal</span> : null}
              Original de {image.width} × {image.height} px · variantes de {image.widths.join(", ")} px
            </p>
            <Form method="post" className="flex flex-wrap items-end gap-2">
              <input type="hidden" name="imageId" value={image.id} />
              <div className="min-w-48 flex-1">
                <label htmlFor={`alt-${image.id}`} className="block text-xs font-semibold text-acero-900">
                  Texto alternativo
                </label>
                <input
                  id={`alt-${image.id}`}
                  name="alt"
                  type="text"
                  required
                  minLength={3}
                  maxLength={200}
                  defaultValue={image.alt}
                  className="mt-1 block w-full rounded-md border border-acero-300 bg-white px-2 py-1 text-sm"
                />
              </div>
              <button type="submit" name="intent" value="imagen-alt" className={smallButton}>
                Guardar texto
              </button>
            </Form>
            <div className="flex flex-wrap gap-2">
              {index > 0 ? (
                <Form method="post">
                  <input type="hidden" name="imageId" value={image.id} />
                  <button type="submit" name="intent" value="imagen-primera" className={smallButton}>
                    Hacer principal
                  </button>
                </Form>
              ) : null}
              <Form
                method="post"
                onSubmit={(event) => {
                  if (!window.confirm("¿Quitar esta imagen? Se borra del catálogo y del servidor.")) event.preventDefault();
                }}
              >
                <input type="hidden" name="imageId" value={image.id} />
                <button type="submit" name="intent" value="imagen-quitar" className={`${smallButton} text-red-800`} aria-label={`Quitar la imagen ${index + 1}`}>
                  Quitar
                </button>
              </Form>
            </div>
          </div>
        </li>
      ))}
    </ol>
  );
}
