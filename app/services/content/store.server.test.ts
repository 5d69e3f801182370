import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changeVersion, startChangeFeed } from "~/db/change-feed.server";
import { getDb } from "~/db/client.server";
import { contentEntries, contentSeeds } from "~/db/schema/content";
import { z } from "~/lib/zod";
import { setupTestDatabase } from "../../../tests/support/test-database";
import type { ContentCollection } from "./collection";
import { deleteEntry, saveDraft } from "./drafts.server";
import { getEntry, listEntries } from "./entries.server";
import { acquireLock, heartbeat, releaseLock, takeOver } from "./locks.server";
import { publish } from "./publish.server";
import { publishedRecord, publishedRecords, singleton } from "./published.server";
import { findRedirect, listRedirects, saveRedirect } from "./redirects.server";
import { listCollections, registerCollections } from "./registry.server";
import { runDuePublications, schedule, startScheduledPublications } from "./schedule.server";
import { seedContent } from "./seed.server";
import { diffVersions, listVersions, restoreVersion } from "./versions.server";

// The content store on a real database (PGlite, or PostgreSQL with TEST_DATABASE_URL), with the
// change feed listening as on the server: seeding once, drafts, publishing, conflicts, schedules
// claimed by one runner, history, redirects and locks. The collections are this test's own.

const getDatabase = setupTestDatabase();
let feed: { stop: () => Promise<void> };
beforeAll(async () => {
  feed = await startChangeFeed(getDatabase());
  registerCollections([notas, datos]);
});
afterAll(async () => {
  await feed?.stop();
});

interface Nota extends Record<string, unknown> {
  slug: string;
  titulo: string;
  cuerpo: string;
  orden: number;
  publicado: boolean;
}

const NotaSchema = z.object({
  slug: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "Use minúsculas, números y guiones."),
  titulo: z.string().trim().min(1, "Escriba el título."),
  cuerpo: z.string().default(""),
  orden: z.number().int().default(0),
  publicado: z.boolean().default(true),
});

const seedNotas: Nota[] = [
  { slug: "nosotros", titulo: "Nosotros", cuerpo: "Somos un taller. Hacemos piezas.", orden: 1, publicado: true },
  { slug: "aviso", titulo: "Aviso", cuerpo: "Aviso de privacidad.", orden: 2, publicado: true },
  { slug: "oculta", titulo: "Oculta", cuerpo: "No se muestra.", orden: 3, publicado: false },
  { slug: "temporal", titulo: "Temporal", cuerpo: "Se eliminará.", orden: 4, publicado: true },
];

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
    { name: "cuerpo", label: "Texto", kind: "textarea" },
    { name: "orden", label: "Orden", kind: "number" },
    { name: "publicado", label: "Publicado", kind: "boolean" },
  ],
  schema: NotaSchema,
  seed: () => seedNotas,
  fixedSlugs: ["nosotros"],
  isPublic: (data) => data.publicado,
  paths: (data) => [`/${data.slug}`],
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
  schema: z.object({ telefono: z.string().min(10, "Escriba los 10 dígitos.") }),
  seed: () => [{ telefono: "5512345678" }],
  isPublic: () => true,
  paths: () => ["/contact"],
};

const ana = { id: "staff-ana", name: "Ana López" };
const beto = { id: "staff-beto", name: "Beto Ruiz" };
const at = (iso: string) => new Date(iso);

