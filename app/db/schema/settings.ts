import { jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

// The technical settings of PocketBase's /api/settings (issue 17 §3, docs/decisions/0057): one row,
// `key = 'settings'`, its JSON in PocketBase's shape. Business facts are not here (the `ajustes`
// record, issue 16). A change notifies every process (topic 'sistema', migration 0017).
export const systemSettings = pgTable("system_settings", {
  key: text("key").primaryKey(),
  value: jsonb("value").$type<Record<string, unknown>>().notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
