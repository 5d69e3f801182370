import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startChangeFeed } from "~/db/change-feed.server";
import { getDatabase as currentDatabase } from "~/db/client.server";
import { failureStatus, type Result } from "~/lib/result";
import { plainText } from "~/lib/rich-text/plain-text";
import { RichTextSchema } from "~/lib/rich-text/document";
import { z } from "~/lib/zod";
import { connectRealtimeClient, realtimeSettled, startRealtime, subscribeRealtimeClient } from "~/services/realtime/index.server";
import type { RecordAuth, RecordCollection, RecordWriter } from "~/services/records/collection.server";
import { listRecords, recordErrorBody, viewRecord, type RecordJson, type RecordPage } from "~/services/records/records.server";
import { registerRecordCollections } from "~/services/records/registry.server";
import { createRecord, deleteRecord, updateRecord, type RecordAnswer } from "~/services/records/writes.server";
import { setupTestDatabase } from "../../../tests/support/test-database";
import type { ContentCollection } from "./collection";
import { saveDraft } from "./drafts.server";
import { listEntries } from "./entries.server";
import { publish } from "./publish.server";
import { publishedRecords } from "./published.server";
import { contentRecordCollections, richTextValue } from "./record-collection.server";
import { findRedirect } from "./redirects.server";
import { registerCollections } from "./registry.server";
import { seedContent } from "./seed.server";

// The content collections through the record API's engine (issue 16 §5), on a real database with
// the change feed and the realtime broker running as on the server: guests read only what is
// published and public, `?draft=true` is staff's, writes validate with the collection's rules and
// publish unless they are drafts, fixed records and singletons refuse what they must, rich text
// sent as HTML or Markdown comes out sanitized, and realtime hears publishes, not draft saves.
// The collections are this test's own (same contract as the site's).

const getDatabase = setupTestDatabase();

interface Nota extends Record<string, unknown> {
  slug: string;
  titulo: string;
  cuerpo: unknown;
  orden: number;
  etiquetas: string[];
  publicado: boolean;
}

const notas: ContentCollection<Nota> = {
  name: "notas",
  label: "Notas",
  singular: "nota",
  access: "public",
  singleton: false,
  slugField: "slug",
  fields: [
    { name: "slug", label: "Dirección", kind: "slug", required: true },
    { name: "titulo", label: "Título", kind: "text", required: true },
    { name: "cuerpo", label: "Texto", kind: "richtext" },
    { name: "orden", label: "Orden", kind: "number" },
    { name: "etiquetas", label: "Etiquetas", kind: "list" },
    { name: "publicado", label: "Publicado", kind: "boolean" },
  ],
  schema: z.object({
    slug: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "Use minúsculas, números y guiones."),
    titulo: z.string().trim().min(1, "Escriba el título."),
    cuerpo: RichTextSchema.optional(),
    orden: z.number({ error: "Escriba un número." }).int("Escriba un número entero.").default(0),
    etiquetas: z.array(z.string()).default([]),
    publicado: z.boolean().default(true),
  }) as unknown as z.ZodType<Nota>,
  seed: () => [
    { slug: "fija", titulo: "Fija", cuerpo: "", orden: 1, etiquetas: ["base"], publicado: true },
    { slug: "visible", titulo: "Visible", cuerpo: "", orden: 2, etiquetas: ["acero", "corte"], publicado: true },
    { slug: "oculta", titulo: "Oculta", cuerpo: "", orden: 3, etiquetas: [], publicado: false },
  ],
  fixedSlugs: ["fija"],
  isPublic: (data) => data.publicado,
  paths: (data) => [`/notas/${data.slug}`],
  compare: (a, b) => a.orden - b.orden,
};

interface Datos extends Record<string, unknown> {
  telefono: string;
}

