import { bigint, integer, pgTable, text } from "drizzle-orm/pg-core";

/** Fixed-window counters for rate limits, shared by every process through the database. */
export const rateLimits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  count: integer("count").notNull(),
  windowStartedAt: bigint("window_started_at", { mode: "number" }).notNull(),
});
