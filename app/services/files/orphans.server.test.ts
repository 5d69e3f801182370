import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// The start-up sweep of stored files that no row refers to (a crash between moving a request's files
// into place and committing its row), on a real database and a real directory.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("orphans"));

import { closeTestDatabase, createTestDatabase } from "../../../tests/support/test-database";
import type { Database } from "~/db/client.server";
import { removeOrphanUploads } from "./orphans.server";

let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await closeTestDatabase(database);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const TWO_HOURS_AGO = (Date.now() - 2 * 60 * 60 * 1000) / 1000;

function store(relative: string, { old }: { old: boolean }): string {
  const file = path.join(dataDir, "uploads", relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, "contenido");
  if (old) fs.utimesSync(file, TWO_HOURS_AGO, TWO_HOURS_AGO);
  return file;
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

    const attachment = store("2026/01/adjunto", { old: true });
    const photos = [store("2026/01/foto-320.webp", { old: true }), store("2026/01/foto-640.webp", { old: true })];
    const orphan = store("2026/01/huerfano", { old: true });
    const orphanPhoto = store("2025/12/otra-foto-320.webp", { old: true });
    const recent = store("2026/01/en-camino", { old: false });
    const inProgress = store(".tmp/subiendo", { old: true });

    expect(await removeOrphanUploads()).toBe(2);
    expect(fs.existsSync(orphan)).toBe(false);
    expect(fs.existsSync(orphanPhoto)).toBe(false);
    for (const kept of [attachment, ...photos, recent, inProgress]) expect(fs.existsSync(kept), kept).toBe(true);
    // Nothing left to do the second time.
    expect(await removeOrphanUploads()).toBe(0);
  });

  it("removes nothing when most stored files have no row (a new or wrong database), and says so", async () => {
    const strays = Array.from({ length: 8 }, (_, index) => store(`2026/02/ajeno-${index}`, { old: true }));
    expect(await removeOrphanUploads()).toBe(0);
    for (const stray of strays) expect(fs.existsSync(stray), stray).toBe(true);
    for (const stray of strays) fs.rmSync(stray);
  });

  it("does nothing when there is no uploads directory yet", async () => {
    fs.rmSync(path.join(dataDir, "uploads"), { recursive: true, force: true });
    expect(await removeOrphanUploads()).toBe(0);
  });
});
