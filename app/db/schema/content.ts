import { sql } from "drizzle-orm";
import { boolean, check, index, integer, jsonb, pgTable, real, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

// The site's content, edited by staff (issue 16, docs/decisions/0037). One generic table keeps the
// records of every collection (servicios, industrias, preguntas, …): the live data and the pending
// draft side by side, so saving never touches what the public sees until it is published.

/** One record of a content collection: its published data, its draft, its schedule and its editing lock. */
export const contentEntries = pgTable(
  "content_entries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    collection: text("collection").notNull(),
    /** The published data's slug (null while never published or for collections without one). */
    slug: text("slug"),
    /** What the public sees; null = never published. */
    published: jsonb("published").$type<Record<string, unknown>>(),
    publishedAt: timestamp("published_at", { withTimezone: true }),
    publishedBy: text("published_by"),
    publishedByName: text("published_by_name"),
    /** Pending changes; null = none. */
    draft: jsonb("draft").$type<Record<string, unknown>>(),
    draftSavedAt: timestamp("draft_saved_at", { withTimezone: true }),
    draftSavedBy: text("draft_saved_by"),
    draftSavedByName: text("draft_saved_by_name"),
    /** Optimistic concurrency: +1 on every draft save, publish and restore. */
    version: integer("version").notNull().default(1),
    /** When the draft is published by the scheduler, and who asked for it. */
    scheduledAt: timestamp("scheduled_at", { withTimezone: true }),
    scheduledBy: text("scheduled_by"),
    scheduledByName: text("scheduled_by_name"),
    /** Why the last scheduled publication could not happen (Spanish, for staff); cleared by the next schedule or publish. */
    scheduleError: text("schedule_error"),
    /** The editing lock: who holds it, since when, and their last heartbeat (lapses after 2 minutes). */
    lockedBy: text("locked_by"),
    lockedByName: text("locked_by_name"),
    lockedAt: timestamp("locked_at", { withTimezone: true }),
    lockHeartbeatAt: timestamp("lock_heartbeat_at", { withTimezone: true }),
    /** Records that always exist (the ten industries, singletons): never deleted, slug never changed. */
    fixed: boolean("fixed").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("content_entries_slug_idx")
      .on(table.collection, sql`lower(${table.slug})`)
      .where(sql`${table.slug} is not null`),
    index("content_entries_collection_idx").on(table.collection, table.createdAt),
    // The scheduler's question every second: is anything due?
    index("content_entries_scheduled_idx").on(table.scheduledAt).where(sql`${table.scheduledAt} is not null`),
    check("content_entries_version_positive", sql`${table.version} > 0`),
  ],
);

/** Every published state of a record (publish and restore each append one), numbered 1, 2, 3… per record. */
export const contentVersions = pgTable(
  "content_versions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    entryId: uuid("entry_id")
      .notNull()
      .references(() => contentEntries.id, { onDelete: "cascade" }),
    number: integer("number").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    publishedAt: timestamp("published_at", { withTimezone: true }).notNull().defaultNow(),
    /** The staff member's id; null for the system (the first load of the demo content). */
    publishedBy: text("published_by"),
    publishedByName: text("published_by_name").notNull(),
    /** The version this one restored, when it was a restore. */
    restoredFrom: integer("restored_from"),
  },
  (table) => [uniqueIndex("content_versions_entry_number_idx").on(table.entryId, table.number)],
);

/** Collections whose demo content was loaded: loaded once, never again (a deleted record stays deleted). */
export const contentSeeds = pgTable("content_seeds", {
  collection: text("collection").primaryKey(),
  seededAt: timestamp("seeded_at", { withTimezone: true }).notNull().defaultNow(),
});

/** 301s from an old public address to its current one (made when a published slug changes; staff edit them too). */
export const redirects = pgTable(
  "redirects",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    fromPath: text("from_path").notNull().unique(),
    toPath: text("to_path").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [check("redirects_not_to_itself", sql`${table.fromPath} <> ${table.toPath}`)],
);

/** A stored copy of a media image: one width in one format, whole or cut to an aspect ratio around the focal point. */
export interface MediaVariant {
  width: number;
  height: number;
  format: "webp" | "avif";
  /** Key in the file store. */
  path: string;
  /** The aspect ratio it was cut to ("16x9"); absent for the whole image. */
  crop?: string;
}

/** The media library's images (docs/decisions/0046): the original is never served, only its variants. */
export const media = pgTable(
  "media",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Server-generated; the uploaded name is only shown. */
    fileName: text("file_name").notNull().unique(),
    originalName: text("original_name").notNull(),
    mime: text("mime").notNull(),
    bytes: integer("bytes").notNull(),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    alt: text("alt").notNull().default(""),
    /** Where the subject is, 0–1 from the left and from the top: crops keep it in frame. */
    focalX: real("focal_x").notNull().default(0.5),
    focalY: real("focal_y").notNull().default(0.5),
    /** Every stored copy; the whole image's are made at upload, crops on their first request. */
    variants: jsonb("variants").$type<MediaVariant[]>().notNull().default([]),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check("media_focal_x_range", sql`${table.focalX} >= 0 and ${table.focalX} <= 1`),
    check("media_focal_y_range", sql`${table.focalY} >= 0 and ${table.focalY} <= 1`),
    check("media_size_positive", sql`${table.bytes} > 0 and ${table.width} > 0 and ${table.height} > 0`),
  ],
);