const datos: ContentCollection<Datos> = {
  name: "datos",
  label: "Datos",
  singular: "dato",
  access: "admin",
  singleton: true,
  fields: [{ name: "telefono", label: "Teléfono", kind: "phone" }],
  schema: z.object({ telefono: z.string().regex(/^\d{10}$/, "Escriba los 10 dígitos.") }),
  seed: () => [{ telefono: "5512345678" }],
  isPublic: () => true,
  paths: () => ["/contact"],
};

const redirecciones: ContentCollection<{ desde: string; hacia: string }> = {
  name: "redirecciones",
  label: "Redirecciones",
  singular: "redirección",
  access: "public",
  singleton: false,
  fields: [
    { name: "desde", label: "Desde", kind: "text" },
    { name: "hacia", label: "Hacia", kind: "text" },
  ],
  schema: z.object({ desde: z.string(), hacia: z.string() }),
  seed: () => [],
  isPublic: () => true,
  paths: () => [],
};

const STAFF: RecordAuth = { collection: "_superusers", id: "staff-ana" };
const WRITER: RecordWriter = { auth: { collection: "_superusers", id: "staff-ana" }, name: "Ana López" };
const CUSTOMER: RecordWriter = { auth: { collection: "users", id: "cliente-1" }, name: "Cliente" };

let collections: RecordCollection[];
let feed: { stop: () => Promise<void> };
let realtime: { stop: () => Promise<void> };

beforeAll(async () => {
  feed = await startChangeFeed(getDatabase());
  realtime = await startRealtime(currentDatabase());
  registerCollections([notas, datos, redirecciones]);
  collections = contentRecordCollections([notas, datos, redirecciones]);
  registerRecordCollections(collections);
  await seedContent();
});

afterAll(async () => {
  await realtime?.stop();
  await feed?.stop();
});

const q = (query: Record<string, string> = {}) => new URLSearchParams(query);
const list = (name: string, query: Record<string, string> = {}, auth: RecordAuth = null) => listRecords(collections, name, q(query), auth);
const view = (name: string, id: string, query: Record<string, string> = {}, auth: RecordAuth = null) => viewRecord(collections, name, id, q(query), auth);
const create = (name: string, data: Record<string, unknown>, query: Record<string, string> = {}, writer: RecordWriter = WRITER) => createRecord(collections, name, { data, files: {} }, writer, q(query));
const update = (name: string, id: string, data: Record<string, unknown>, query: Record<string, string> = {}, writer: RecordWriter = WRITER) =>
  updateRecord(collections, name, id, { data, files: {} }, writer, q(query));

function value<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result)}`);
  return result.value;
}

function errorOf(result: Result<unknown>) {
  if (result.ok) throw new Error("expected a failure");
  return recordErrorBody(result, failureStatus(result));
}

function body(answer: RecordAnswer): RecordJson {
  if (answer.status !== 200) throw new Error(`expected 200, got ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body as RecordJson;
}

const slugs = (page: RecordPage) => page.items.map((item) => item.slug);

