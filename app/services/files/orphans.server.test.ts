import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// The start-up sweep of stored files that no row refers to (a crash between moving a request's files
// into place and committing its row), on a real database and the file store it uses: a real
// directory with PGlite, the database itself with PostgreSQL (TEST_DATABASE_URL).

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("orphans"));

import { closeTestDatabase, createTestDatabase } from "../../../tests/support/test-database";
import type { Database } from "~/db/client.server";
import { storedFiles as storedFilesTable } from "~/db/schema/files";
import { getFileStore } from "./file-store.server";
import { removeOrphanUploads } from "./orphans.server";

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

const TWO_HOURS_AGO = (Date.now() - 2 * 60 * 60 * 1000) / 1000;

/** Stores a file under `key`, written two hours ago when `old`; returns the key. */
async function store(key: string, { old }: { old: boolean }): Promise<string> {
  await getFileStore().putBytes(key, Buffer.from("contenido"));
  if (old && getFileStore().kind === "disk") fs.utimesSync(path.join(dataDir, "uploads", key), TWO_HOURS_AGO, TWO_HOURS_AGO);
  if (old && getFileStore().kind === "postgres") await database.db.update(storedFilesTable).set({ createdAt: new Date(TWO_HOURS_AGO * 1000) }).where(sql`${storedFilesTable.path} = ${key}`);
  return key;
}

async function exists(key: string): Promise<boolean> {
  const file = await getFileStore().open(key);
  await file?.body.cancel();
  return file !== null;
}

describe("removeOrphanUploads", () => {
  it("removes old files no row refers to, and keeps attachments, photo variants, recent files and uploads in progress", async () => {
    await database.db.execute(sql`
      with request as (
        insert into solicitudes (number, type, name, email, description, privacy_accepted_at, form_token)
        values ('SOL-2026-0001', 'cotizacion', 'Ana Prueba', 'ana@example.com', 'Soporte con barrenos roscados M6.', now(), 'huerfanos')
        returning id
      )
      insert into solicitud_files (solicitud_id, original_name, storage_path, kind, mime_type, size, sha256)
      select id, 'soporte.step', '2026/01/adjunto', 'step', 'model/step', 9, 'abc' from request`);
    await database.db.execute(sql`
      with product as (
        insert into products (slug, sku, name, category, short_description, price_centavos, unit, stock)
        values ('soporte-huerfanos', 'FOR-HUE-01', 'Soporte', 'Pruebas', 'Soporte para la prueba de archivos.', 10000, 'pieza', 1)
        returning id
      )
      insert into product_images (product_id, alt, width, height, variants)
      select id, 'Vista', 640, 480, '[{"width":320,"height":240,"path":"2026/01/foto-320.webp"},{"width":640,"height":480,"path":"2026/01/foto-640.webp"}]'::jsonb from product`);

    const attachment = await store("2026/01/adjunto", { old: true });
    const photos = [await store("2026/01/foto-320.webp", { old: true }), await store("2026/01/foto-640.webp", { old: true })];
    const orphan = await store("2026/01/huerfano", { old: true });
    const orphanPhoto = await store("2025/12/otra-foto-320.webp", { old: true });
    const recent = await store("2026/01/en-camino", { old: false });
    // An upload still being received (on disk, in the process's temporary folder).
    const inProgress = path.join(dataDir, "uploads", ".tmp", "subiendo");
    fs.mkdirSync(path.dirname(inProgress), { recursive: true });
    fs.writeFileSync(inProgress, "contenido");
    fs.utimesSync(inProgress, TWO_HOURS_AGO, TWO_HOURS_AGO);

    expect(await removeOrphanUploads()).toBe(2);
    expect(await exists(orphan)).toBe(false);
    expect(await exists(orphanPhoto)).toBe(false);
    for (const kept of [attachment, ...photos, recent]) expect(await exists(kept), kept).toBe(true);
    expect(fs.existsSync(inProgress)).toBe(true);
    // Nothing left to do the second time.
    expect(await removeOrphanUploads()).toBe(0);
  });

  it("removes nothing when most stored files have no row (a new or wrong database), and says so", async () => {
    const strays: string[] = [];
    for (let index = 0; index < 8; index++) strays.push(await store(`2026/02/ajeno-${index}`, { old: true }));
    expect(await removeOrphanUploads()).toBe(0);
    for (const stray of strays) expect(await exists(stray), stray).toBe(true);
    await getFileStore().remove(strays);
  });

  it("does nothing when nothing is stored yet (no uploads directory, no stored rows)", async () => {
    fs.rmSync(path.join(dataDir, "uploads"), { recursive: true, force: true });
    await getFileStore().remove(await collect(getFileStore().keys()));
    expect(await removeOrphanUploads()).toBe(0);
  });
});
