import { parseWithZod } from "@conform-to/zod/v4";
import { Form, data, redirect, useSearchParams } from "react-router";
import type { Route } from "./+types/producto";
import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";
import { AppLink } from "~/components/ui/app-link";
import { FormErrors, FormNotice } from "~/components/ui/form";
import { requireStaffArea } from "~/features/accounts/guards.server";
import { NEW_PRODUCT_DEFAULTS, ProductForm, type ProductFormDefaults } from "~/features/catalogue/components/product-form";
import { ProductImagesManager } from "~/features/catalogue/components/product-images-manager";
import { ProductModelPanel } from "~/features/catalogue/components/product-model-panel";
import { MODEL_UPLOAD_LIMITS, uploadProductModel } from "~/features/catalogue/cad/model-upload.server";
import { ImageAltSchema, pesosInput, PRODUCT_NOT_SAVED, ProductSchema } from "~/features/catalogue/forms";
import { makeProductImageFirst, removeProductImage, updateProductImageAlt } from "~/features/catalogue/image-commands.server";
import { IMAGE_LIMITS } from "~/features/catalogue/images";
import { setProductActive } from "~/features/catalogue/product-commands.server";
import { saveProduct } from "~/features/catalogue/save-product.server";
import { getProductEditor } from "~/features/catalogue/staff-products.server";
import { formatDateTime } from "~/lib/format";
import { notFound } from "~/lib/errors";
import { replyToFailure } from "~/lib/form-reply";
import { requestMeta } from "~/lib/request-meta";
import { failureMessages, failureStatus, type Result } from "~/lib/result";
import { pageMeta } from "~/lib/seo";
import { isUuid } from "~/lib/uuid";
import { parseMultipartUpload } from "~/services/files/multipart.server";
import { removeQuietly, uploadsTmpDir } from "~/services/files/storage.server";
import { readForm } from "~/lib/request-body";

// /admin/productos/nuevo and /admin/productos/<id>: the product form, its images and its status.

export const meta: Route.MetaFunction = ({ loaderData }) =>
  pageMeta({ title: loaderData?.product ? loaderData.product.name : "Nuevo producto", description: "Alta y edición de productos del catálogo.", noindex: true });

const productIdParam = (id: string) => (id === "nuevo" ? null : id);

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireStaffArea(requestMeta(request, context), "productos");
  const editor = await getProductEditor(productIdParam(params.id));
  if (!editor) notFound(request);
  return editor;
}

// The screen posts two kinds of forms: the product form (multipart, with new photos) and the small
// urlencoded ones beside it (activate, image alt text, image order, image removal).
export async function action({ request, context, params }: Route.ActionArgs) {
  await requireStaffArea(requestMeta(request, context), "productos");
  const productId = productIdParam(params.id);
  if (productId !== null && !isUuid(productId)) notFound(request);
  const multipart = (request.headers.get("content-type") ?? "").startsWith("multipart/form-data");
  if (multipart && new URL(request.url).searchParams.has("modelo")) {
    if (productId === null) return notice(400, "Guarde primero el producto.", true);
    return saveModelForm(request, productId);
  }
  if (multipart) return saveProductForm(request, productId);
  if (productId === null) return notice(400, "Guarde primero el producto.", true);
  return productAction(request, productId, await readForm(request));
}

async function saveProductForm(request: Request, productId: string | null) {
  const upload = await parseMultipartUpload(request, IMAGE_LIMITS, uploadsTmpDir());
  if (!upload.ok) {
    const parsed = parseWithZod(upload.fields, { schema: ProductSchema });
    return data({ form: parsed.reply({ formErrors: [`${upload.message} No se guardó el producto.`] }), notice: null }, { status: upload.status });
  }
  try {
    const parsed = parseWithZod(upload.fields, { schema: ProductSchema });
    if (parsed.status !== "success") return data({ form: parsed.reply({ formErrors: [PRODUCT_NOT_SAVED] }), notice: null }, { status: 400 });
    const saved = await saveProduct({
      productId,
      values: parsed.value,
      images: upload.files.filter((file) => file.field === "images"),
      imageAlt: String(upload.fields.get("imageAlt") ?? ""),
    });
    if (saved.ok) throw redirect(`/admin/productos/${saved.value.id}?${saved.value.created ? "creado" : "guardado"}=1`);
    if (saved.kind === "not-found") notFound(request);
    const reply = replyToFailure(parsed, saved);
    return data({ form: reply.result, notice: null }, { status: reply.status });
  } finally {
    await removeQuietly(upload.files.map((file) => file.tmpPath));
  }
}

/** A STEP for the product's model (the panel beside the form); the model job builds it. */
async function saveModelForm(request: Request, productId: string) {
  const upload = await parseMultipartUpload(request, MODEL_UPLOAD_LIMITS, uploadsTmpDir());
  if (!upload.ok) return data({ form: null, notice: null, modelErrors: [upload.message] }, { status: upload.status });
  try {
    const file = upload.files.find((candidate) => candidate.field === "modelo");
    const result = await uploadProductModel(productId, file, String(upload.fields.get("material") ?? ""), String(upload.fields.get("acabado") ?? ""));
    if (result.ok) return data({ form: null, notice: { message: "Modelo recibido: estamos construyendo su dibujo, imagen y descargas.", error: false }, modelErrors: undefined });
    if (result.kind === "not-found") notFound(request);
    return data({ form: null, notice: null, modelErrors: failureMessages(result).fieldErrors.modelo ?? failureMessages(result).formErrors }, { status: failureStatus(result) });
  } finally {
    await removeQuietly(upload.files.map((file) => file.tmpPath));
  }
}

