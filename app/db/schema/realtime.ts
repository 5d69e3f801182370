import { bigserial, index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The last state of a record deleted from a table the realtime API follows (migration 0009): the
 * delete trigger keeps the old row here and names its `seq` in the notification, so each process
 * can still check a subscriber's view rule against the record that is gone and send it. Rows older
 * than an hour are pruned by the same trigger.
 */
export const deletedRecords = pgTable(
  "deleted_records",
  {
    seq: bigserial("seq", { mode: "number" }).primaryKey(),
    collection: text("collection").notNull(),
    recordId: text("record_id").notNull(),
    row: jsonb("row").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("deleted_records_created_at_idx").on(table.createdAt)],
);
