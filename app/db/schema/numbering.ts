import { integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";

/** Yearly counters for human-readable numbers (SOL-2026-0001, COT-…, PED-…); gapless per transaction. */
export const counters = pgTable(
  "counters",
  {
    name: text("name").notNull(),
    year: integer("year").notNull(),
    value: integer("value").notNull(),
  },
  (table) => [primaryKey({ columns: [table.name, table.year] })],
);