describe("reads", () => {
  it("lists to a guest only what is published and public, in PocketBase's shape, with filter and sort over the record's fields", async () => {
    const page = value(await list("notas"));
    expect(Object.keys(page)).toEqual(["page", "perPage", "totalItems", "totalPages", "items"]);
    expect(slugs(page).sort()).toEqual(["fija", "visible"]);
    expect(page.items[0]).toMatchObject({ collectionId: "pbc_notas", collectionName: "notas" });
    expect(page.items[0]!.created).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}Z$/);

    expect(slugs(value(await list("notas", { sort: "-orden" })))).toEqual(["visible", "fija"]);
    expect(slugs(value(await list("notas", { filter: "orden >= 2" })))).toEqual(["visible"]);
    expect(slugs(value(await list("notas", { filter: "titulo ~ 'fij' && publicado = true" })))).toEqual(["fija"]);
    expect(slugs(value(await list("notas", { filter: "etiquetas ?= 'corte'" })))).toEqual(["visible"]);
    expect(value(await list("notas", { filter: "slug = 'oculta'" })).totalItems).toBe(0);
    expect(errorOf(await list("notas", { filter: "nada = 1" }))).toEqual({ status: 400, message: "Something went wrong while processing your request.", data: {} });

    const oculta = (await listEntries(notas)).find((entry) => entry.slug === "oculta")!;
    expect(errorOf(await view("notas", oculta.id))).toMatchObject({ status: 404 });
    // Staff see every published record, the hidden one too.
    expect(value(await view("notas", oculta.id, {}, STAFF))).toMatchObject({ slug: "oculta", publicado: false });
  });

  it("answers 403 to a guest or a customer on the admins' collection and on ?draft=true", async () => {
    expect(errorOf(await list("datos"))).toEqual({ status: 403, message: "Only superusers can perform this action.", data: {} });
    expect(errorOf(await list("datos", {}, { collection: "users", id: "cliente-1" }))).toMatchObject({ status: 403 });
    expect(errorOf(await list("notas", { draft: "true" }))).toEqual({ status: 403, message: "Only superusers can perform this action.", data: {} });
    const fija = value(await list("notas", { filter: "slug = 'fija'" })).items[0]!;
    expect(errorOf(await view("notas", String(fija.id), { draft: "true" }))).toMatchObject({ status: 403 });
    expect(value(await list("datos", {}, STAFF)).items).toMatchObject([{ telefono: "5512345678" }]);
  });
});

describe("writes", () => {
  it("keeps a staff draft write out of public reads until a write without ?draft=true publishes it", async () => {
    const draft = body(await create("notas", { slug: "nueva", titulo: "Nueva", cuerpo: "Primer **borrador**.", orden: "5" }, { draft: "true" }));
    expect(draft).toMatchObject({ slug: "nueva", titulo: "Nueva", orden: 5, publicado: true });
    const id = String(draft.id);
    expect(errorOf(await view("notas", id))).toMatchObject({ status: 404 });
    expect(errorOf(await view("notas", id, {}, STAFF))).toMatchObject({ status: 404 });
    expect(slugs(value(await list("notas", { draft: "true", sort: "orden" }, STAFF)))).toEqual(["fija", "visible", "oculta", "nueva"]);

    // A published record's draft: the public still reads the published words.
    const visible = value(await list("notas", { filter: "slug = 'visible'" })).items[0]!;
    body(await update("notas", String(visible.id), { titulo: "Visible (cambio pendiente)" }, { draft: "true" }));
    expect(value(await view("notas", String(visible.id))).titulo).toBe("Visible");
    expect(value(await view("notas", String(visible.id), { draft: "true" }, STAFF)).titulo).toBe("Visible (cambio pendiente)");

    // Publishing through the API: the draft with the body's changes goes live, in one version.
    const published = body(await update("notas", id, { titulo: "Nueva y publicada" }));
    expect(published).toMatchObject({ slug: "nueva", titulo: "Nueva y publicada" });
    expect(value(await view("notas", id))).toMatchObject({ titulo: "Nueva y publicada", cuerpo_html: "<p>Primer <strong>borrador</strong>.</p>" });
    expect((await listEntries(notas)).find((entry) => entry.id === id)).toMatchObject({ state: "publicado", draft: null });
  });

  it("answers PocketBase's 400 with the collection's Spanish messages per field, and writes nothing", async () => {
    const before = (await listEntries(notas)).length;
    const refused = await create("notas", { slug: "Con Espacios", titulo: " ", orden: "tres" });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      status: 400,
      message: "Failed to create record.",
      data: {
        slug: { code: "validation_invalid_value", message: "Use minúsculas, números y guiones." },
        titulo: { code: "validation_invalid_value", message: "Escriba el título." },
        orden: { code: "validation_invalid_value", message: "Escriba un número." },
      },
    });
    expect((await listEntries(notas)).length).toBe(before);
    const taken = await create("notas", { slug: "visible", titulo: "Otra" });
    expect(taken).toMatchObject({ status: 400, body: { data: { slug: { message: expect.stringMatching(/dirección|uso|usa/i) } } } });
  });

  it("refuses writes to guests, customers, and non-admins on the admins' collection", async () => {
    expect(await create("notas", { slug: "x", titulo: "X" }, {}, null)).toMatchObject({ status: 403, body: { message: "Only superusers can perform this action." } });
    expect(await create("notas", { slug: "x", titulo: "X" }, {}, CUSTOMER)).toMatchObject({ status: 403 });
  });

  it("refuses deleting a fixed record with a Spanish message, and deletes others", async () => {
    const fija = value(await list("notas", { filter: "slug = 'fija'" })).items[0]!;
    const refused = await deleteRecord(collections, "notas", String(fija.id), WRITER);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ message: expect.any(String), data: { slug: { code: "validation_invalid_state", message: "Este registro siempre existe en el sitio y no puede eliminarse. Puede editar su contenido." } } });
    expect(value(await view("notas", String(fija.id)))).toMatchObject({ slug: "fija" });

    const temporal = body(await create("notas", { slug: "temporal", titulo: "Temporal" }));
    expect((await deleteRecord(collections, "notas", String(temporal.id), WRITER)).status).toBe(204);
    expect(errorOf(await view("notas", String(temporal.id), {}, STAFF))).toMatchObject({ status: 404 });
    expect((await deleteRecord(collections, "notas", String(temporal.id), null)).status).toBe(403);
  });

  it("refuses creating a singleton's second record and updates its one record by id", async () => {
    const refused = await create("datos", { telefono: "5599999999" });
    expect(refused).toMatchObject({ status: 400, body: { data: { id: { message: "Datos tiene un solo registro: edite el que ya existe." } } } });
    const [record] = value(await list("datos", {}, STAFF)).items;
    expect(body(await update("datos", String(record!.id), { telefono: "5587654321" }))).toMatchObject({ telefono: "5587654321" });
    expect((await publishedRecords(datos))[0]!.data.telefono).toBe("5587654321");
    expect((await update("datos", String(record!.id), { telefono: "123" })).body).toMatchObject({ data: { telefono: { message: "Escriba los 10 dígitos." } } });
  });
});

