import { sql } from "drizzle-orm";
import { bigint, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { user } from "./auth";
import { products } from "./catalogue";

/** A server-side cart: a guest's is keyed by a random token in an httpOnly cookie, a customer's by account. */
export const carts = pgTable("carts", {
  id: uuid("id").primaryKey().defaultRandom(),
  userId: text("user_id")
    .unique()
    .references(() => user.id, { onDelete: "cascade" }),
  /** sha256 of the guest cookie's token (the token itself is never stored). */
  guestTokenHash: text("guest_token_hash").unique(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export const cartItems = pgTable(
  "cart_items",
  {
    cartId: uuid("cart_id")
      .notNull()
      .references(() => carts.id, { onDelete: "cascade" }),
    productId: uuid("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    quantity: integer("quantity").notNull(),
    addedAt: timestamp("added_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.cartId, table.productId] }), check("cart_items_quantity_positive", sql`${table.quantity} > 0`)],
);

/** CFDI data a customer captured once, offered again at the next checkout. */
export const billingProfiles = pgTable("billing_profiles", {
  userId: text("user_id")
    .primaryKey()
    .references(() => user.id, { onDelete: "cascade" }),
  rfc: text("rfc").notNull(),
  razonSocial: text("razon_social").notNull(),
  regimenFiscal: text("regimen_fiscal").notNull(),
  usoCfdi: text("uso_cfdi").notNull(),
  codigoPostal: text("codigo_postal").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export type OrderStatus = "pendiente_pago" | "pagado" | "en_preparacion" | "enviado" | "listo_para_recoger" | "entregado" | "cancelado";

export interface OrderAddress {
  calle: string;
  numero: string;
  colonia: string;
  codigoPostal: string;
  municipio: string;
  estado: string;
  referencias?: string;
}

export interface OrderInvoice {
  rfc: string;
  razonSocial: string;
  regimenFiscal: string;
  usoCfdi: string;
  codigoPostal: string;
}

export const orders = pgTable(
  "orders",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    number: text("number").notNull().unique(),
    userId: text("user_id").references(() => user.id, { onDelete: "set null" }),
    email: text("email").notNull(),
    name: text("name").notNull(),
    phone: text("phone").notNull(),
    company: text("company"),
    delivery: text("delivery").$type<"recoger" | "envio">().notNull(),
    address: jsonb("address").$type<OrderAddress>(),
    invoice: jsonb("invoice").$type<OrderInvoice>(),
    paymentMethod: text("payment_method").$type<"spei" | "recoger">().notNull(),
    /** Goes in the SPEI transfer's concept so the payment finds its order. */
    paymentReference: text("payment_reference").notNull().unique(),
    status: text("status").$type<OrderStatus>().notNull().default("pendiente_pago"),
    subtotalCentavos: bigint("subtotal_centavos", { mode: "number" }).notNull(),
    ivaCentavos: bigint("iva_centavos", { mode: "number" }).notNull(),
    totalCentavos: bigint("total_centavos", { mode: "number" }).notNull(),
    /** One-time checkout token: a second submit of the same checkout finds this order. */
    checkoutToken: text("checkout_token").notNull().unique(),
    notes: text("notes"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("orders_user_idx").on(table.userId, table.createdAt.desc()),
    index("orders_status_created_idx").on(table.status, table.createdAt.desc()),
    index("orders_created_idx").on(table.createdAt.desc()),
  ],
);

export const orderItems = pgTable(
  "order_items",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    productId: uuid("product_id").references(() => products.id, { onDelete: "set null" }),
    sku: text("sku").notNull(),
    name: text("name").notNull(),
    unit: text("unit").notNull(),
    quantity: integer("quantity").notNull(),
    unitPriceCentavos: integer("unit_price_centavos").notNull(),
    ivaBp: integer("iva_bp").notNull(),
    netCentavos: bigint("net_centavos", { mode: "number" }).notNull(),
    ivaCentavos: bigint("iva_centavos", { mode: "number" }).notNull(),
  },
  (table) => [index("order_items_order_idx").on(table.orderId)],
);

export const orderEvents = pgTable(
  "order_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    fromStatus: text("from_status"),
    toStatus: text("to_status").notNull(),
    note: text("note"),
    actorId: text("actor_id").references(() => user.id, { onDelete: "set null" }),
    actorName: text("actor_name").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("order_events_order_idx").on(table.orderId, table.createdAt)],
);
