import { eq, sql, type SQL } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import type { RecordFieldMap } from "~/db/record-filter.server";
import { productImages, products } from "~/db/schema/catalogue";
import { priceWithIva } from "~/lib/money";
import { isUuid } from "~/lib/uuid";
import type { RecordAuth, RecordCollection, RecordData } from "~/services/records/collection.server";
import { tableCollection } from "~/services/records/table-collection.server";
import { grossPrice } from "./product-query.server";
import { createProducto, deleteProducto, updateProducto } from "./record-writes.server";

// The catalogue as the record API's `productos` collection (docs/decisions/0014): the fields a
// filter or sort may name, how a product reads as a record, and who sees which products — the
// same rule as /catalogo: everyone sees active products, staff see them all.

/**
 * The product's images as file names (the image id, as the WebP the files API will serve), in the
 * product's order. Written with explicit names: in a one-table select drizzle drops the table from
 * every column it renders, and `"id"` alone would then mean the image's id inside the subquery.
 */
const imageFileNames = sql<string[]>`(select coalesce(jsonb_agg(image.id::text || '.webp' order by image.position, image.created_at), '[]'::jsonb) from ${productImages} as image where image.product_id = "products"."id")`;

/** Allow-list for `filter` and `sort`: API name → column or expression, with its type. */
export const PRODUCTOS_FIELDS: RecordFieldMap = {
  // As text: a filter's value is never cast to uuid, so `id = 'nope'` matches nothing instead of failing.
  id: { column: sql`${products.id}::text`, type: "text" },
  created: { column: products.createdAt, type: "date" },
  updated: { column: products.updatedAt, type: "date" },
  slug: { column: products.slug, type: "text" },
  nombre: { column: products.name, type: "text" },
  sku: { column: products.sku, type: "text" },
  categoria: { column: products.category, type: "text" },
  resumen: { column: products.shortDescription, type: "text" },
  descripcion: { column: products.description, type: "text" },
  // Pesos with IVA, as the catalogue shows them (rounded like priceWithIva).
  precio: { column: sql`(${grossPrice})::numeric / 100`, type: "number" },
  existencia: { column: products.stock, type: "number" },
  unidad: { column: products.unit, type: "text" },
  minimo: { column: products.minOrder, type: "number" },
  imagenes: { column: imageFileNames, type: "json-array" },
  // The IVA rate in percent (16, 8, 0) and whether the catalogue shows it (guests see active ones only).
  iva: { column: sql`${products.ivaBp}::numeric / 100`, type: "number" },
  activo: { column: products.active, type: "bool" },
};

const recordColumns = {
  id: products.id,
  created: products.createdAt,
  updated: products.updatedAt,
  slug: products.slug,
  nombre: products.name,
  sku: products.sku,
  categoria: products.category,
  resumen: products.shortDescription,
  descripcion: products.description,
  priceCentavos: products.priceCentavos,
  ivaBp: products.ivaBp,
  existencia: products.stock,
  unidad: products.unit,
  minimo: products.minOrder,
  imagenes: imageFileNames,
  activo: products.active,
};

const selectRecords = () => getDb().select(recordColumns).from(products);
type ProductRow = Awaited<ReturnType<typeof selectRecords>>[number];

function toRecord({ priceCentavos, ivaBp, imagenes, ...row }: ProductRow): RecordData {
  return { ...row, precio: priceWithIva(priceCentavos, ivaBp) / 100, imagenes: imagenes ?? [], iva: ivaBp / 100 };
}

/** The visibility rule: staff see every product, everyone else the active ones. */
function visibleTo(auth: RecordAuth): SQL | undefined {
  return auth?.collection === "_superusers" ? undefined : eq(products.active, true);
}

const readCollection = tableCollection<ProductRow>({
  id: "pbc_productos",
  name: "productos",
  fields: PRODUCTOS_FIELDS,
  defaultSort: "created",
  table: products,
  idColumn: products.id,
  isId: isUuid,
  select: () => selectRecords().$dynamic(),
  rule: visibleTo,
  toRecord: toRecord,
});

/** Writes: staff only, through the staff form's schema and commands (record-writes.server.ts). */
export const productosCollection: RecordCollection = { ...readCollection, create: createProducto, update: updateProducto, remove: deleteProducto };
