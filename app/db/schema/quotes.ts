import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { user } from "./auth";
import { solicitudes } from "./solicitudes";

export type QuoteStatus = "borrador" | "enviada" | "aceptada" | "rechazada" | "vencida" | "cancelada";

/** One priced line. Money in integer centavos before IVA; quantity in thousandths (1.5 m → 1500). */
export interface QuoteLine {
  description: string;
  quantityMilli: number;
  unit: string;
  unitPriceCentavos: number;
  /** Discount in basis points: 750 = 7.5 %. */
  discountBp: number;
  /** Computed by the server: net after discount, IVA of the line, both in centavos. */
  netCentavos: number;
  ivaCentavos: number;
}

/** A quote: the stable record. Its content (lines, terms, totals) lives in revisions. */
export const quotes = pgTable(
  "quotes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    number: text("number").notNull().unique(),
    solicitudId: uuid("solicitud_id").references(() => solicitudes.id, { onDelete: "set null" }),
    customerUserId: text("customer_user_id").references(() => user.id, { onDelete: "set null" }),
    customerEmail: text("customer_email").notNull(),
    customerName: text("customer_name").notNull(),
    customerCompany: text("customer_company"),
    status: text("status").$type<QuoteStatus>().notNull().default("borrador"),
    /** The newest revision (may be a draft being prepared). */
    currentRevision: integer("current_revision").notNull().default(1),
    /** The revision the customer sees; null until the first send. */
    sentRevision: integer("sent_revision"),
    validUntil: timestamp("valid_until", { withTimezone: true }),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    acceptedName: text("accepted_name"),
    acceptedAt: timestamp("accepted_at", { withTimezone: true }),
    acceptedIp: text("accepted_ip"),
    acceptedUserAgent: text("accepted_user_agent"),
    rejectedReason: text("rejected_reason"),
    rejectedNote: text("rejected_note"),
    rejectedAt: timestamp("rejected_at", { withTimezone: true }),
    expiredAt: timestamp("expired_at", { withTimezone: true }),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    createdById: text("created_by_id").references(() => user.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("quotes_customer_idx").on(table.customerUserId, table.createdAt.desc()),
    index("quotes_status_idx").on(table.status, table.validUntil),
    index("quotes_created_idx").on(table.createdAt.desc()),
    index("quotes_email_idx").on(table.customerEmail),
  ],
);

export const quoteRevisions = pgTable(
  "quote_revisions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    quoteId: uuid("quote_id")
      .notNull()
      .references(() => quotes.id, { onDelete: "cascade" }),
    revision: integer("revision").notNull(),
    lines: jsonb("lines").$type<QuoteLine[]>().notNull(),
    leadTimeDays: integer("lead_time_days").notNull(),
    /** Days of validity counted from sending. */
    validityDays: integer("validity_days").notNull().default(30),
    terms: text("terms").notNull().default(""),
    notes: text("notes").notNull().default(""),
    subtotalCentavos: bigint("subtotal_centavos", { mode: "number" }).notNull(),
    ivaCentavos: bigint("iva_centavos", { mode: "number" }).notNull(),
    totalCentavos: bigint("total_centavos", { mode: "number" }).notNull(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    validUntil: timestamp("valid_until", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex("quote_revisions_quote_revision_idx").on(table.quoteId, table.revision)],
);

/** Everything that happened to a quote, for the history: who, when, what. */
export const quoteEvents = pgTable(
  "quote_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    quoteId: uuid("quote_id")
      .notNull()
      .references(() => quotes.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    revision: integer("revision"),
    fromStatus: text("from_status"),
    toStatus: text("to_status"),
    detail: text("detail"),
    actorId: text("actor_id").references(() => user.id, { onDelete: "set null" }),
    actorName: text("actor_name").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("quote_events_quote_idx").on(table.quoteId, table.createdAt)],
);

/** The customer ↔ staff conversation on a quote. */
export const quoteMessages = pgTable(
  "quote_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    quoteId: uuid("quote_id")
      .notNull()
      .references(() => quotes.id, { onDelete: "cascade" }),
    authorId: text("author_id").references(() => user.id, { onDelete: "set null" }),
    authorName: text("author_name").notNull(),
    fromStaff: boolean("from_staff").notNull().default(false),
    body: text("body").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("quote_messages_quote_idx").on(table.quoteId, table.createdAt)],
);