async function productAction(request: Request, productId: string, form: FormData) {
  const intent = String(form.get("intent") ?? "");
  const imageId = String(form.get("imageId") ?? "");
  switch (intent) {
    case "activar":
    case "desactivar": {
      const active = intent === "activar";
      if (!(await setProductActive(productId, active)).ok) notFound(request);
      return notice(200, active ? "Producto activado: ya aparece en el catálogo." : "Producto desactivado: ya no aparece en el catálogo; los pedidos que lo incluyen lo conservan.");
    }
    case "imagen-alt": {
      const parsed = ImageAltSchema.safeParse({ imageId, alt: form.get("alt") ?? "" });
      if (!parsed.success) return notice(400, parsed.error.issues[0]?.message ?? "Revise el texto alternativo.", true);
      return imageNotice(await updateProductImageAlt(productId, parsed.data.imageId, parsed.data.alt), "Texto alternativo guardado.");
    }
    case "imagen-primera":
      return imageNotice(await makeProductImageFirst(productId, imageId), "Imagen principal cambiada.");
    case "imagen-quitar":
      return imageNotice(await removeProductImage(productId, imageId), "Imagen eliminada.");
    default:
      return notice(400, "Acción desconocida.", true);
  }
}

function notice(status: number, message: string, error = false) {
  return data({ form: null, notice: { message, error }, modelErrors: undefined }, { status });
}

/** An image command's answer: the message when it worked, the failure's (image gone: 404) when not. */
function imageNotice(result: Result, done: string) {
  if (result.ok) return notice(200, done);
  return notice(failureStatus(result), failureMessages(result).formErrors.join(" "), true);
}

export default function AdminProductPage({ loaderData, actionData }: Route.ComponentProps) {
  const { product, categories } = loaderData;
  const [params] = useSearchParams();
  const defaults: ProductFormDefaults = product
    ? {
        name: product.name,
        sku: product.sku,
        slug: product.slug,
        category: product.category,
        shortDescription: product.shortDescription,
        description: product.description,
        price: pesosInput(product.priceCentavos),
        ivaBp: String(product.ivaBp),
        unit: product.unit,
        stock: String(product.stock),
        minOrder: String(product.minOrder),
        active: product.active ? "on" : undefined,
      }
    : NEW_PRODUCT_DEFAULTS;
  const saved = params.has("creado") ? "Producto creado." : params.has("guardado") ? "Cambios guardados." : null;

  return (
    <main id="contenido" className="p-6 sm:p-8">
      <p className="text-sm">
        <AppLink to="/admin/productos" className="font-semibold text-forja-700 underline underline-offset-2">
          ← Productos
        </AppLink>
      </p>
      <div className="mt-2 flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold text-acero-900">{product ? product.name : "Nuevo producto"}</h1>
          {product ? (
            <p className="mt-1 text-sm text-acero-700">
              SKU <span className="font-mono">{product.sku}</span> · {product.active ? "Activo" : "Inactivo"} · actualizado el {formatDateTime(product.updatedAt)}
            </p>
          ) : (
            <p className="mt-1 text-sm text-acero-700">Los precios se capturan netos; el catálogo los muestra con IVA incluido.</p>
          )}
        </div>
        {product?.active ? (
          <a href={`/catalogo/${product.slug}`} target="_blank" rel="noopener" className="btn-secondary py-2 text-sm">
            Ver en el catálogo
          </a>
        ) : null}
      </div>

      <div className="mt-4 space-y-2" aria-live="polite">
        {saved && !actionData ? <FormNotice>{saved}</FormNotice> : null}
        {actionData?.notice ? actionData.notice.error ? <FormErrors errors={[actionData.notice.message]} /> : <FormNotice>{actionData.notice.message}</FormNotice> : null}
      </div>

      <div className="mt-6 grid grid-cols-1 gap-8 xl:grid-cols-3">
        <div className="xl:col-span-2">
          <ProductForm
            key={product ? `${product.id}-${String(product.updatedAt)}` : "nuevo"}
            defaults={defaults}
            lastResult={actionData?.form}
            categories={categories}
            existingImages={product?.images.length ?? 0}
            isNew={!product}
          />
        </div>

        {product ? (
          <aside className="space-y-6">
            <section aria-labelledby="estado-titulo" className="rounded-lg border border-acero-200 bg-white p-5">
              <h2 id="estado-titulo" className="text-lg font-semibold text-acero-900">
                Estado
              </h2>
              <p className="mt-1 text-sm text-acero-700">
                {product.active
                  ? "Activo: aparece en el catálogo y se puede agregar al carrito."
                  : "Inactivo: no aparece en el catálogo ni se puede comprar; los pedidos que ya lo incluyen lo conservan."}
              </p>
              <Form method="post" className="mt-3">
                <button type="submit" name="intent" value={product.active ? "desactivar" : "activar"} className={product.active ? "btn-secondary py-2 text-sm" : "btn-dark py-2 text-sm"}>
                  {product.active ? "Desactivar producto" : "Activar producto"}
                </button>
              </Form>
            </section>
            <ProductModelPanel model={product.model} error={actionData && "modelErrors" in actionData ? actionData.modelErrors : undefined} />
            <section aria-labelledby="imagenes-titulo" className="rounded-lg border border-acero-200 bg-acero-50 p-5">
              <h2 id="imagenes-titulo" className="text-lg font-semibold text-acero-900">
                Imágenes guardadas
              </h2>
              <p className="mt-1 mb-4 text-sm text-acero-700">La principal aparece en el catálogo y en el carrito.</p>
              <ProductImagesManager images={product.images} category={product.category} sku={product.sku} />
            </section>
          </aside>
        ) : null}
      </div>
    </main>
  );
}

export function ErrorBoundary() {
  return <RouteErrorBoundary />;
}
