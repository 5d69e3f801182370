import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { RequestMeta } from "~/lib/request-meta";
import { parseMultipartUpload, type UploadedFile } from "~/services/files/multipart.server";
import { removeQuietly, uploadsTmpDir } from "~/services/files/storage.server";
import { IMAGE_LIMITS } from "./images";
import {
  attachProductImages,
  countProductImages,
  discardPreparedImages,
  makeProductImageFirst,
  prepareProductImages,
  removeProductImage,
  updateProductImageAlt,
} from "./images.server";
import { createProduct, getProductForStaff, isProductId, setProductActive, updateProduct } from "./products.server";
import { ImageAltSchema, ProductSchema } from "./forms";

// Everything the staff product screen posts: the product form (multipart, with new images) and the
// small forms beside it (activate, image alt text, image order, image removal).

export type ProductFormResult =
  | { kind: "saved"; id: string; created: boolean }
  | { kind: "form"; status: number; result: SubmissionResult<string[]> }
  | { kind: "notice"; status: number; message: string; error: boolean }
  | { kind: "not-found" };

const NOT_SAVED = "No se guardó el producto: revise los campos marcados.";

/** `productId` is null on /admin/productos/nuevo. Staff only: the route has checked it. */
export async function submitProductForm(meta: RequestMeta, productId: string | null): Promise<ProductFormResult> {
  if (productId !== null && !isProductId(productId)) return { kind: "not-found" };
  const contentType = meta.request.headers.get("content-type") ?? "";
  if (contentType.startsWith("multipart/form-data")) return saveProduct(meta, productId);
  if (productId === null) return { kind: "notice", status: 400, message: "Guarde primero el producto.", error: true };
  return smallAction(await meta.request.formData(), productId);
}

async function saveProduct(meta: RequestMeta, productId: string | null): Promise<ProductFormResult> {
  const upload = await parseMultipartUpload(meta.request, IMAGE_LIMITS, uploadsTmpDir());
  if (!upload.ok) {
    const parsed = parseWithZod(upload.fields, { schema: ProductSchema });
    return { kind: "form", status: upload.status, result: parsed.reply({ formErrors: [`${upload.message} No se guardó el producto.`] }) };
  }
  try {
    return await saveChecked(upload.fields, upload.files, productId);
  } finally {
    await removeQuietly(upload.files.map((file) => file.tmpPath));
  }
}

async function saveChecked(fields: FormData, files: UploadedFile[], productId: string | null): Promise<ProductFormResult> {
  const parsed = parseWithZod(fields, { schema: ProductSchema });
  if (parsed.status !== "success") return { kind: "form", status: 400, result: parsed.reply({ formErrors: [NOT_SAVED] }) };

  if (productId && !(await getProductForStaff(productId))) return { kind: "not-found" };
  const images = files.filter((file) => file.field === "images");
  const prepared = await prepareProductImages(images, productId ? await countProductImages(productId) : 0);
  if (!prepared.ok) {
    return {
      kind: "form",
      status: 400,
      result: parsed.reply({ formErrors: ["No se guardó el producto: revise las imágenes."], fieldErrors: { images: prepared.errors } }),
    };
  }

  const saved = productId ? await updateProduct(productId, parsed.value) : await createProduct(parsed.value);
  if (!saved.ok) {
    await discardPreparedImages(prepared.prepared);
    if (saved.status === 404) return { kind: "not-found" };
    return { kind: "form", status: 400, result: parsed.reply({ formErrors: saved.formErrors ?? [NOT_SAVED], fieldErrors: saved.fieldErrors as Record<string, string[]> }) };
  }
  const alt = String(fields.get("imageAlt") ?? "").trim().slice(0, 200) || parsed.value.name;
  await attachProductImages(saved.id, prepared.prepared, alt);
  return { kind: "saved", id: saved.id, created: productId === null };
}

async function smallAction(form: FormData, productId: string): Promise<ProductFormResult> {
  const intent = String(form.get("intent") ?? "");
  const imageId = String(form.get("imageId") ?? "");
  switch (intent) {
    case "activar":
    case "desactivar": {
      const active = intent === "activar";
      if (!(await setProductActive(productId, active))) return { kind: "not-found" };
      return {
        kind: "notice",
        status: 200,
        message: active ? "Producto activado: ya aparece en el catálogo." : "Producto desactivado: ya no aparece en el catálogo; los pedidos que lo incluyen lo conservan.",
        error: false,
      };
    }
    case "imagen-alt": {
      const parsed = ImageAltSchema.safeParse({ imageId, alt: form.get("alt") ?? "" });
      if (!parsed.success) return { kind: "notice", status: 400, message: parsed.error.issues[0]?.message ?? "Revise el texto alternativo.", error: true };
      if (!(await updateProductImageAlt(productId, parsed.data.imageId, parsed.data.alt))) return imageGone();
      return { kind: "notice", status: 200, message: "Texto alternativo guardado.", error: false };
    }
    case "imagen-primera":
      if (!(await makeProductImageFirst(productId, imageId))) return imageGone();
      return { kind: "notice", status: 200, message: "Imagen principal cambiada.", error: false };
    case "imagen-quitar":
      if (!(await removeProductImage(productId, imageId))) return imageGone();
      return { kind: "notice", status: 200, message: "Imagen eliminada.", error: false };
    default:
      return { kind: "notice", status: 400, message: "Acción desconocida.", error: true };
  }
}

function imageGone(): ProductFormResult {
  return { kind: "notice", status: 404, message: "Esa imagen ya no existe; recargue la página.", error: true };
}
