import { eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { productModels, products, type ProductModelOutput } from "~/db/schema/catalogue";
import { logger } from "~/lib/logger.server";
import { getFileStore, type StoredFile } from "~/services/files/file-store.server";
import { isPlainDrawing } from "./drawing";

// A product model's downloads (docs/decisions/0025): /catalogo/<slug>/cad/<fingerprint>/<file>,
// the STEP, the STL and the drawing. Public while the product is active (like its photos), staff
// only otherwise. The fingerprint in the address changes with the model, so a download is cached
// for a year and a new model is a new address.

export const MODEL_FILES = {
  "modelo.step": { key: "step", type: "model/step", extension: "step" },
  "modelo.stl": { key: "stl", type: "model/stl", extension: "stl" },
  "dibujo.svg": { key: "drawing", type: "image/svg+xml", extension: "svg" },
} as const satisfies Record<string, { key: keyof ProductModelOutput["files"]; type: string; extension: string }>;

export type ModelFileName = keyof typeof MODEL_FILES;

export function modelFileUrl(slug: string, fingerprint: string, file: ModelFileName): string {
  return `/catalogo/${encodeURIComponent(slug)}/cad/${fingerprint}/${file}`;
}

export interface ModelFile {
  file: StoredFile;
  type: string;
  /** What the browser saves it as: the SKU and the extension. */
  downloadName: string;
  visibility: "public" | "private";
}

export async function getModelFile(input: { slug: string; fingerprint: string; fileName: string; mayViewInactive: () => Promise<boolean> }): Promise<ModelFile | null> {
  const kind = Object.hasOwn(MODEL_FILES, input.fileName) ? MODEL_FILES[input.fileName as ModelFileName] : null;
  if (!kind || !/^[0-9a-f]{32}$/.test(input.fingerprint)) return null;
  const slug = input.slug.trim().toLowerCase();
  if (!slug || slug.length > 120) return null;
  const [row] = await getDb()
    .select({ sku: products.sku, active: products.active, output: productModels.output })
    .from(products)
    .innerJoin(productModels, eq(productModels.productId, products.id))
    .where(eq(products.slug, slug))
    .limit(1);
  // A page built from the previous model asks for its files: they are gone with it.
  if (!row?.output || row.output.fingerprint !== input.fingerprint) return null;
  if (!row.active && !(await input.mayViewInactive())) return null;
  const file = await getFileStore().open(row.output.files[kind.key].path);
  if (!file) {
    logger.error({ slug, file: input.fileName }, "product model file missing from the file store");
    return null;
  }
  return { file, type: kind.type, downloadName: `${row.sku}.${kind.extension}`, visibility: row.active ? "public" : "private" };
}

/** What a product page shows of its model: the drawing and the downloads, by address. */
export interface PublicModel {
  drawing: { url: string; width: number; height: number };
  step: { url: string; bytes: number };
  stl: { url: string; bytes: number };
  size: { x: number; y: number; z: number };
  volumeMm3: number;
}

export function publicModel(slug: string, output: ProductModelOutput | null): PublicModel | null {
  if (!output) return null;
  const { fingerprint, files } = output;
  return {
    drawing: { url: modelFileUrl(slug, fingerprint, "dibujo.svg"), width: files.drawing.width, height: files.drawing.height },
    step: { url: modelFileUrl(slug, fingerprint, "modelo.step"), bytes: files.step.bytes },
    stl: { url: modelFileUrl(slug, fingerprint, "modelo.stl"), bytes: files.stl.bytes },
    size: output.size,
    volumeMm3: output.volumeMm3,
  };
}

/** Past this a drawing is shown as an image, not written into the page (ours are 5–15 KB). */
const INLINE_DRAWING_LIMIT = 200 * 1024;

/**
 * The drawing's SVG, to write into the product page itself (docs/decisions/0071): as an <img>,
 * Chromium builds a separate document for it and paints its vectors on the page's main thread,
 * 30–60 ms on a small machine. The drawing is made by the model job (drawing.ts, its text escaped),
 * never uploaded. Null when it cannot be read or is not that drawing: the page shows the <img>.
 */
export async function inlineDrawing(output: ProductModelOutput | null): Promise<string | null> {
  if (!output || output.files.drawing.bytes > INLINE_DRAWING_LIMIT) return null;
  try {
    // Null past the limit, whatever the row says the size is.
    const bytes = await getFileStore().readBytes(output.files.drawing.path, INLINE_DRAWING_LIMIT);
    if (!bytes) return null;
    const text = bytes.toString("utf8");
    return isPlainDrawing(text) ? text : null;
  } catch (error) {
    logger.warn({ err: error }, "could not read a product drawing for its page");
    return null;
  }
}
