import { eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { products } from "~/db/schema/catalogue";
import { invalid, notFoundResult, ok, type Result } from "~/lib/result";
import { detectFileKind } from "~/services/files/detect-type.server";
import { getFileStore } from "~/services/files/file-store.server";
import type { UploadedFile } from "~/services/files/multipart.server";
import { newStoragePath } from "~/services/files/storage.server";
import { PART_FINISHES, type PartFinish } from "./finishes";
import { modelOfProduct, setStepModel, type ProductModelView } from "./model-rows.server";

// Staff give a product a model of its own (issue 12 §1): a STEP file, checked by content, stored,
// and built by the model job into the same drawing, viewer and downloads as the demo parts.

export const MODEL_UPLOAD_LIMITS = { maxFiles: 1, maxFileBytes: 30 * 1024 * 1024, maxTotalBytes: 30 * 1024 * 1024 } as const;

export async function uploadProductModel(productId: string, file: UploadedFile | undefined, material: string, finish: string): Promise<Result> {
  if (!file) return invalid({ fieldErrors: { modelo: ["Elija un archivo STEP (.step o .stp)."] } });
  if (detectFileKind({ name: file.name, head: file.head, tail: file.tail, size: file.size }) !== "step") {
    return invalid({ fieldErrors: { modelo: [`«${file.name}» no es un archivo STEP válido (.step o .stp que empiece con ISO-10303-21).`] } });
  }
  const cleanMaterial = material.trim().slice(0, 120);
  const cleanFinish: PartFinish = (PART_FINISHES as readonly string[]).includes(finish) ? (finish as PartFinish) : "acero";
  const [product] = await getDb().select({ id: products.id, name: products.name, sku: products.sku }).from(products).where(eq(products.id, productId));
  if (!product) return notFoundResult("El producto ya no existe.");
  const path = `${newStoragePath()}.step`;
  await getFileStore().putFile(path, file.tmpPath);
  await setStepModel(product, { path, name: file.name.slice(0, 200), size: file.size, sha256: file.sha256 }, cleanMaterial, cleanFinish);
  return ok();
}

export { modelOfProduct, type ProductModelView };
