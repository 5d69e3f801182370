import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startChangeFeed } from "~/db/change-feed.server";
import { z } from "~/lib/zod";
import { setupTestDatabase } from "../../../tests/support/test-database";
import type { ContentCollection } from "./collection";
import { saveDraft } from "./drafts.server";
import { activeDraftPreview, loadDraftPreview, withDraftPreview, type DraftPreview } from "./preview.server";
import { publish } from "./publish.server";
import { publishedRecord, publishedRecords, singleton } from "./published.server";
import { registerCollections } from "./registry.server";
import { seedContent } from "./seed.server";

// The draft scope of «Vista previa» (docs/decisions/0049) on a real database, with the change feed
// listening as on the server: inside the scope the public reads answer the previewed record's
// draft; outside it, and for every other request at the same time, the published data — and the
// shared cache never holds a draft, whichever request filled it first.

const getDatabase = setupTestDatabase();
let feed: { stop: () => Promise<void> };
beforeAll(async () => {
  feed = await startChangeFeed(getDatabase());
  registerCollections([avisos, portada]);
  await seedContent();
});
afterAll(async () => {
  await feed?.stop();
});

interface Aviso extends Record<string, unknown> {
  slug: string;
  titulo: string;
  orden: number;
  publicado: boolean;
}

const avisos: ContentCollection<Aviso> = {
  name: "avisos_vista",
  label: "Avisos",
  singular: "aviso",
  access: "public",
  singleton: false,
  slugField: "slug",
  fields: [
    { name: "slug", label: "Dirección", kind: "slug", required: true },
    { name: "titulo", label: "Título", kind: "text", required: true },
    { name: "orden", label: "Orden", kind: "number" },
    { name: "publicado", label: "Publicado", kind: "boolean" },
  ],
  schema: z.object({
    slug: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "Use minúsculas, números y guiones."),
    titulo: z.string().trim().min(1, "Escriba el título."),
    orden: z.number().int().default(0),
    publicado: z.boolean().default(true),
  }),
  seed: () => [
    { slug: "horario", titulo: "Horario de diciembre", orden: 1, publicado: true },
    { slug: "envios", titulo: "Envíos a todo México", orden: 2, publicado: true },
  ],
  isPublic: (data) => data.publicado,
  paths: (data) => [`/avisos-${data.slug}`],
  compare: (a, b) => a.orden - b.orden,
};

interface Portada extends Record<string, unknown> {
  titular: string;
}

const portada: ContentCollection<Portada> = {
  name: "portada_vista",
  label: "Portada",
  singular: "portada",
  access: "public",
  singleton: true,
  fields: [{ name: "titular", label: "Titular", kind: "text", required: true }],
  schema: z.object({ titular: z.string().trim().min(1, "Escriba el titular.") }),
  seed: () => [{ titular: "Piezas a medida" }],
  isPublic: () => true,
  paths: () => ["/"],
};

const ana = { id: "staff-ana", name: "Ana López" };

async function must<V>(result: Promise<{ ok: true; value: V } | { ok: false }>): Promise<V> {
  const answer = await result;
  if (!answer.ok) throw new Error(`Expected ok, got ${JSON.stringify(answer)}`);
  return answer.value;
}

async function idOf(slug: string): Promise<string> {
  const record = await publishedRecord(avisos, slug);
  if (!record) throw new Error(`No published aviso ${slug}`);
  return record.id;
}

async function previewOf(id: string): Promise<DraftPreview> {
  const preview = await loadDraftPreview(id);
  if (!preview) throw new Error(`No preview for ${id}`);
  return preview;
}

const titles = async () => (await publishedRecords(avisos)).map((record) => record.data.titulo);

