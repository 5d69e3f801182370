import fs from "node:fs";
import { and, asc, eq, gt, inArray, lt, type SQL } from "drizzle-orm";
import { getDatabase, getDb } from "~/db/client.server";
import { fileChunks, storedFiles } from "~/db/schema/files";
import { logger } from "~/lib/logger.server";
import type { FileStore, FileStoreDb, StoredFile } from "./file-store.server";
import { removeQuietly } from "./storage.server";

// The file store every app process shares on PostgreSQL (docs/decisions/0016): a `stored_files`
// row per file and its bytes in `file_chunks` of 256 KiB. Writes go through the caller's
// transaction, so a solicitud's attachments commit or roll back with it; reads fetch one chunk per
// query as the response is sent, so memory stays bounded whatever the file's size.

export const CHUNK_BYTES = 256 * 1024;
const KEYS_PAGE = 1_000;

/** Regroups any stream of byte arrays into chunks of exactly CHUNK_BYTES (the last one shorter). */
async function* rechunk(source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  for await (const piece of source) {
    let rest = Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
    while (rest.length > 0) {
      const take = Math.min(rest.length, CHUNK_BYTES - pendingBytes);
      pending.push(rest.subarray(0, take));
      pendingBytes += take;
      rest = rest.subarray(take);
      if (pendingBytes === CHUNK_BYTES) {
        yield Buffer.concat(pending);
        pending = [];
        pendingBytes = 0;
      }
    }
  }
  if (pendingBytes > 0) yield Buffer.concat(pending);
}

async function write(key: string, source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, db: FileStoreDb = getDb()): Promise<void> {
  // A savepoint inside the caller's transaction, or a transaction of its own: never half a file.
  await db.transaction(async (tx) => {
    await tx.insert(storedFiles).values({ path: key, size: 0, chunks: 0 });
    let n = 0;
    let size = 0;
    for await (const chunk of rechunk(source)) {
      await tx.insert(fileChunks).values({ path: key, n, data: chunk });
      n += 1;
      size += chunk.length;
    }
    await tx.update(storedFiles).set({ size, chunks: n }).where(eq(storedFiles.path, key));
  });
}

async function open(key: string): Promise<StoredFile | null> {
  // Reads use the database itself, never a transaction in scope: the stream outlives the request's handler.
  const db = getDatabase().db;
  const [file] = await db.select({ size: storedFiles.size, chunks: storedFiles.chunks, storedAt: storedFiles.createdAt }).from(storedFiles).where(eq(storedFiles.path, key)).limit(1);
  if (!file) return null;
  let next = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (next >= file.chunks) {
        controller.close();
        return;
      }
      try {
        const [row] = await db.select({ data: fileChunks.data }).from(fileChunks).where(and(eq(fileChunks.path, key), eq(fileChunks.n, next))).limit(1);
        // Removed while it was being sent: end the response with an error rather than short bytes.
        if (!row) throw new Error(`stored file ${key} lost chunk ${next}`);
        next += 1;
        controller.enqueue(new Uint8Array(row.data.buffer, row.data.byteOffset, row.data.byteLength));
      } catch (error) {
        controller.error(error);
      }
    },
  });
  return { size: file.size, storedAt: file.storedAt, body };
}

async function readBytes(key: string, maxBytes: number): Promise<Buffer | null> {
  const db = getDatabase().db;
  const [file] = await db.select({ size: storedFiles.size }).from(storedFiles).where(eq(storedFiles.path, key)).limit(1);
  if (!file || file.size > maxBytes) return null;
  const rows = await db.select({ data: fileChunks.data }).from(fileChunks).where(eq(fileChunks.path, key)).orderBy(asc(fileChunks.n));
  return Buffer.concat(rows.map((row) => row.data));
}

async function* keys(options: { before?: Date } = {}): AsyncGenerator<string> {
  let after: string | undefined;
  for (;;) {
    const conditions: SQL[] = [];
    if (after !== undefined) conditions.push(gt(storedFiles.path, after));
    if (options.before) conditions.push(lt(storedFiles.createdAt, options.before));
    const rows = await getDatabase()
      .db.select({ path: storedFiles.path })
      .from(storedFiles)
      .where(conditions.length ? and(...conditions) : undefined)
      .orderBy(asc(storedFiles.path))
      .limit(KEYS_PAGE);
    for (const row of rows) yield row.path;
    if (rows.length < KEYS_PAGE) return;
    after = rows.at(-1)!.path;
  }
}

export const postgresFileStore: FileStore = {
  kind: "postgres",
  async putFile(key, localPath, db) {
    await write(key, fs.createReadStream(localPath, { highWaterMark: CHUNK_BYTES }), db);
    // The bytes are in the database now; the temporary copy is not needed by anyone.
    await removeQuietly([localPath]);
  },
  putBytes: (key, bytes, db) => write(key, [bytes], db),
  open,
  readBytes,
  async remove(list) {
    if (list.length === 0) return;
    try {
      await getDb().delete(storedFiles).where(inArray(storedFiles.path, [...list]));
    } catch (error) {
      logger.warn({ err: error, files: list.length }, "could not remove stored files");
    }
  },
  keys,
};
