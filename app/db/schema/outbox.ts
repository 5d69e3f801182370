import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/** Every email is written here first and delivered by the mail worker with retries. */
export const outbox = pgTable(
  "outbox",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    /** The message as sent; null while it is still `content` for the worker to render (0081). */
    html: text("html"),
    text: text("text"),
    /**
     * What the worker renders into `html` and `text` before it sends (docs/decisions/0081): the
     * layout's content and the business facts read when the message was written.
     */
    content: jsonb("content").$type<{ content: Record<string, unknown>; facts: Record<string, unknown> }>(),
    replyTo: text("reply_to"),
    /** pending → sent | failed (gave up after the last attempt) */
    status: text("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    lastError: text("last_error"),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("outbox_pending_idx").on(table.status, table.nextAttemptAt),
    check("outbox_rendered_or_content", sql`(${table.html} is not null and ${table.text} is not null) or ${table.content} is not null`),
  ],
);
