import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { media, type MediaVariant } from "~/db/schema/content";
import type { RichTextDocument, RichTextNode } from "~/lib/rich-text/document";
import type { ContentData } from "~/services/content/collection";
import { saveDraft } from "~/services/content/drafts.server";
import { listEntries } from "~/services/content/entries.server";
import { publish } from "~/services/content/publish.server";
import { seedContent } from "~/services/content/seed.server";
import { listRecords, viewRecord, type RecordJson } from "~/services/records/records.server";
import { recordCollections } from "~/services/records/registry.server";
import { createRecord, deleteRecord } from "~/services/records/writes.server";
import { setupTestDatabase } from "../../../../tests/support/test-database";
import { recordFormMedia } from "../editor/editor.server";
import { servicios } from "../content-collections/servicios";
import { renderSiteRichText } from "../rich-text.server";

// Library images in long texts and `medios` through the record API (docs/decisions/0050), on a real
// database wired as the server wires it (hooks.server.ts): the rows are written straight into the
// media table, since rendering and reading never open the files.

setupTestDatabase();

const ACTOR = { id: "staff-ana", name: "Ana López" };
const UNKNOWN = "00000000-0000-4000-8000-000000000000";

function variants(base: string, width: number, height: number): MediaVariant[] {
  return [400, 800, 1600]
    .filter((size) => size <= width)
    .flatMap((size) => (["avif", "webp"] as const).map((format) => ({ width: size, height: Math.round((height * size) / width), format, path: `${base}-${size}.${format}` })));
}

async function libraryImage(alt: string, width = 1600, height = 1200): Promise<string> {
  const base = `media/prueba-${Math.random().toString(16).slice(2)}`;
  const [row] = await getDb()
    .insert(media)
    .values({ fileName: `${base}-original.png`, originalName: "brida.png", mime: "image/png", bytes: 1000, width, height, alt, variants: variants(base, width, height) })
    .returning({ id: media.id });
  return row!.id;
}

const text = (value: string): RichTextNode => ({ type: "text", text: value, format: 0, detail: 0, mode: "normal", style: "", version: 1 });
const image = (mediaId: string, alt: string): RichTextNode => ({ type: "image", mediaId, alt, version: 1 });
const doc = (...children: RichTextNode[]): RichTextDocument => ({ root: { type: "root", version: 1, children } });
const paragraph = (...children: RichTextNode[]): RichTextNode => ({ type: "paragraph", version: 1, children });

let photo: string;

beforeAll(async () => {
  await seedContent();
  photo = await libraryImage("Brida de acero maquinada");
});

describe("library images in long texts", () => {
  it("render as a sanitized <picture>: AVIF then WebP at every width, the image's size, the node's alt text", async () => {
    const html = await renderSiteRichText(doc(paragraph(text("Antes "), image(photo, 'Brida "B" <script>alert(1)</script>'), text(" después"))));
    expect(html).toBe(
      `<p>Antes <picture><source type="image/avif" srcset="/medios/${photo}/400.avif 400w, /medios/${photo}/800.avif 800w, /medios/${photo}/1600.avif 1600w" sizes="(min-width: 768px) 720px, 100vw" />` +
        `<img src="/medios/${photo}/1600.webp" srcset="/medios/${photo}/400.webp 400w, /medios/${photo}/800.webp 800w, /medios/${photo}/1600.webp 1600w" sizes="(min-width: 768px) 720px, 100vw" ` +
        `alt="Brida &quot;B&quot; &lt;script&gt;alert(1)&lt;/script&gt;" width="1600" height="1200" loading="lazy" decoding="async" /></picture> después</p>`,
    );
  });

  it("leave out an image that is no longer in the library, and an id that cannot be one", async () => {
    const html = await renderSiteRichText(JSON.stringify(doc(paragraph(image(UNKNOWN, "Borrada"), text("Texto"), image("../../etc/passwd", "Mala")))));
    expect(html).toBe("<p>Texto</p>");
  });
});

describe("medios through the record API", () => {
  const guestList = async (query: Record<string, string> = {}) => {
    const result = await listRecords(recordCollections(), "medios", new URLSearchParams(query), null);
    if (!result.ok) throw new Error(JSON.stringify(result));
    return result.value;
  };

  it("lets anyone list and view the library with PocketBase's shapes: archivo, alt, ancho, alto and every variant's address", async () => {
    const page = await guestList({ filter: "alt ~ 'Brida'" });
    expect(page.totalItems).toBe(1);
    const record = page.items[0]!;
    expect(record).toMatchObject({ collectionId: "pbc_medios", collectionName: "medios", id: photo, archivo: "1600.webp", alt: "Brida de acero maquinada", ancho: 1600, alto: 1200, foco_x: 0.5, foco_y: 0.5 });
    expect(record.created).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect((record.variantes as { url: string }[]).map((variant) => variant.url)).toEqual([400, 800, 1600].flatMap((width) => [`/medios/${photo}/${width}.avif`, `/medios/${photo}/${width}.webp`]));

    const viewed = await viewRecord(recordCollections(), "medios", photo, new URLSearchParams(), null);
    expect(viewed.ok && viewed.value.alt).toBe("Brida de acero maquinada");
    const missing = await viewRecord(recordCollections(), "medios", UNKNOWN, new URLSearchParams(), null);
    expect(missing.ok).toBe(false);
    expect((await guestList({ filter: "ancho > 2000" })).totalItems).toBe(0);
  });

  it("is no content collection any more, and is written at /admin/medios only: the API refuses writes", async () => {
    await expect(listEntries("medios")).rejects.toThrow();
    const staff = { auth: { collection: "_superusers" as const, id: "staff-ana" }, name: "Ana López" };
    expect((await createRecord(recordCollections(), "medios", { data: { alt: "Otra" }, files: {} }, staff, new URLSearchParams())).status).toBe(403);
    expect((await deleteRecord(recordCollections(), "medios", photo, staff)).status).toBe(403);
    expect((await guestList({ filter: "alt ~ 'Brida'" })).totalItems).toBe(1);
  });

  it("answers a service's long text with its library images, and drops one that was deleted", async () => {
    const gone = await libraryImage("Pieza que se borrará", 800, 600);
    const [service] = await listEntries(servicios);
    const data: ContentData = { ...service!.published!, descripcion: doc(paragraph(text("Con foto.")), paragraph(image(photo, "Brida en el torno")), paragraph(image(gone, "Pieza borrada"))) };
    const saved = await saveDraft(servicios, { id: service!.id, data, expectedVersion: service!.version }, ACTOR);
    if (!saved.ok) throw new Error(JSON.stringify(saved));
    expect((await publish(servicios, service!.id, ACTOR, saved.value.version)).ok).toBe(true);
    await getDb().delete(media).where(eq(media.id, gone));

    const read = await viewRecord(recordCollections(), "servicios", service!.id, new URLSearchParams(), null);
    if (!read.ok) throw new Error(JSON.stringify(read));
    const html = String((read.value as RecordJson).descripcion_html);
    expect(html).toContain(`<picture><source type="image/avif" srcset="/medios/${photo}/400.avif 400w`);
    expect(html).toContain(`alt="Brida en el torno" width="1600" height="1200"`);
    expect(html).not.toContain(gone);
    expect(html).not.toContain("Pieza borrada");

    // The editor's form knows the images the record names (for its thumbnails), only those that exist.
    const form = await recordFormMedia(servicios, data);
    expect(Object.keys(form.media)).toEqual([photo]);
    expect(form.previews.descripcion).toContain(`/medios/${photo}/800.webp 800w`);
  });
});
