import { bigint, customType, index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

// Stored files when the site runs on PostgreSQL (docs/decisions/0016): every app process reads
// and writes the same store. A file is one `stored_files` row, keyed by the storage path its
// owner's row names (`solicitud_files.storage_path`, a product image variant's `path`), and its
// bytes in `file_chunks` of at most 256 KiB, so no process ever holds a whole file in memory.
// With PGlite the tables stay empty: files live under DATA_DIR/uploads.

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

export const storedFiles = pgTable(
  "stored_files",
  {
    path: text("path").primaryKey(),
    size: bigint("size", { mode: "number" }).notNull(),
    chunks: integer("chunks").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("stored_files_created_at_idx").on(table.createdAt)],
);

export const fileChunks = pgTable(
  "file_chunks",
  {
    path: text("path")
      .notNull()
      .references(() => storedFiles.path, { onDelete: "cascade" }),
    /** 0, 1, 2… in order. */
    n: integer("n").notNull(),
    data: bytea("data").notNull(),
  },
  (table) => [primaryKey({ columns: [table.path, table.n] })],
);
