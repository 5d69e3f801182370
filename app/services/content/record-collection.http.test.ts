import { EventSource } from "eventsource";
import type PocketBase from "pocketbase";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// The site's content collections through the record API (issue 16 §5), with the official
// `pocketbase` SDK, unchanged, against the real production server over HTTP: a guest reads only
// what is published and public and gets 403 on ajustes and on ?draft=true; staff write drafts that
// stay hidden until a write publishes them; bad input gets PocketBase's 400 with Spanish messages;
// one of the ten industries cannot be deleted; rich text with script, event-handler and
// javascript: payloads comes out sanitized; a publish reaches a guest's realtime subscription.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("content-records-http"));

import { siteContentCollections } from "~/features/site/content-collections/all-collections";
import { signedInStaff } from "../../../tests/support/auth-requests";
import { sdkClient, sdkFailure } from "../../../tests/support/sdk-client";
import { startTestServer, type TestServer } from "../../../tests/support/test-server";
import { registerCollections } from "./registry.server";
import { seedContent } from "./seed.server";

// Node has no EventSource of its own; the `eventsource` package is the WHATWG one.
(globalThis as { EventSource?: unknown }).EventSource = EventSource;

const STAFF = { name: "Editora Contenido", email: `editora-contenido-${process.pid}@forja.mx`, password: "Panel-Forja-Seguro-1" };
const ONLY_SUPERUSERS = { status: 403, message: "Only superusers can perform this action.", data: {} };

let server: TestServer | undefined;
let guest: PocketBase;
let staff: PocketBase;

beforeAll(async () => {
  server = await startTestServer({
    dataDir,
    prepare: async () => {
      registerCollections(siteContentCollections);
      await seedContent();
      await signedInStaff(STAFF.email, STAFF.password, STAFF.name);
    },
  });
  guest = sdkClient(server.url);
  staff = sdkClient(server.url);
  await staff.collection("_superusers").authWithPassword(STAFF.email, STAFF.password);
}, 360_000);

afterAll(async () => {
  guest?.realtime.unsubscribe();
  await server?.stop();
});

async function waitFor(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe("the content collections through the record API", () => {
  it("lets a guest read published public records, and refuses ajustes and drafts with 403", async () => {
    const services = await guest.collection("servicios").getFullList({ sort: "orden" });
    expect(services.length).toBeGreaterThan(0);
    expect(services[0]).toMatchObject({ collectionName: "servicios", publicado: true });
    expect(String(services[0]!.descripcion_html)).toMatch(/^<p>/);
    const industries = await guest.collection("industrias").getList(1, 50, { filter: "slug = 'medica'" });
    expect(industries.items.map((item) => item.slug)).toEqual(["medica"]);

    expect((await sdkFailure(guest.collection("ajustes").getList())).response).toEqual(ONLY_SUPERUSERS);
    expect((await sdkFailure(guest.collection("servicios").getList(1, 30, { query: { draft: "true" } }))).response).toEqual(ONLY_SUPERUSERS);
    expect((await staff.collection("ajustes").getFullList())).toHaveLength(1);
  });

  it("keeps a staff draft hidden until a write without ?draft=true publishes it, serves it on /faqs within 1 s, and tells a guest's subscription", async () => {
    const heard: { action: string; record: { id: string; pregunta?: unknown } }[] = [];
    await guest.collection("preguntas").subscribe("*", (event) => heard.push(event as never));
    // /faqs is kept in the page cache; read twice so the second answer comes from it.
    const faqsPage = async () => (await fetch(`${server!.url}/faqs`)).text();
    await faqsPage();
    expect(await faqsPage()).not.toContain("sábados");

    const draft = await staff
      .collection("preguntas")
      .create({ pregunta: "¿Trabajan los sábados?", respuesta: "Sí, de **9 a 14 h**.", categoria: "Horarios", orden: 99 }, { query: { draft: "true" } });
    expect(await sdkFailure(guest.collection("preguntas").getOne(draft.id))).toMatchObject({ status: 404 });
    expect(await staff.collection("preguntas").getOne(draft.id, { query: { draft: "true" } })).toMatchObject({ pregunta: "¿Trabajan los sábados?" });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(heard).toEqual([]);

    expect(await faqsPage(), "a draft never reaches the public page").not.toContain("sábados");

    await staff.collection("preguntas").update(draft.id, { pregunta: "¿Abren los sábados?" });
    // The cached page is rendered again after the publish: served within a second.
    const publishedAt = Date.now();
    while (!(await faqsPage()).includes("¿Abren los sábados?")) {
      expect(Date.now() - publishedAt, "the published question on /faqs within 1 s").toBeLessThan(1_000);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const published = await guest.collection("preguntas").getOne(draft.id);
    expect(published).toMatchObject({ pregunta: "¿Abren los sábados?", respuesta_html: "<p>Sí, de <strong>9 a 14 h</strong>.</p>" });
    await waitFor(() => heard.length > 0, "the publish event");
    expect(heard[0]).toMatchObject({ action: "create", record: { id: draft.id, pregunta: "¿Abren los sábados?" } });
  });

  it("answers bad input with PocketBase's 400 and Spanish messages, and refuses deleting an industry", async () => {
    const refused = await sdkFailure(staff.collection("preguntas").create({ pregunta: "", categoria: "Plazos", respuesta: "Pronto." }));
    expect(refused.status).toBe(400);
    expect(refused.response).toMatchObject({ message: "Failed to create record.", data: { pregunta: { code: "validation_invalid_value", message: expect.stringMatching(/^Escriba/) } } });

    const [medica] = await guest.collection("industrias").getFullList({ filter: "slug = 'medica'" });
    const delete400 = await sdkFailure(staff.collection("industrias").delete(medica!.id));
    expect(delete400.status).toBe(400);
    expect(delete400.response).toMatchObject({ data: { slug: { message: "Este registro siempre existe en el sitio y no puede eliminarse. Puede editar su contenido." } } });
    expect(await guest.collection("industrias").getOne(medica!.id)).toMatchObject({ slug: "medica" });
  });

  it("sanitizes script, event-handler and javascript: payloads sent as HTML or Markdown", async () => {
    const payloads = [
      '<p onmouseover="alert(1)">Hola <a href="javascript:alert(2)">enlace</a><img src=x onerror="alert(3)"></p><script>alert(4)</script>',
      "Hola [enlace](javascript:alert(2)) <script>alert(4)</script> <img src=x onerror=alert(3)>",
    ];
    for (const [index, respuesta] of payloads.entries()) {
      const record = await staff.collection("preguntas").create({ pregunta: `¿Ataque ${index}?`, categoria: "Pruebas", orden: 90 + index, respuesta });
      const read = await guest.collection("preguntas").getOne(record.id);
      expect(String(read.respuesta_html)).toContain("Hola");
      expect(String(read.respuesta_html)).not.toMatch(/<script|<img|\son[a-z]+=|javascript:/i);
    }
  });
});
