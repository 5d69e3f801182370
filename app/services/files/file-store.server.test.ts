import fs from "node:fs";
import path from "node:path";
import { randomBytes, randomUUID } from "node:crypto";
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// Both file stores (docs/decisions/0016) on a real database and a real directory: the disk store of
// a single machine, and the PostgreSQL store every process shares — run here on this file's test
// database (PGlite by default, PostgreSQL with TEST_DATABASE_URL), since its SQL is the same.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("file-store"));

import { closeTestDatabase, createTestDatabase } from "../../../tests/support/test-database";
import type { Database } from "~/db/client.server";
import { fileChunks, storedFiles } from "~/db/schema/files";
import { diskFileStore } from "./disk-store.server";
import { getFileStore, isStorageKey, type FileStore } from "./file-store.server";
import { CHUNK_BYTES, postgresFileStore } from "./postgres-store.server";
import { uploadsTmpDir } from "./storage.server";

let database: Database;

/** Every item of an async iterable, in order. */
async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await closeTestDatabase(database);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function tmpFile(bytes: Buffer): string {
  const file = path.join(uploadsTmpDir(), randomUUID());
  fs.writeFileSync(file, bytes);
  return file;
}

async function readStream(body: ReadableStream<Uint8Array>): Promise<{ bytes: Buffer; pieces: number[] }> {
  const pieces: Buffer[] = [];
  for await (const piece of body) pieces.push(Buffer.from(piece));
  return { bytes: Buffer.concat(pieces), pieces: pieces.map((piece) => piece.length) };
}

const key = () => `2026/11/${randomUUID()}`;

describe.each([
  ["disk", diskFileStore],
  ["postgres", postgresFileStore],
] as [string, FileStore][])("the %s store", (_name, store) => {
  it("keeps a temporary upload byte for byte and streams it back; the temporary file is gone", async () => {
    // Two and a half chunks, so the PostgreSQL store splits it.
    const bytes = randomBytes(CHUNK_BYTES * 2 + CHUNK_BYTES / 2);
    const local = tmpFile(bytes);
    const stored = key();
    await store.putFile(stored, local);
    expect(fs.existsSync(local)).toBe(false);
    const file = await store.open(stored);
    expect(file).toMatchObject({ size: bytes.length, storedAt: expect.any(Date) });
    const { bytes: read, pieces } = await readStream(file!.body);
    expect(read.equals(bytes)).toBe(true);
    // Streamed in pieces, never as one block.
    expect(Math.max(...pieces)).toBeLessThanOrEqual(CHUNK_BYTES);
    expect(pieces.length).toBeGreaterThan(1);
  });

  it("stores bytes from memory, reads small files whole (within a limit), removes quietly", async () => {
    const stored = `${key()}-640.webp`;
    await store.putBytes(stored, Buffer.from("RIFF-webp"));
    expect((await store.readBytes(stored, 1024))?.toString()).toBe("RIFF-webp");
    expect(await store.readBytes(stored, 3)).toBeNull();
    expect(await store.readBytes(key(), 1024)).toBeNull();
    expect(await store.open(key())).toBeNull();
    await store.remove([stored, key()]);
    expect(await store.open(stored)).toBeNull();
    await store.remove([]);
  });

  it("an empty file is a file", async () => {
    const stored = key();
    await store.putFile(stored, tmpFile(Buffer.alloc(0)));
    const file = await store.open(stored);
    expect(file?.size).toBe(0);
    expect((await readStream(file!.body)).bytes.length).toBe(0);
  });

  it("lists its keys, all or those stored before a moment", async () => {
    const stored = key();
    await store.putBytes(stored, Buffer.from("x"));
    const all = await collect(store.keys());
    expect(all).toContain(stored);
    expect(await collect(store.keys({ before: new Date(Date.now() - 60 * 60 * 1000) }))).not.toContain(stored);
    expect(await collect(store.keys({ before: new Date(Date.now() + 60_000) }))).toContain(stored);
  });
});

describe("the PostgreSQL store and transactions", () => {
  it("a file written in a transaction that rolls back leaves nothing, chunks included", async () => {
    const stored = key();
    await expect(
      database.db.transaction(async (tx) => {
        await postgresFileStore.putBytes(stored, randomBytes(CHUNK_BYTES + 10), tx);
        throw new Error("the row failed");
      }),
    ).rejects.toThrow("the row failed");
    expect(await postgresFileStore.open(stored)).toBeNull();
    const [chunks] = await database.db.select({ n: count() }).from(fileChunks).where(eq(fileChunks.path, stored));
    expect(chunks!.n).toBe(0);
  });

  it("one committed file is one row and its 256 KiB chunks; removing it removes them", async () => {
    const stored = key();
    await postgresFileStore.putBytes(stored, randomBytes(CHUNK_BYTES * 3 + 1));
    const [row] = await database.db.select().from(storedFiles).where(eq(storedFiles.path, stored));
    expect(row).toMatchObject({ size: CHUNK_BYTES * 3 + 1, chunks: 4 });
    await postgresFileStore.remove([stored]);
    const [chunks] = await database.db.select({ n: count() }).from(fileChunks).where(eq(fileChunks.path, stored));
    expect(chunks!.n).toBe(0);
  });
});

describe("getFileStore and keys", () => {
  it("is chosen by the database kind", () => {
    expect(getFileStore().kind).toBe(database.kind === "postgres" ? "postgres" : "disk");
  });

  it("accepts only keys the server makes", () => {
    for (const good of ["2026/11/0b9f0c3e-4c5e-4a1f-9f0e-2b8c0e9d1a2b", "2026/11/x-640.webp"]) expect(isStorageKey(good), good).toBe(true);
    for (const bad of ["", "/etc/passwd", "../auth-secret", "2026/../../x", "2026//x", "a\0b", "a b", "x".repeat(300), "2026/11/."]) expect(isStorageKey(bad), bad).toBe(false);
  });
});
