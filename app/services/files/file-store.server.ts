import type { Db, DbTransaction } from "~/db/client.server";
import { getDatabase } from "~/db/client.server";
import { diskFileStore } from "./disk-store.server";
import { postgresFileStore } from "./postgres-store.server";

// Where stored files live (docs/decisions/0016): one interface, two implementations, chosen by the
// database the process runs on. With PGlite (one process, one machine) files stay under
// DATA_DIR/uploads; with PostgreSQL (one or many processes) they live in the database, in chunks,
// so whichever process answers a request can serve any file. A key is the storage path the owning
// row names ("2026/11/<uuid>", "2026/11/<uuid>-640.webp"); the server makes every key up itself.

export interface StoredFile {
  size: number;
  /** When the file was stored (for Last-Modified). */
  storedAt: Date;
  /** The bytes, read as they are sent: a chunk at a time, never the whole file in memory. */
  body: ReadableStream<Uint8Array>;
}

/** Where to write: the caller's transaction (so the file commits or rolls back with its row), or none. */
export type FileStoreDb = Db | DbTransaction;

export interface FileStore {
  readonly kind: "disk" | "postgres";
  /**
   * Stores a finished local file (a temporary upload) under `key`; the local file is gone afterwards.
   * On PostgreSQL the file is written with `db` (the row's transaction) when given.
   */
  putFile(key: string, localPath: string, db?: FileStoreDb): Promise<void>;
  /** Stores bytes made in memory (a product image's WebP variant) under `key`. */
  putBytes(key: string, bytes: Uint8Array, db?: FileStoreDb): Promise<void>;
  /** The stored file as a stream, or null when there is none. */
  open(key: string): Promise<StoredFile | null>;
  /** A small stored file whole (at most `maxBytes`, else null), or null when there is none. */
  readBytes(key: string, maxBytes: number): Promise<Buffer | null>;
  /** Removes stored files; a missing one is no error, and nothing is thrown. */
  remove(keys: readonly string[]): Promise<void>;
  /** Keys of the stored files, all or only those stored before `before` (the orphan sweep's candidates). */
  keys(options?: { before?: Date }): AsyncIterable<string>;
}

/** The process's file store: in the database on PostgreSQL, on disk with PGlite. */
export function getFileStore(): FileStore {
  return getDatabase().kind === "postgres" ? postgresFileStore : diskFileStore;
}

/** A key the server made: relative, no empty, `.` or `..` segment, plain characters only. */
export function isStorageKey(key: string): boolean {
  return key.length > 0 && key.length <= 255 && /^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)*$/.test(key) && !key.split("/").some((part) => part === "." || part === "..");
}
