import { and, eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { productImages } from "~/db/schema/catalogue";
import { isUuid } from "~/lib/uuid";
import { getFileStore } from "~/services/files/file-store.server";
import type { RecordFileSource, ServedFile } from "~/services/files/record-files.server";
import { cachedThumb } from "~/services/files/thumbs.server";
import { IMAGE_WIDTHS } from "./images";
import { productosCollection } from "./record-collection.server";

// The files of `productos` for the files API (docs/decisions/0016): `imagenes` names each photo
// `<image id>.webp`. Unprotected, as PocketBase's public file fields: whoever may view the product
// (everyone while it is active, staff always) gets its photos. The "original" is the widest WebP
// variant we keep (the uploaded PNG/JPG is never stored); `?thumb=` takes the sizes listed here —
// `Wx0` of a stored width is that variant as it is, the others are made from the smallest variant
// that covers them (services/files/thumbs). Any other size gets the original, as in PocketBase.

/** The thumb sizes `imagenes` offers (PocketBase's field option `thumbs`, plus its default 100x100). */
export const PRODUCT_IMAGE_THUMBS: readonly string[] = [
  "100x100",
  "100x100t",
  "100x100b",
  "100x100f",
  "300x300",
  "300x300f",
  "600x600",
  "600x600f",
  "0x300",
  "0x600",
  ...IMAGE_WIDTHS.map((width) => `${width}x0`),
];

/** Variants are small (at most 1600 px wide WebP); anything bigger is not ours to resize in memory. */
const MAX_SOURCE_BYTES = 8 * 1024 * 1024;

async function openProductImage({ record, fileName, thumb }: Parameters<RecordFileSource["open"]>[0]): Promise<ServedFile | null> {
  const imageId = fileName.slice(0, -".webp".length);
  if (!fileName.endsWith(".webp") || !isUuid(imageId)) return null;
  const [image] = await getDb()
    .select({ variants: productImages.variants })
    .from(productImages)
    .where(and(eq(productImages.id, imageId), eq(productImages.productId, record.id)))
    .limit(1);
  const variants = [...(image?.variants ?? [])].sort((a, b) => a.width - b.width);
  const widest = variants.at(-1);
  if (!widest) return null;
  const store = getFileStore();

  const size = thumb && PRODUCT_IMAGE_THUMBS.includes(thumb) ? thumb : null;
  const exact = size?.endsWith("x0") ? variants.find((variant) => `${variant.width}x0` === size) : undefined;
  if (size && !exact) {
    const [wantWidth, wantHeight] = size.replace(/[tbf]$/, "").split("x").map(Number) as [number, number];
    const source = variants.find((variant) => variant.width >= wantWidth && variant.height >= wantHeight) ?? widest;
    const body = await cachedThumb(source.path, size, async () => {
      const bytes = await store.readBytes(source.path, MAX_SOURCE_BYTES);
      if (!bytes) throw new Error(`product image variant ${source.path} is missing`);
      return bytes;
    }).catch(() => null);
    // As PocketBase: a thumb that cannot be made falls back to the original.
    if (body) return { name: `${size}_${fileName}`, contentType: "image/webp", size: body.length, body };
  }
  const variant = exact ?? widest;
  const stored = await store.open(variant.path);
  if (!stored) return null;
  return { name: exact ? `${size}_${fileName}` : fileName, contentType: "image/webp", size: stored.size, modified: stored.storedAt, body: stored.body };
}

export const productosFiles: RecordFileSource = {
  collection: productosCollection,
  fields: ["imagenes"],
  protected: false,
  open: openProductImage,
};
