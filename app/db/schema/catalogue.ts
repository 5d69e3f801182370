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

/** Where a product's CAD model comes from: its own parameters (the demo parts) or a STEP staff uploaded. */
export type ProductModelSource = { kind: "parametric"; spec: Record<string, unknown> } | { kind: "step"; path: string; name: string; size: number };

export type ProductModelStatus = "pending" | "computing" | "ok" | "failed";

/** What the model measured and where its downloads are (paths in the file store). */
export interface ProductModelOutput {
  /** The fingerprint these files were made from (the row's may already name a newer model being built). */
  fingerprint: string;
  volumeMm3: number;
  areaMm2: number;
  size: { x: number; y: number; z: number };
  files: { step: { path: string; bytes: number }; stl: { path: string; bytes: number }; drawing: { path: string; bytes: number; width: number; height: number } };
}

/**
 * A product's CAD model (docs/decisions/0025): one per product. A background job turns the source
 * into a STEP and an STL to download, a technical drawing (SVG) and a rendered image (a row of
 * product_images). `fingerprint` names the source and the generator's version: the same fingerprint
 * is never built twice.
 */
export const productModels = pgTable(
  "product_models",
  {
    productId: uuid("product_id")
      .primaryKey()
      .references(() => products.id, { onDelete: "cascade" }),
    source: jsonb("source").$type<ProductModelSource>().notNull(),
    /** For the drawing's title block and the render's colour. */
    material: text("material").notNull().default(""),
    finish: text("finish").notNull().default("acero"),
    notes: jsonb("notes").$type<string[]>().notNull().default([]),
    fingerprint: text("fingerprint").notNull(),
    status: text("status").$type<ProductModelStatus>().notNull().default("pending"),
    /** Spanish, shown to staff when the model could not be built. */
    reason: text("reason"),
    attempts: integer("attempts").notNull().default(0),
    claimedAt: timestamp("claimed_at", { withTimezone: true }),
    output: jsonb("output").$type<ProductModelOutput>(),
    /** The rendered image among the product's photos (replaced when the model changes). */
    imageId: uuid("image_id").references(() => productImages.id, { onDelete: "set null" }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("product_models_pending_idx").on(table.updatedAt).where(sql`status in ('pending', 'computing')`)],
);
