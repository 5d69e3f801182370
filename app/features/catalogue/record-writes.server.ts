import { asc, eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { productImages, products } from "~/db/schema/catalogue";
import { priceWithIva } from "~/lib/money";
import { notFoundResult, ok, type Result } from "~/lib/result";
import { isUuid } from "~/lib/uuid";
import type { RecordWriteInput, RecordWriter } from "~/services/records/collection.server";
import {
  boolField,
  FIELD_CODES,
  hasField,
  isStaffWriter,
  numberField,
  recordFieldFailure,
  refuseWrite,
  stringListField,
  textField,
  type RecordFieldError,
} from "~/services/records/writes.server";
import { IVA_RATES, pesosInput, ProductSchema, type ProductInput } from "./forms";
import { removeProductImage } from "./image-commands.server";
import { deleteProduct } from "./product-commands.server";
import { saveProduct } from "./save-product.server";

// The record API's writes on `productos` (docs/decisions/0015): staff only, through the staff
// form's own schema and commands — saveProduct (values and new photos all or nothing, photos
// checked by content and converted by the image pipeline), removeProductImage, deleteProduct.
//
// Fields, by their API names: nombre, sku, slug, categoria, resumen, descripcion, precio (pesos
// IVA included, as the record reads; stored as the net price that gives exactly that figure),
// iva (16, 8 or 0 %), existencia, unidad, minimo, activo. An update changes only the fields its
// body names. `imagenes`, as PocketBase's file field: files sent under `imagenes`, `imagenes+` or
// `+imagenes` are added (on an update, files under plain `imagenes` replace the current ones);
// `imagenes-` with file names removes those; `imagenes` with file names keeps only those.

/** API name → the staff form's field (ProductSchema), for values and for its error messages. */
const FORM_FIELD = {
  nombre: "name",
  sku: "sku",
  slug: "slug",
  categoria: "category",
  resumen: "shortDescription",
  descripcion: "description",
  precio: "price",
  iva: "ivaBp",
  unidad: "unit",
  existencia: "stock",
  minimo: "minOrder",
  activo: "active",
} as const satisfies Record<string, keyof ProductInput>;
type ApiField = keyof typeof FORM_FIELD;
const API_FIELD = Object.fromEntries(Object.entries(FORM_FIELD).map(([api, form]) => [form, api])) as Record<string, ApiField>;

const TEXT_FIELDS = ["nombre", "sku", "slug", "categoria", "resumen", "descripcion", "unidad"] as const;
const WHOLE_FIELDS = ["existencia", "minimo"] as const;

type CurrentProduct = typeof products.$inferSelect;

const fieldError = (message: string, code: string = FIELD_CODES.invalid): RecordFieldError => ({ code, message });

/**
 * The net centavos whose price with IVA (rounded as the catalogue rounds) is exactly `grossCentavos`,
 * or null when no net price gives that figure at this rate.
 */
export function netForGross(grossCentavos: number, ivaBp: number): number | null {
  const guess = Math.round((grossCentavos * 10_000) / (10_000 + ivaBp));
  for (const net of [guess, guess - 1, guess + 1]) if (net > 0 && priceWithIva(net, ivaBp) === grossCentavos) return net;
  return null;
}

/** The form's values: the current product's (on update), overwritten by the fields the body names. */
function formValues(input: RecordWriteInput, current: CurrentProduct | null): { values: Record<string, unknown>; errors: Record<string, RecordFieldError> } {
  const errors: Record<string, RecordFieldError> = {};
  const values: Record<string, unknown> = current
    ? {
        name: current.name,
        sku: current.sku,
        slug: current.slug,
        category: current.category,
        shortDescription: current.shortDescription,
        description: current.description,
        ivaBp: current.ivaBp,
        unit: current.unit,
        stock: current.stock,
        minOrder: current.minOrder,
        active: current.active,
      }
    : { ivaBp: 1600, unit: "pieza", stock: 0, minOrder: 1, active: true };

  for (const field of TEXT_FIELDS) {
    if (!hasField(input, field)) continue;
    const text = textField(input, field);
    if (text === undefined) errors[field] = fieldError("Escriba un texto.");
    // An empty slug is made from the name, as in the panel.
    else values[FORM_FIELD[field]] = field === "slug" && text.trim() === "" ? undefined : text;
  }
  for (const field of WHOLE_FIELDS) {
    const number = numberField(input, field);
    if (number === null) errors[field] = fieldError("Escriba un número entero.");
    else if (number !== undefined) values[FORM_FIELD[field]] = number;
  }
  const active = boolField(input, "activo");
  if (active === null) errors.activo = fieldError("Indique verdadero o falso.");
  else if (active !== undefined) values.active = active;

  const iva = numberField(input, "iva");
  if (iva === null || (iva !== undefined && !IVA_RATES.some((rate) => rate.value === Math.round(iva * 100)))) {
    errors.iva = fieldError(`Use una de las tasas: ${IVA_RATES.map((rate) => rate.value / 100).join(", ")}.`);
  } else if (iva !== undefined) values.ivaBp = Math.round(iva * 100);

  // The price the record shows is gross; the product stores the net price that gives it.
  const precio = numberField(input, "precio");
  const ivaBp = values.ivaBp as number;
  const grossCentavos = precio === undefined || precio === null ? (current ? priceWithIva(current.priceCentavos, current.ivaBp) : undefined) : Math.round(precio * 100);
  if (precio === null || (precio !== undefined && precio <= 0)) errors.precio = fieldError("Escriba un precio mayor que cero en pesos, IVA incluido.");
  else if (grossCentavos === undefined) errors.precio = fieldError("Escriba el precio en pesos, IVA incluido.", FIELD_CODES.required);
  else if (!errors.iva) {
    const net = netForGross(grossCentavos, ivaBp);
    if (net === null) errors.precio = fieldError(`Con IVA de ${ivaBp / 100} % ningún precio neto en centavos da exactamente ${(grossCentavos / 100).toFixed(2)}; ajuste un centavo.`);
    else values.price = pesosInput(net);
  }
  return { values, errors };
}

/** The staff form's validation, with its messages under the API's field names. */
function parseProduct(input: RecordWriteInput, current: CurrentProduct | null) {
  const { values, errors } = formValues(input, current);
  const parsed = ProductSchema.safeParse(values);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = API_FIELD[String(issue.path[0])] ?? String(issue.path[0]);
      const missing = values[String(issue.path[0])] === undefined;
      errors[field] ??= fieldError(issue.message, missing ? FIELD_CODES.required : FIELD_CODES.invalid);
    }
  }
  return Object.keys(errors).length || !parsed.success ? { ok: false as const, errors } : { ok: true as const, values: parsed.data };
}