describe("rich text", () => {
  const attacks = {
    html: '<h2>Título</h2><p onclick="alert(1)">Hola <a href="javascript:alert(2)">aquí</a> <img src=x onerror="alert(3)"></p><script>alert(4)</script><a href="https://example.com">fuera</a>',
    markdown: "# Título\n\nHola [aquí](javascript:alert(2)) <script>alert(4)</script> <img src=x onerror=alert(3)>\n\n[fuera](https://example.com)",
  };

  for (const [kind, payload] of Object.entries(attacks)) {
    it(`accepts ${kind} and answers it sanitized, with the editor's JSON beside it`, async () => {
      const saved = body(await create("notas", { slug: `ataque-${kind}`, titulo: "Ataque", cuerpo: payload }));
      const html = String(saved.cuerpo_html);
      expect(html).toContain("Título");
      expect(html).toContain("Hola");
      expect(html).not.toMatch(/<script|<img|\son[a-z]+=|javascript:/i);
      expect(html).toMatch(/<a href="https:\/\/example\.com\/?" rel="noopener noreferrer" target="_blank">fuera<\/a>/);
      expect(saved.cuerpo).toMatchObject({ root: { type: "root" } });
      expect(plainText(saved.cuerpo as Parameters<typeof plainText>[0])).toContain("Título");
    });
  }

  it("takes the editor's JSON as an object or as text, and refuses what is not a document", async () => {
    const document = await richTextValue("Hola *mundo*.");
    expect(body(await create("notas", { slug: "json-objeto", titulo: "JSON", cuerpo: document })).cuerpo_html).toBe("<p>Hola <em>mundo</em>.</p>");
    expect(body(await create("notas", { slug: "json-texto", titulo: "JSON", cuerpo: JSON.stringify(document) })).cuerpo_html).toBe("<p>Hola <em>mundo</em>.</p>");
    const refused = await create("notas", { slug: "json-malo", titulo: "JSON", cuerpo: { root: "no" } });
    expect(refused).toMatchObject({ status: 400, body: { data: { cuerpo: { code: "validation_invalid_value" } } } });
  });
});