describe("the draft scope of a preview", () => {
  it("answers the previewed record's draft inside the scope, the published data outside, and keeps the draft out of the shared cache", async () => {
    const id = await idOf("horario");
    const entry = await must(saveDraft(avisos, { id, data: { slug: "horario", titulo: "Horario de fin de año", orden: 1, publicado: true } }, ana));
    const published = await publishedRecords(avisos); // the cache, warm
    const preview = await previewOf(id);
    expect(preview).toMatchObject({ visible: true, record: { id, data: { titulo: "Horario de fin de año" } } });
    expect(preview.collection.name).toBe("avisos_vista");

    const inside = await withDraftPreview(preview, async () => ({
      active: activeDraftPreview(),
      titles: await titles(),
      bySlug: await publishedRecord(avisos, "HORARIO"),
    }));
    expect(inside.active).toBe(preview);
    expect(inside.titles).toEqual(["Horario de fin de año", "Envíos a todo México"]);
    expect(inside.bySlug?.data.titulo).toBe("Horario de fin de año");

    // Outside: the very list the cache held before, with no draft in it.
    expect(activeDraftPreview()).toBeUndefined();
    expect(await publishedRecords(avisos)).toBe(published);
    expect(await titles()).toEqual(["Horario de diciembre", "Envíos a todo México"]);
    expect(entry.state).toBe("cambios");
  });

  it("never lets a preview that reads first fill the shared cache with its draft, nor a public read at the same moment see it", async () => {
    const id = await idOf("envios");
    await must(saveDraft(avisos, { id, data: { slug: "envios", titulo: "Envíos gratis", orden: 0, publicado: true } }, ana));
    const preview = await previewOf(id);
    // Publishing the other record empties the collection's cache: the preview is the first to read.
    const other = await idOf("horario");
    const current = await must(saveDraft(avisos, { id: other, data: { slug: "horario", titulo: "Horario de fin de año", orden: 1, publicado: true } }, ana));
    await must(publish(avisos, other, ana, current.version));

    expect(await withDraftPreview(preview, titles)).toEqual(["Envíos gratis", "Horario de fin de año"]);
    expect(await titles()).toEqual(["Horario de fin de año", "Envíos a todo México"]);
    const [inPreview, forTheVisitor] = await Promise.all([withDraftPreview(preview, titles), titles()]);
    expect(inPreview).toEqual(["Envíos gratis", "Horario de fin de año"]);
    expect(forTheVisitor).toEqual(["Horario de fin de año", "Envíos a todo México"]);
  });

  it("shows a record never published in its preview only, and leaves out a draft that is not public", async () => {
    const nuevo = await must(saveDraft(avisos, { data: { slug: "vacaciones", titulo: "Vacaciones de verano", orden: 3, publicado: true } }, ana));
    const hidden = await must(saveDraft(avisos, { data: { slug: "interno", titulo: "Aviso interno", orden: 4, publicado: false } }, ana));

    expect(await withDraftPreview(await previewOf(nuevo.id), () => publishedRecord(avisos, "vacaciones"))).toMatchObject({ id: nuevo.id, data: { titulo: "Vacaciones de verano" } });
    expect(await publishedRecord(avisos, "vacaciones")).toBeNull();

    const hiddenPreview = await previewOf(hidden.id);
    expect(hiddenPreview.visible).toBe(false);
    expect(await withDraftPreview(hiddenPreview, titles)).not.toContain("Aviso interno");
  });

  it("previews a one-record collection through singleton(), and only the previewed collection changes", async () => {
    const [only] = await publishedRecords(portada);
    await must(saveDraft(portada, { id: only!.id, data: { titular: "Maquinado CNC en Querétaro" } }, ana));
    const preview = await previewOf(only!.id);
    const inside = await withDraftPreview(preview, async () => ({ home: await singleton(portada), notices: await titles() }));
    expect(inside.home?.data.titular).toBe("Maquinado CNC en Querétaro");
    expect(inside.notices).toEqual(await titles());
    expect((await singleton(portada))?.data.titular).toBe("Piezas a medida");
  });

  it("finds no preview for an id that is not a record", async () => {
    expect(await loadDraftPreview("no-es-un-id")).toBeNull();
    expect(await loadDraftPreview("00000000-0000-4000-8000-000000000000")).toBeNull();
  });
});
