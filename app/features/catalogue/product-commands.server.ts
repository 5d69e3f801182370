import { and, eq, ne, or, sql } from "drizzle-orm";
import { afterCommit, getDb } from "~/db/client.server";
import { productImages, products } from "~/db/schema/catalogue";
import { invalid, notFoundResult, ok, type FieldErrors, type Result } from "~/lib/result";
import { isUuid } from "~/lib/uuid";
import { PRODUCT_NOT_SAVED, type ProductValues } from "./forms";
import { removeStoredVariants } from "./image-uploads.server";
import { buildSearchDocument, slugify } from "./search";
import { uniqueViolationOf } from "~/db/errors.server";

// The staff's product commands: create, update, activate and deactivate. SKU and slug clashes
// come back as Spanish field errors, also when two saves race each other.

export const PRODUCT_GONE = "Este producto ya no existe.";
const SKU_TAKEN = (sku: string) => `Ya existe otro producto con el SKU ${sku}. Cada SKU debe ser único.`;
const SLUG_TAKEN = (slug: string) => `La dirección /catalogo/${slug} ya es de otro producto. Elija otra o deje el campo vacío para generarla del nombre.`;

export interface SavedProduct {
  id: string;
  slug: string;
}

function rowValues(input: ProductValues, slug: string) {
  return {
    slug,
    sku: input.sku,
    name: input.name,
    category: input.category,
    shortDescription: input.shortDescription,
    description: input.description,
    priceCentavos: input.price,
    ivaBp: input.ivaBp,
    unit: input.unit,
    stock: input.stock,
    minOrder: input.minOrder,
    active: input.active,
    searchDocument: buildSearchDocument({ ...input, sku: input.sku }),
  };
}

/** A free slug made from the name: "brida-slip-on", then "brida-slip-on-2", … */
async function freeSlugFor(name: string, exceptId: string | null): Promise<string> {
  const base = slugify(name) || "producto";
  const taken = new Set(
    (
      await getDb()
        .select({ slug: products.slug })
        .from(products)
        .where(and(sql`${products.slug} like ${`${base.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`, exceptId ? ne(products.id, exceptId) : undefined))
    ).map((row) => row.slug),
  );
  if (!taken.has(base)) return base;
  for (let n = 2; ; n += 1) {
    const candidate = `${base.slice(0, 75)}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}

async function uniquenessErrors(input: { sku: string; slug: string | null }, exceptId: string | null): Promise<FieldErrors> {
  const clash = await getDb()
    .select({ sku: products.sku, slug: products.slug })
    .from(products)
    .where(and(or(eq(products.sku, input.sku), input.slug ? eq(products.slug, input.slug) : undefined), exceptId ? ne(products.id, exceptId) : undefined));
  const errors: FieldErrors = {};
  if (clash.some((row) => row.sku === input.sku)) errors.sku = [SKU_TAKEN(input.sku)];
  if (input.slug && clash.some((row) => row.slug === input.slug)) errors.slug = [SLUG_TAKEN(input.slug)];
  return errors;
}

/** Which unique constraint a failed insert or update broke (two saves at once), if any. */
function uniqueViolation(error: unknown): "sku" | "slug" | null {
  const violation = uniqueViolationOf(error);
  if (!violation) return null;
  const name = `${violation.constraint} ${violation.message}`;
  return name.includes("products_sku") ? "sku" : name.includes("products_slug") ? "slug" : null;
}

const clash = (fieldErrors: FieldErrors) => invalid({ fieldErrors, formErrors: [PRODUCT_NOT_SAVED] });

async function save(input: ProductValues, id: string | null): Promise<Result<SavedProduct>> {
  const slug = input.slug || (await freeSlugFor(input.name, id));
  const errors = await uniquenessErrors({ sku: input.sku, slug: input.slug ?? null }, id);
  if (Object.keys(errors).length) return clash(errors);
  try {
    if (id) {
      const [row] = await getDb()
        .update(products)
        .set({ ...rowValues(input, slug), updatedAt: new Date() })
        .where(eq(products.id, id))
        .returning({ id: products.id, slug: products.slug });
      return row ? ok(row) : notFoundResult(PRODUCT_GONE);
    }
    const [row] = await getDb().insert(products).values(rowValues(input, slug)).returning({ id: products.id, slug: products.slug });
    return ok(row!);
  } catch (error) {
    const field = uniqueViolation(error);
    if (field === "sku") return clash({ sku: [SKU_TAKEN(input.sku)] });
    if (field === "slug") return clash({ slug: [SLUG_TAKEN(slug)] });
    throw error;
  }
}

/** A new product from the staff form's validated values. */
export function createProduct(input: ProductValues): Promise<Result<SavedProduct>> {
  return save(input, null);
}

export function updateProduct(id: string, input: ProductValues): Promise<Result<SavedProduct>> {
  if (!isUuid(id)) return Promise.resolve(notFoundResult(PRODUCT_GONE));
  return save(input, id);
}

/** Deactivated products leave the catalogue and the image URLs, and stay for orders that name them. */
export async function setProductActive(id: string, active: boolean): Promise<Result> {
  if (!isUuid(id)) return notFoundResult(PRODUCT_GONE);
  const updated = await getDb().update(products).set({ active, updatedAt: new Date() }).where(eq(products.id, id)).returning({ id: products.id });
  return updated.length > 0 ? ok() : notFoundResult(PRODUCT_GONE);
}

/**
 * Deletes a product for good (the record API's delete; the panel deactivates instead). Order lines
 * keep their copy of name and price (their link is set to null), carts lose the line, and the
 * image files go once the deletion commits.
 */
export async function deleteProduct(id: string): Promise<Result> {
  if (!isUuid(id)) return notFoundResult(PRODUCT_GONE);
  const images = await getDb().select({ variants: productImages.variants }).from(productImages).where(eq(productImages.productId, id));
  const deleted = await getDb().delete(products).where(eq(products.id, id)).returning({ id: products.id });
  if (deleted.length === 0) return notFoundResult(PRODUCT_GONE);
  await afterCommit(() => Promise.all(images.map((image) => removeStoredVariants(image.variants))));
  return ok();
}
