import { sql } from "drizzle-orm";
import { boolean, check, index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/** Catalogue items. Prices are net (before IVA) in centavos; the public always sees them with IVA. */
export const products = pgTable(
  "products",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    slug: text("slug").notNull().unique(),
    sku: text("sku").notNull().unique(),
    name: text("name").notNull(),
    category: text("category").notNull(),
    shortDescription: text("short_description").notNull(),
    description: text("description").notNull().default(""),
    priceCentavos: integer("price_centavos").notNull(),
    /** IVA in basis points (1600 = 16 %). */
    ivaBp: integer("iva_bp").notNull().default(1600),
    unit: text("unit").notNull().default("pieza"),
    stock: integer("stock").notNull().default(0),
    minOrder: integer("min_order").notNull().default(1),
    active: boolean("active").notNull().default(true),
    /**
     * Name, SKU, category and descriptions without accents and in lowercase, written by the
     * server on every save: full-text search in Spanish that ignores accents on any PostgreSQL.
     */
    searchDocument: text("search_document").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("products_search_idx").using("gin", sql`to_tsvector('spanish', ${table.searchDocument})`),
    index("products_category_idx").on(table.category, table.active),
    index("products_active_name_idx").on(table.active, table.name),
    // The record API's default order (`created,id`, compiled as PocketBase's `asc nulls first`; a
    // plain ascending index cannot serve that, nor `-created`'s `desc nulls last`): its first page
    // reads 30 index entries instead of sorting the whole catalogue (docs/decisions/0019).
    index("products_created_idx").on(table.createdAt.asc().nullsFirst(), table.id),
    // The last line of defence against overselling: stock can never go below zero.
    check("products_stock_nonnegative", sql`${table.stock} >= 0`),
    check("products_price_positive", sql`${table.priceCentavos} > 0`),
  ],
);

export interface ImageVariant {
  width: number;
  height: number;
  /** Relative to DATA_DIR/uploads. */
  path: string;
}

export const productImages = pgTable(
  "product_images",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    productId: uuid("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    alt: text("alt").notNull(),
    position: integer("position").notNull().default(0),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    variants: jsonb("variants").$type<ImageVariant[]>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("product_images_product_idx").on(table.productId, table.position)],
);