/** The NOTIFY of a commit reaches the feed at once on PGlite, a moment later over PostgreSQL's socket. */
async function waitFor(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function entryBySlug(slug: string) {
  const [row] = await getDb().select().from(contentEntries).where(sql`lower(${contentEntries.slug}) = ${slug}`);
  return row!;
}

async function must<V>(result: Promise<{ ok: true; value: V } | { ok: false }>): Promise<V> {
  const answer = await result;
  if (!answer.ok) throw new Error(`Expected ok, got ${JSON.stringify(answer)}`);
  return answer.value;
}

describe("seedContent", () => {
  it("loads the demo content once, published as version 1 by Forja, and never revives what staff deleted or renamed", async () => {
    // Every registered collection: this test's own and the site's (the database set-up registers those).
    const registered = listCollections().map((collection) => collection.name);
    expect(registered).toEqual(expect.arrayContaining(["datos", "notas"]));
    expect((await seedContent()).sort()).toEqual(registered.sort());

    const records = await publishedRecords(notas);
    expect(records.map((record) => record.data.slug)).toEqual(["nosotros", "aviso", "temporal"]);
    const nosotros = await entryBySlug("nosotros");
    expect(nosotros.fixed).toBe(true);
    expect((await entryBySlug("aviso")).fixed).toBe(false);
    expect(await listVersions(nosotros.id)).toMatchObject([{ number: 1, publishedBy: { id: null, name: "Forja" } }]);
    expect((await singleton(datos))?.data.telefono).toBe("5512345678");

    // Staff delete one record and rename another; a later start seeds nothing.
    const temporal = await entryBySlug("temporal");
    expect((await deleteEntry(notas, temporal.id)).ok).toBe(true);
    const aviso = await entryBySlug("aviso");
    await must(saveDraft(notas, { id: aviso.id, data: { ...aviso.published, slug: "aviso-de-privacidad" }, expectedVersion: aviso.version }, ana));
    await must(publish(notas, aviso.id, ana));

    expect(await seedContent()).toEqual([]);
    const rows = await getDb().select({ slug: contentEntries.slug }).from(contentEntries).where(eq(contentEntries.collection, "notas"));
    expect(rows.map((row) => row.slug).sort()).toEqual(["aviso-de-privacidad", "nosotros", "oculta"]);
  });

  it("seeds a new collection once even when two processes start at the same moment", async () => {
    const avisos: ContentCollection<Datos> = { ...datos, name: "avisos", label: "Avisos", singular: "aviso" };
    registerCollections([avisos]);
    const [first, second] = await Promise.all([seedContent(), seedContent()]);
    expect([...first, ...second]).toEqual(["avisos"]);
    const rows = await getDb().select().from(contentEntries).where(eq(contentEntries.collection, "avisos"));
    expect(rows).toHaveLength(1);
    expect(await getDb().select().from(contentSeeds).where(eq(contentSeeds.collection, "avisos"))).toHaveLength(1);
  });
});

describe("drafts and publishing", () => {
  it("keeps a new record as a draft, not public, until it is published; publishing appends a version", async () => {
    const before = await publishedRecords(notas);
    const created = await must(saveDraft(notas, { data: { slug: "garantia", titulo: "Garantía", cuerpo: "Un año." } }, ana));
    expect(created).toMatchObject({ state: "borrador", published: null, version: 1, draftSavedBy: { name: "Ana López" } });
    expect(created.draft).toMatchObject({ slug: "garantia", orden: 0, publicado: true });
    expect(await publishedRecord(notas, "garantia")).toBeNull();
    expect(await publishedRecords(notas)).toBe(before);

    const published = await must(publish(notas, created.id, ana, created.version));
    expect(published).toMatchObject({ state: "publicado", draft: null, version: 2, slug: "garantia", publishedBy: { id: "staff-ana", name: "Ana López" } });
    await waitFor(async () => (await publishedRecord(notas, "GARANTIA"))?.data.titulo === "Garantía", "the published record");
    expect(await listVersions(created.id)).toMatchObject([{ number: 1, publishedBy: { name: "Ana López" } }]);

    // A second draft leaves the live text alone until it is published too.
    await must(saveDraft(notas, { id: created.id, data: { ...published.published, cuerpo: "Dos años." }, expectedVersion: 2 }, beto));
    expect((await must(getEntry(notas, created.id))).state).toBe("cambios");
    expect((await publishedRecord(notas, "garantia"))?.data.cuerpo).toBe("Un año.");
    await must(publish(notas, created.id, beto, 3));
    await waitFor(async () => (await publishedRecord(notas, "garantia"))?.data.cuerpo === "Dos años.", "the second version");
    expect((await listVersions(created.id)).map((version) => version.number)).toEqual([2, 1]);
  });

  it("does not show a published record whose own flag says it is not public", async () => {
    expect(await publishedRecord(notas, "oculta")).toBeNull();
    expect((await listEntries(notas)).some((entry) => entry.published?.slug === "oculta")).toBe(true);
  });

  it("refuses invalid data with Spanish messages per field and writes nothing", async () => {
    const answer = await saveDraft(notas, { data: { slug: "Con Espacios", titulo: "  " } }, ana);
    expect(answer).toMatchObject({ ok: false, kind: "invalid", fieldErrors: { slug: ["Use minúsculas, números y guiones."], titulo: ["Escriba el título."] } });
    const missing = await saveDraft(notas, { data: { titulo: "Sin dirección" } }, ana);
    expect(missing).toMatchObject({ ok: false, kind: "invalid", fieldErrors: { slug: ["Este campo es obligatorio."] } });
    const rows = await getDb().select().from(contentEntries).where(sql`${contentEntries.draft} ->> 'titulo' = 'Sin dirección'`);
    expect(rows).toHaveLength(0);
  });

  it("answers a save from a stale copy with both versions and who saved, never overwriting", async () => {
    const entry = await must(saveDraft(notas, { data: { slug: "envios", titulo: "Envíos", cuerpo: "Versión de Ana." } }, ana));
    await must(saveDraft(notas, { id: entry.id, data: { ...entry.draft, cuerpo: "Versión de Beto." }, expectedVersion: entry.version }, beto));
    const stale = await saveDraft(notas, { id: entry.id, data: { ...entry.draft, cuerpo: "Otra de Ana." }, expectedVersion: entry.version }, ana);
    expect(stale).toMatchObject({
      ok: false,
      kind: "conflict",
      current: { version: entry.version + 1, draft: { cuerpo: "Versión de Beto." }, draftSavedBy: { name: "Beto Ruiz" } },
      yours: { cuerpo: "Otra de Ana." },
    });
    expect(stale.ok === false && stale.kind === "conflict" && stale.message).toContain("Beto Ruiz");
    expect((await must(getEntry(notas, entry.id))).draft?.cuerpo).toBe("Versión de Beto.");
    // Publishing from the stale copy is refused the same way.
    expect(await publish(notas, entry.id, ana, entry.version)).toMatchObject({ ok: false, kind: "conflict" });
  });

  it("sends the content notification on publish but not on a draft save or a lock's heartbeat", async () => {
    const entry = await must(saveDraft(notas, { data: { slug: "horarios", titulo: "Horarios" } }, ana));
    const quiet = changeVersion("contenido:notas");
    await must(saveDraft(notas, { id: entry.id, data: { ...entry.draft, cuerpo: "De 9 a 18 h." } }, ana));
    await must(acquireLock(entry.id, ana));
    await must(heartbeat(entry.id, ana));
    expect(changeVersion("contenido:notas")).toBe(quiet);
    const any = changeVersion("contenido");
    await must(publish(notas, entry.id, ana));
    await waitFor(() => changeVersion("contenido:notas") !== quiet && changeVersion("contenido") !== any, "the publish notification");
  });

  it("never deletes a record that always exists, nor changes its slug", async () => {
    const nosotros = await entryBySlug("nosotros");
    expect(await deleteEntry(notas, nosotros.id)).toMatchObject({ ok: false, kind: "conflict", message: expect.stringContaining("no puede eliminarse") });
    const renamed = await saveDraft(notas, { id: nosotros.id, data: { ...nosotros.published, slug: "quienes-somos" } }, ana);
    expect(renamed).toMatchObject({ ok: false, kind: "invalid", fieldErrors: { slug: [expect.stringContaining("no puede cambiar")] } });
    const singletonRow = (await getDb().select().from(contentEntries).where(eq(contentEntries.collection, "datos")))[0]!;
    expect(await deleteEntry(datos, singletonRow.id)).toMatchObject({ ok: false, kind: "conflict" });
    expect(await saveDraft(datos, { data: { telefono: "5599999999" } }, ana)).toMatchObject({ ok: false, kind: "invalid" });
    expect(await getDb().select().from(contentEntries).where(eq(contentEntries.id, nosotros.id))).toHaveLength(1);
  });
});

describe("slugs and redirects", () => {
  it("refuses a slug that is a route of the site or another record's", async () => {
    for (const slug of ["cotiza", "admin", "api", "login", "catalogo"]) {
      const answer = await saveDraft(notas, { data: { slug, titulo: "Choque" } }, ana);
      expect(answer).toMatchObject({ ok: false, kind: "invalid", fieldErrors: { slug: [expect.stringContaining(`/${slug} ya es una página del sitio`)] } });
    }
    expect(await saveDraft(notas, { data: { slug: "garantia", titulo: "Otra garantía" } }, ana)).toMatchObject({
      ok: false,
      kind: "invalid",
      fieldErrors: { slug: [expect.stringContaining("ya usa la dirección «garantia»")] },
    });
  });

  it("keeps a fixed record editable when its address is a route on purpose (the about page at /about)", async () => {
    const fijas: ContentCollection<Nota> = { ...notas, name: "fijas", label: "Fijas", singular: "fija", fixedSlugs: ["about"], seed: () => [{ slug: "about", titulo: "Nosotros", cuerpo: "Somos un taller.", orden: 1, publicado: true }] };
    registerCollections([fijas]);
    await seedContent();
    const about = (await listEntries(fijas))[0]!;
    const saved = await must(saveDraft(fijas, { id: about.id, data: { ...about.published, titulo: "Quiénes somos" }, expectedVersion: about.version }, ana));
    await must(publish(fijas, about.id, ana, saved.version));
    expect((await publishedRecord(fijas, "about"))?.data.titulo).toBe("Quiénes somos");
    // A new record still may not take a route.
    expect(await saveDraft(fijas, { data: { slug: "cotiza", titulo: "Choque" } }, ana)).toMatchObject({ ok: false, kind: "invalid" });
  });

  it("answers the old address with a 301 to the new one; chains collapse and never loop", async () => {
    const entry = await must(saveDraft(notas, { data: { slug: "pagos-a", titulo: "Pagos" } }, ana));
    await must(publish(notas, entry.id, ana));
    const rename = async (slug: string) => {
      const current = await must(getEntry(notas, entry.id));
      await must(saveDraft(notas, { id: entry.id, data: { ...current.published, slug }, expectedVersion: current.version }, ana));
      await must(publish(notas, entry.id, ana));
    };
    await rename("pagos-b");
    expect(await findRedirect("/pagos-a")).toBe("/pagos-b");
    await rename("pagos-c");
    await waitFor(async () => (await findRedirect("/pagos-a")) === "/pagos-c", "the collapsed chain");
    expect(await findRedirect("/Pagos-B/")).toBe("/pagos-c");
    // Back to the first name: its address is live again, and nothing loops.
    await rename("pagos-a");
    await waitFor(async () => (await findRedirect("/pagos-a")) === null, "the live address freed");
    const mine = (await listRedirects()).filter((redirect) => redirect.from.startsWith("/pagos"));
    expect(mine.map((redirect) => [redirect.from, redirect.to]).sort()).toEqual([
      ["/pagos-b", "/pagos-a"],
      ["/pagos-c", "/pagos-a"],
    ]);
    expect(await saveRedirect({ desde: "/pagos-a", hacia: "/pagos-b" })).toMatchObject({ ok: false, kind: "invalid", fieldErrors: { hacia: [expect.stringContaining("ciclo")] } });
    expect(await saveRedirect({ desde: "/cotiza", hacia: "/contact" })).toMatchObject({ ok: false, kind: "invalid" });
    // Staff's own: to another chain's start (collapsed to its end), to a query, to another site.
    expect(await saveRedirect({ desde: "/Pagos-Viejos", hacia: "/pagos-b" })).toMatchObject({ ok: true, value: { from: "/pagos-viejos", to: "/pagos-a" } });
    expect(await saveRedirect({ desde: "/ofertas", hacia: "/catalogo?categoria=Tornilleria" })).toMatchObject({ ok: true, value: { to: "/catalogo?categoria=Tornilleria" } });
    expect(await saveRedirect({ desde: "/blog", hacia: "https://blog.example.com/Forja" })).toMatchObject({ ok: true, value: { to: "https://blog.example.com/Forja" } });
    await waitFor(async () => (await findRedirect("/BLOG")) === "https://blog.example.com/Forja", "the staff redirect");
  });
});

describe("scheduled publication", () => {
  it("publishes each due entry exactly once with two runners at the same time, and nothing before its minute", async () => {
    const ids: string[] = [];
    for (const slug of ["programada-1", "programada-2", "programada-3"]) {
      const entry = await must(saveDraft(notas, { data: { slug, titulo: `Nota ${slug}` } }, ana));
      await must(schedule(notas, entry.id, at("2040-01-01T18:00:00Z"), beto, entry.version, at("2039-12-31T00:00:00Z")));
      ids.push(entry.id);
    }
    expect((await must(getEntry(notas, ids[0]!))).state).toBe("programado");
    expect(await runDuePublications(at("2040-01-01T17:59:59Z"))).toBe(0);
    expect(await publishedRecord(notas, "programada-1")).toBeNull();

    const due = at("2040-01-01T18:00:00Z");
    const counts = await Promise.all([runDuePublications(due), runDuePublications(due)]);
    expect(counts[0]! + counts[1]!).toBe(3);
    for (const id of ids) {
      expect(await listVersions(id)).toMatchObject([{ number: 1, publishedBy: { id: "staff-beto", name: "Beto Ruiz" } }]);
      expect(await must(getEntry(notas, id))).toMatchObject({ state: "publicado", scheduledAt: null });
    }
    expect(await runDuePublications(at("2040-01-02T00:00:00Z"))).toBe(0);
    await waitFor(async () => (await publishedRecord(notas, "programada-2")) !== null, "the scheduled record");
  });

  it("is published by the server's scheduler loop once its minute has come", async () => {
    const entry = await must(saveDraft(notas, { data: { slug: "programada-ahora", titulo: "Ya toca" } }, ana));
    const soon = new Date(Date.now() + 300);
    await must(schedule(notas, entry.id, soon, ana, entry.version));
    const poller = startScheduledPublications(50);
    try {
      await waitFor(async () => (await publishedRecord(notas, "programada-ahora")) !== null, "the scheduler loop");
      expect(Date.now()).toBeGreaterThanOrEqual(soon.getTime());
    } finally {
      await poller.stop();
    }
    expect(await listVersions(entry.id)).toHaveLength(1);
  });

  it("wakes at a schedule's moment when it falls between two looks of the loop", async () => {
    const entry = await must(saveDraft(notas, { data: { slug: "programada-al-momento", titulo: "Justo a tiempo" } }, ana));
    const soon = new Date(Date.now() + 400);
    await must(schedule(notas, entry.id, soon, ana, entry.version));
    // Looks 10 s apart: without the alarm it would be published at the second look, 10 s from now.
    const poller = startScheduledPublications(10_000);
    try {
      await waitFor(async () => (await publishedRecord(notas, "programada-al-momento")) !== null, "the publication at its moment");
      expect(Date.now()).toBeGreaterThanOrEqual(soon.getTime());
      expect(Date.now() - soon.getTime()).toBeLessThan(1_000);
    } finally {
      await poller.stop();
    }
  });

  it("refuses a schedule in the past or without changes to publish", async () => {
    const nosotros = await entryBySlug("nosotros");
    expect(await schedule(notas, nosotros.id, at("2020-01-01T00:00:00Z"), ana)).toMatchObject({ ok: false, kind: "invalid" });
    expect(await schedule(notas, nosotros.id, at("2099-01-01T00:00:00Z"), ana)).toMatchObject({ ok: false, kind: "conflict" });
  });
});

describe("history", () => {
  it("restores an older version, every field, as a new version", async () => {
    const entry = await must(saveDraft(notas, { data: { slug: "calidad", titulo: "Calidad", cuerpo: "Medimos todo. Entregamos a tiempo.", orden: 7 } }, ana));
    await must(publish(notas, entry.id, ana));
    const second = await must(saveDraft(notas, { id: entry.id, data: { slug: "calidad", titulo: "Calidad ISO", cuerpo: "Medimos todo. Entregamos antes de tiempo.", orden: 8, publicado: false } }, beto));
    await must(publish(notas, entry.id, beto, second.version));

    const restored = await must(restoreVersion(notas, entry.id, 1, ana));
    expect(restored.published).toEqual({ slug: "calidad", titulo: "Calidad", cuerpo: "Medimos todo. Entregamos a tiempo.", orden: 7, publicado: true });
    expect(await listVersions(entry.id)).toMatchObject([
      { number: 3, restoredFrom: 1, publishedBy: { name: "Ana López" } },
      { number: 2, publishedBy: { name: "Beto Ruiz" } },
      { number: 1 },
    ]);
    await waitFor(async () => (await publishedRecord(notas, "calidad"))?.data.orden === 7, "the restored record");
    expect(await restoreVersion(notas, entry.id, 9, ana)).toMatchObject({ ok: false, kind: "not-found" });
  });

  it("shows a changed sentence as that sentence, field by field", async () => {
    const entry = await entryBySlug("calidad");
    const diff = await must(diffVersions(notas, entry.id, 1, 2));
    expect(diff).toEqual([
      { field: "titulo", label: "Título", kind: "text", parts: [{ op: "removed", text: "Calidad" }, { op: "added", text: "Calidad ISO" }] },
      {
        field: "cuerpo",
        label: "Texto",
        kind: "text",
        parts: [
          { op: "same", text: "Medimos todo." },
          { op: "removed", text: "Entregamos a tiempo." },
          { op: "added", text: "Entregamos antes de tiempo." },
        ],
      },
      { field: "orden", label: "Orden", kind: "value", before: 7, after: 8 },
      { field: "publicado", label: "Publicado", kind: "value", before: true, after: false },
    ]);
  });
});

describe("locks", () => {
  it("tells a second person who holds the record, lets them take it over, and tells the holder at their next heartbeat", async () => {
    const entry = await entryBySlug("nosotros");
    const t0 = at("2030-05-01T16:00:00Z");
    expect(await must(acquireLock(entry.id, ana, t0))).toEqual({ held: true });
    expect(await must(acquireLock(entry.id, beto, at("2030-05-01T16:00:30Z")))).toEqual({ held: false, holder: { name: "Ana López", since: t0 } });
    expect(await must(heartbeat(entry.id, ana, at("2030-05-01T16:01:00Z")))).toEqual({ lost: false });
    expect((await must(getEntry(notas, entry.id, at("2030-05-01T16:01:30Z")))).lock).toEqual({ by: { id: "staff-ana", name: "Ana López" }, since: t0 });

    expect(await must(takeOver(entry.id, beto, at("2030-05-01T16:02:00Z")))).toEqual({ held: true });
    expect(await must(heartbeat(entry.id, ana, at("2030-05-01T16:02:10Z")))).toEqual({ lost: true, by: "Beto Ruiz" });
    await must(releaseLock(entry.id, ana));
    expect(await must(acquireLock(entry.id, ana, at("2030-05-01T16:02:20Z")))).toMatchObject({ held: false, holder: { name: "Beto Ruiz" } });
  });

  it("lets a lock lapse two minutes after its last heartbeat", async () => {
    const entry = await entryBySlug("garantia");
    await must(acquireLock(entry.id, ana, at("2030-06-01T16:00:00Z")));
    expect(await must(acquireLock(entry.id, beto, at("2030-06-01T16:01:59Z")))).toMatchObject({ held: false });
    expect((await must(getEntry(notas, entry.id, at("2030-06-01T16:02:01Z")))).lock).toBeNull();
    expect(await must(acquireLock(entry.id, beto, at("2030-06-01T16:02:01Z")))).toEqual({ held: true });
    expect(await must(heartbeat(entry.id, ana, at("2030-06-01T16:02:05Z")))).toEqual({ lost: true, by: "Beto Ruiz" });
  });
});
