import type { Db, DbTransaction } from "~/db/client.server";
import { getDatabase } from "~/db/client.server";
import { s3ConfigFor } from "~/services/settings/s3-settings.server";
import { diskFileStore } from "./disk-store.server";
import { postgresFileStore } from "./postgres-store.server";
import { s3FileStore } from "./s3-store.server";

// Where stored files live (docs/decisions/0016): one interface, two implementations, chosen by the
// database the process runs on. With PGlite (one process, one machine) files stay under
// DATA_DIR/uploads; with PostgreSQL (one or many processes) they live in the database, in chunks,
// so whichever process answers a request can serve any file. With the settings' `s3` enabled they
// live in that bucket instead (docs/decisions/0059), the store above still read for keys not copied
// over yet. A key is the storage path the owning
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
  readonly kind: "disk" | "postgres" | "s3";
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

/**
 * Whether `putFile`/`putBytes` write with the transaction they are given (PostgreSQL: the bytes
 * commit with their row). Other stores write outside any transaction: callers store the file before
 * the transaction that records it opens, not inside it (on PGlite that transaction holds the only
 * connection while the disk or the bucket works).
 */
export function writesWithTransaction(store: FileStore): boolean {
  return store.kind === "postgres";
}

/** Where files live without S3: in the database on PostgreSQL, on disk with PGlite. */
export function baseFileStore(): FileStore {
  return getDatabase().kind === "postgres" ? postgresFileStore : diskFileStore;
}

let s3Store: { id: string; store: FileStore } | null = null;
let lastKind: FileStore["kind"] | null = null;

/** The store in effect now, by the settings read at this moment (a PATCH takes effect at once). */
export async function activeFileStore(): Promise<FileStore> {
  const base = baseFileStore();
  const config = await s3ConfigFor("files");
  if (!config) {
    lastKind = base.kind;
    return base;
  }
  const id = JSON.stringify([config, base.kind]);
  if (s3Store?.id !== id) s3Store = { id, store: s3FileStore(config, base) };
  lastKind = "s3";
  return s3Store.store;
}

/**
 * The process's file store. Each call reads the settings when it runs (activeFileStore), so callers
 * keep it synchronous. Inside a transaction opened with `db.transaction` (not withTransaction), take
 * `await activeFileStore()` before it instead: on PGlite a settings read outside a running
 * transaction waits for that transaction, which would wait for the read. `kind` is the store last in effect (S3 when the environment's S3_BUCKET fixes
 * it): code that decides by kind awaits activeFileStore() instead.
 */
const currentFileStore: FileStore = {
  get kind() {
    if (process.env.S3_BUCKET?.trim()) return "s3";
    return lastKind ?? baseFileStore().kind;
  },
  putFile: async (key, localPath, db) => (await activeFileStore()).putFile(key, localPath, db),
  putBytes: async (key, bytes, db) => (await activeFileStore()).putBytes(key, bytes, db),
  open: async (key) => (await activeFileStore()).open(key),
  readBytes: async (key, maxBytes) => (await activeFileStore()).readBytes(key, maxBytes),
  remove: async (keys) => (await activeFileStore()).remove(keys),
  async *keys(options) {
    yield* (await activeFileStore()).keys(options);
  },
};

export function getFileStore(): FileStore {
  return currentFileStore;
}

/** A key the server made: relative, no empty, `.` or `..` segment, plain characters only. */
export function isStorageKey(key: string): boolean {
  return key.length > 0 && key.length <= 255 && /^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)*$/.test(key) && !key.split("/").some((part) => part === "." || part === "..");
}