/** Files for new images: under `imagenes+`, `+imagenes` and (on create, or to replace) `imagenes`. */
function newImageFiles(input: RecordWriteInput) {
  return [...(input.files["imagenes"] ?? []), ...(input.files["+imagenes"] ?? []), ...(input.files["imagenes+"] ?? [])].map((file) => ({ ...file, field: "images" }));
}

async function currentProduct(id: string): Promise<CurrentProduct | null> {
  if (!isUuid(id)) return null;
  const [row] = await getDb().select().from(products).where(eq(products.id, id)).limit(1);
  return row ?? null;
}

/** The images to remove before adding new ones, from `imagenes-`, `imagenes` (names to keep) and files under plain `imagenes` (replace). */
async function imagesToRemove(productId: string, input: RecordWriteInput): Promise<string[]> {
  const existing = (await getDb().select({ id: productImages.id }).from(productImages).where(eq(productImages.productId, productId)).orderBy(asc(productImages.position))).map(
    (row) => row.id,
  );
  const idOf = (name: string) => name.replace(/\.webp$/, "");
  const remove = new Set((stringListField(input, "imagenes-") ?? []).map(idOf));
  const keep = stringListField(input, "imagenes");
  if (keep !== undefined) {
    const kept = new Set(keep.map(idOf));
    for (const id of existing) if (!kept.has(id)) remove.add(id);
  } else if ((input.files["imagenes"] ?? []).length > 0) {
    for (const id of existing) remove.add(id);
  }
  return existing.filter((id) => remove.has(id));
}

const imageFailure = (failure: Result<unknown>) =>
  !failure.ok && failure.kind === "invalid" && failure.fieldErrors.images
    ? recordFieldFailure({ imagenes: fieldError(failure.fieldErrors.images.join(" "), FIELD_CODES.file) })
    : null;

/** Errors of a save, under the API's names (SKU and slug clashes, images). */
function saveFailure(failure: Extract<Result<unknown>, { ok: false }>) {
  const images = imageFailure(failure);
  if (images) return images;
  if (failure.kind !== "invalid" || Object.keys(failure.fieldErrors).length === 0) return failure;
  return recordFieldFailure(
    Object.fromEntries(Object.entries(failure.fieldErrors).map(([field, messages]) => [API_FIELD[field] ?? field, fieldError(messages.join(" "))])),
  );
}

export async function createProducto(input: RecordWriteInput, writer: RecordWriter): Promise<Result<string>> {
  if (!isStaffWriter(writer)) return refuseWrite(writer);
  const parsed = parseProduct(input, null);
  if (!parsed.ok) return recordFieldFailure(parsed.errors);
  const saved = await saveProduct({ productId: null, values: parsed.values, images: newImageFiles(input), imageAlt: "" });
  return saved.ok ? ok(saved.value.id) : saveFailure(saved);
}

export async function updateProducto(id: string, input: RecordWriteInput, writer: RecordWriter): Promise<Result<string>> {
  if (!isStaffWriter(writer)) return refuseWrite(writer);
  const current = await currentProduct(id);
  if (!current) return notFoundResult();
  const parsed = parseProduct(input, current);
  if (!parsed.ok) return recordFieldFailure(parsed.errors);
  for (const imageId of await imagesToRemove(id, input)) {
    const removed = await removeProductImage(id, imageId);
    if (!removed.ok) return removed;
  }
  const saved = await saveProduct({ productId: id, values: parsed.values, images: newImageFiles(input), imageAlt: "" });
  return saved.ok ? ok(id) : saveFailure(saved);
}

export async function deleteProducto(id: string, writer: RecordWriter): Promise<Result> {
  if (!isStaffWriter(writer)) return refuseWrite(writer);
  const deleted = await deleteProduct(id);
  return deleted.ok ? deleted : notFoundResult();
}
