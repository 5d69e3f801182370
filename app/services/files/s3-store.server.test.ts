import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";

// The S3 file store (issue 17 §4, docs/decisions/0059) on a real database and a real S3 server on
// loopback: chosen when the settings (here the S3_* variables) enable it, reads of files stored
// before the switch falling back to the store used before, removals held while a backup copies,
// keys for the orphan sweep, and `files:to-s3` copying every file over, checked, safe to run again.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("s3-store"));

import { startS3Server, type TestS3Server } from "../../../tests/support/s3-server";
import { setupTestDatabase } from "../../../tests/support/test-database";
import { activeFileStore, baseFileStore, getFileStore } from "./file-store.server";
import { getDatabase } from "~/db/client.server";
import { holdRemovals, removalsHeldEverywhere, withRemovalsHeldEverywhere } from "./removal-hold.server";
import { S3Bucket } from "./s3-bucket.server";
import { uploadsTmpDir } from "./storage.server";
import { copyFilesToS3, describeFilesToS3 } from "./to-s3.server";

setupTestDatabase();
let s3: TestS3Server;
let bucket: S3Bucket;

beforeAll(async () => {
  s3 = await startS3Server({ buckets: ["forja-archivos"] });
  bucket = new S3Bucket(s3.config(), "files/");
});
afterAll(async () => {
  await s3?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});
afterEach(() => {
  vi.unstubAllEnvs();
});

function useS3(): void {
  for (const [name, value] of Object.entries(s3.env())) vi.stubEnv(name, value);
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

const key = () => `2026/11/${randomUUID()}`;

describe("the S3 file store", () => {
  const before = new Map<string, Buffer>();

  it("is chosen only while the settings enable it", async () => {
    expect((await activeFileStore()).kind).toBe(baseFileStore().kind);
    for (let index = 0; index < 3; index += 1) {
      const bytes = randomBytes(1000 + index);
      const name = key();
      await getFileStore().putBytes(name, bytes);
      before.set(name, bytes);
    }
    useS3();
    expect((await activeFileStore()).kind).toBe("s3");
    expect(getFileStore().kind).toBe("s3");
  });

  it("stores new files in the bucket only, and still reads the ones stored before from where they are", async () => {
    useS3();
    const bytes = randomBytes(200_000);
    const local = path.join(uploadsTmpDir(), randomUUID());
    fs.writeFileSync(local, bytes);
    const name = key();
    await getFileStore().putFile(name, local);
    expect(fs.existsSync(local)).toBe(false);
    expect((await bucket.readBytes(name, 1 << 20))?.equals(bytes)).toBe(true);
    expect(await baseFileStore().readBytes(name, 1 << 20)).toBeNull();
    const opened = await getFileStore().open(name);
    expect(opened?.size).toBe(bytes.length);
    expect(Buffer.from(await new Response(opened!.body).arrayBuffer()).equals(bytes)).toBe(true);
    expect(await getFileStore().readBytes(name, 1000)).toBeNull();

    for (const [stored, content] of before) {
      expect((await getFileStore().readBytes(stored, 1 << 20))?.equals(content), stored).toBe(true);
      expect(await bucket.head(stored)).toBeNull();
    }
    const keys = await collect(getFileStore().keys());
    expect(keys.sort()).toEqual([...before.keys(), name].sort());
    expect(await collect(getFileStore().keys({ before: new Date(Date.now() - 60 * 60 * 1000) }))).toEqual([]);
    expect(await getFileStore().open(key())).toBeNull();
    await getFileStore().remove([name]);
    expect(await bucket.head(name)).toBeNull();
  });

  it("holds removals while a backup copies the files", async () => {
    useS3();
    const name = key();
    await getFileStore().putBytes(name, Buffer.from("retenido"));
    const release = holdRemovals();
    await getFileStore().remove([name]);
    expect(await bucket.head(name)).not.toBeNull();
    await release((keys) => getFileStore().remove(keys));
    expect(await bucket.head(name)).toBeNull();
  });

  it("on PostgreSQL, leaves removals to the orphan sweep while a backup in any process copies (an advisory lock every backend sees)", async () => {
    useS3();
    const name = key();
    await getFileStore().putBytes(name, Buffer.from("en otro proceso"));
    // With PGlite there is one process: the in-process hold above is the whole story.
    const onPostgres = getDatabase().kind === "postgres";
    expect(await removalsHeldEverywhere()).toBe(false);
    await withRemovalsHeldEverywhere(async () => {
      // The lock is held on a connection of its own; the store asks on another, as another process would.
      expect(await removalsHeldEverywhere()).toBe(onPostgres);
      await getFileStore().remove([name]);
      expect((await bucket.head(name)) !== null).toBe(onPostgres);
    });
    expect(await removalsHeldEverywhere()).toBe(false);
    await getFileStore().remove([name]);
    expect(await bucket.head(name)).toBeNull();
  });

  it("files:to-s3 copies every file over, checked, is safe to run again, and removes originals only when asked", async () => {
    await expect(copyFilesToS3()).rejects.toThrow("El almacenamiento S3 de los archivos no está activado");
    useS3();
    const first = await copyFilesToS3();
    expect(first).toEqual({ found: 3, copied: 3, alreadyThere: 0, failed: [], removed: 0 });
    for (const [stored, content] of before) {
      expect((await bucket.readBytes(stored, 1 << 20))?.equals(content), stored).toBe(true);
      expect((await baseFileStore().readBytes(stored, 1 << 20))?.equals(content), stored).toBe(true);
    }
    expect(describeFilesToS3(first, "forja-archivos")).toContain("Copiados a s3://forja-archivos/files/ y verificados (tamaño y SHA-256): 3.");

    // A copy that differs (a half-finished earlier run) is copied again; the rest are left alone.
    const [damaged] = [...before.keys()];
    await bucket.putBytes(damaged!, Buffer.from("incompleto"));
    expect(await copyFilesToS3()).toEqual({ found: 3, copied: 1, alreadyThere: 2, failed: [], removed: 0 });
    expect((await bucket.readBytes(damaged!, 1 << 20))?.equals(before.get(damaged!)!)).toBe(true);

    const last = await copyFilesToS3({ removeOriginals: true });
    expect(last).toEqual({ found: 3, copied: 0, alreadyThere: 3, failed: [], removed: 3 });
    expect(describeFilesToS3(last, "forja-archivos")).toContain("Originales borrados tras verificar su copia: 3.");
    expect(await collect(baseFileStore().keys())).toEqual([]);
    for (const [stored, content] of before) expect((await getFileStore().readBytes(stored, 1 << 20))?.equals(content), stored).toBe(true);
    expect(await copyFilesToS3()).toEqual({ found: 0, copied: 0, alreadyThere: 0, failed: [], removed: 0 });
  });
});