describe("redirecciones", () => {
  it("lists, writes and deletes the store's redirects", async () => {
    const created = body(await create("redirecciones", { desde: "/viejo", hacia: "/notas/visible" }));
    expect(created).toMatchObject({ collectionName: "redirecciones", desde: "/viejo", hacia: "/notas/visible" });
    expect(await findRedirect("/viejo")).toBe("/notas/visible");
    expect(value(await list("redirecciones", { filter: "desde = '/viejo'" })).items).toHaveLength(1);
    const refused = await create("redirecciones", { desde: "viejo", hacia: "/x" });
    expect(refused).toMatchObject({ status: 400, body: { data: { desde: { message: expect.stringContaining("empezando con /") } } } });
    expect(await create("redirecciones", { desde: "/otro", hacia: "/x" }, {}, null)).toMatchObject({ status: 403 });
    expect((await deleteRecord(collections, "redirecciones", String(created.id), WRITER)).status).toBe(204);
    expect(await findRedirect("/viejo")).toBeNull();
  });
});

describe("realtime", () => {
  it("sends a guest the publish of a public record, never a draft save or a hidden record", async () => {
    const { clientId, body: stream } = connectRealtimeClient({ ip: "127.0.0.1" });
    const reader = stream.getReader();
    const decoder = new TextDecoder();
    let text = "";
    const reading = (async () => {
      for (;;) {
        const { value: chunk, done } = await reader.read();
        if (done) return;
        text += decoder.decode(chunk, { stream: true });
      }
    })();
    const events = () =>
      text
        .split("\n\n")
        .filter((block) => block.includes("event:notas/*"))
        .map((block) => JSON.parse(block.split("\n").find((line) => line.startsWith("data:"))!.slice(5)) as { action: string; record: Record<string, unknown> });
    const settled = async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      await realtimeSettled();
    };
    try {
      expect(await subscribeRealtimeClient(clientId, { ip: "127.0.0.1", auth: null, subscriptions: ["notas/*"] })).toBe("ok");
      const visible = (await listEntries(notas)).find((entry) => entry.slug === "visible")!;
      const saved = await saveDraft(notas, { id: visible.id, data: { ...(visible.draft ?? visible.published)!, titulo: "Visible otra vez" } }, { id: "staff-ana", name: "Ana" });
      expect(saved.ok).toBe(true);
      await settled();
      expect(events()).toEqual([]);

      expect((await publish(notas, visible.id, { id: "staff-ana", name: "Ana" })).ok).toBe(true);
      await settled();
      expect(events()).toMatchObject([{ action: "update", record: { id: visible.id, collectionName: "notas", titulo: "Visible otra vez" } }]);

      // A hidden record's publish and a new public one's first publish.
      const oculta = (await listEntries(notas)).find((entry) => entry.slug === "oculta")!;
      body(await update("notas", oculta.id, { titulo: "Sigue oculta" }));
      const nueva = body(await create("notas", { slug: "anunciada", titulo: "Anunciada" }));
      await settled();
      expect(events().slice(1)).toMatchObject([{ action: "create", record: { id: nueva.id, slug: "anunciada" } }]);

      expect((await deleteRecord(collections, "notas", String(nueva.id), WRITER)).status).toBe(204);
      await settled();
      expect(events().at(-1)).toMatchObject({ action: "delete", record: { id: nueva.id } });
    } finally {
      await reader.cancel();
      await reading;
    }
  });
});
