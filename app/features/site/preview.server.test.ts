import { eq } from "drizzle-orm";
import { RouterContextProvider } from "react-router";
import { describe, expect, it, vi } from "vitest";

// «Vista previa» and «Editar esta página» (docs/decisions/0049) with real sessions on a real
// database holding the site's seeded content: only staff who may edit a record see its draft at
// its address, with the private, noindex answer; anyone else with the same parameter gets the
// published page. And which record each public address opens in the editor.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("vista-previa"));

import { registeredCustomer, signedInStaff } from "../../../tests/support/auth-requests";
import { useTestFileDatabase } from "../../../tests/support/test-file-database";
import { getDb } from "~/db/client.server";
import { user } from "~/db/schema/auth";
import { clientIpContext } from "~/lib/request-context";
import type { ContentData } from "~/services/content/collection";
import { saveDraft } from "~/services/content/drafts.server";
import { listEntries } from "~/services/content/entries.server";
import { publishedRecords, singleton } from "~/services/content/published.server";
import { seedContent } from "~/services/content/seed.server";
import { ajustes } from "./content-collections/ajustes";
import { industrias, industryPath } from "./content-collections/industrias";
import { inicio } from "./content-collections/inicio";
import { paginas } from "./content-collections/paginas";
import { preguntas } from "./content-collections/preguntas";
import { redirecciones } from "./content-collections/redirecciones";
import { pageEditorTarget, pageNoticeMessage } from "./editor/page-record.server";
import { draftPreviewBanner, draftPreviewMiddleware, previewAddress } from "./preview.server";

const cookies = { guest: "", customer: "", admin: "", editor: "", ventas: "" };
const ana = { id: "staff-ana", name: "Ana López" };
let questionId = "";
let ajustesId = "";
const DRAFT_QUESTION = "¿Maquinan piezas de titanio grado 5? (borrador)";
const DRAFT_PHONE = "442 555 0199";

async function staffWithRole(role: "admin" | "editor" | "ventas"): Promise<string> {
  const staff = await signedInStaff(`vista-${role}-${process.pid}@forja.mx`, "Vista-Previa-Segura-7", `Personal ${role}`);
  await getDb().update(user).set({ role }).where(eq(user.id, staff.user.id));
  return staff.cookie;
}

useTestFileDatabase(dataDir, async () => {
  await seedContent();
  cookies.customer = (await registeredCustomer("Cliente Vista", `cliente-vista-${process.pid}@ejemplo.mx`, "Cliente-Vista-Previa-3")).cookie;
  cookies.admin = await staffWithRole("admin");
  cookies.editor = await staffWithRole("editor");
  cookies.ventas = await staffWithRole("ventas");
  const [question] = await publishedRecords(preguntas);
  questionId = question!.id;
  const saved = await saveDraft(preguntas, { id: questionId, data: { ...question!.data, pregunta: DRAFT_QUESTION } }, ana);
  if (!saved.ok) throw new Error("could not save the question's draft");
  const facts = await singleton(ajustes);
  ajustesId = facts!.id;
  const phone = await saveDraft(ajustes, { id: ajustesId, data: { ...facts!.data, telefono: DRAFT_PHONE } }, ana);
  if (!phone.ok) throw new Error(`could not save the settings' draft: ${JSON.stringify(phone)}`);
});

/** A request through the middleware; the "page" answers what the public reads would show and the banner. */
async function visit(path: string, cookie: string, method = "GET") {
  const headers: Record<string, string> = cookie ? { cookie } : {};
  const request = new Request(`http://localhost${path}`, { method, headers });
  const context = new RouterContextProvider();
  context.set(clientIpContext, "127.0.0.1");
  const page = async () =>
    Response.json({
      questions: (await publishedRecords(preguntas)).map((record) => record.data.pregunta),
      phone: (await singleton(ajustes))?.data.telefono,
      banner: draftPreviewBanner(),
    });
  const response = await draftPreviewMiddleware({ request, context, params: {} } as unknown as Parameters<typeof draftPreviewMiddleware>[0], page);
  if (!(response instanceof Response)) throw new Error("the middleware must answer the page's response");
  const body = (await response.json()) as { questions: string[]; phone: string; banner: unknown };
  return { body, cacheControl: response.headers.get("cache-control"), robots: response.headers.get("x-robots-tag") };
}

describe("draftPreviewMiddleware", () => {
  it("shows an editor the question's draft at /faqs, with the banner, privately and never indexed", async () => {
    const { body, cacheControl, robots } = await visit(`/faqs?vista-previa=${questionId}`, cookies.editor);
    expect(body.questions).toContain(DRAFT_QUESTION);
    expect(body.banner).toEqual({ editorUrl: `/admin/contenido/preguntas/${questionId}`, visible: true });
    expect(cacheControl).toBe("private, no-store");
    expect(robots).toBe("noindex");
    // The rest of the site stays as published.
    expect(body.phone).not.toBe(DRAFT_PHONE);
  });

  it.each(["guest", "customer", "ventas"] as const)("gives a %s with the same address the published page: no draft, no banner", async (who) => {
    const { body, cacheControl, robots } = await visit(`/faqs?vista-previa=${questionId}`, cookies[who]);
    expect(body.questions).not.toContain(DRAFT_QUESTION);
    expect(body.banner).toBeNull();
    expect(cacheControl).toBeNull();
    expect(robots).toBeNull();
  });

  it("shows the business settings' draft to an admin only (an editor may not edit them)", async () => {
    expect((await visit(`/contact?vista-previa=${ajustesId}`, cookies.admin)).body.phone).toBe(DRAFT_PHONE);
    const editor = await visit(`/contact?vista-previa=${ajustesId}`, cookies.editor);
    expect(editor.body.phone).not.toBe(DRAFT_PHONE);
    expect(editor.body.banner).toBeNull();
  });

  it("ignores the parameter without it, on a write, or naming no record", async () => {
    expect((await visit("/faqs", cookies.editor)).body.questions).not.toContain(DRAFT_QUESTION);
    expect((await visit(`/faqs?vista-previa=${questionId}`, cookies.editor, "POST")).body.questions).not.toContain(DRAFT_QUESTION);
    const unknown = await visit("/faqs?vista-previa=1", cookies.editor);
    expect(unknown.body.banner).toBeNull();
    expect(unknown.cacheControl).toBeNull();
  });
});

describe("previewAddress", () => {
  it("opens a record's own page with the parameter, and none for a record without a page", async () => {
    const question = { pregunta: "¿?", respuesta: null, categoria: "Plazos", orden: 1, publicado: true } as ContentData;
    expect(previewAddress(preguntas, "abc", question)).toBe("/faqs?vista-previa=abc");
    expect(previewAddress(industrias, "abc", { slug: "aeroespacial" })).toBe(`${industryPath("aeroespacial")}?vista-previa=abc`);
    expect(previewAddress(redirecciones, "abc", { desde: "/nosotros", hacia: "/about" })).toBeNull();
    expect(previewAddress(paginas, "abc", null)).toBeNull();
  });
});

describe("pageEditorTarget («Editar esta página»)", () => {
  async function idOf(collection: string, match: (data: ContentData) => boolean): Promise<string> {
    const entry = (await listEntries(collection)).find((candidate) => match((candidate.draft ?? candidate.published)!));
    if (!entry) throw new Error("no such record");
    return entry.id;
  }

  it("opens the record a page shows, or its collection's list when the page shows several", async () => {
    const [industry] = await publishedRecords(industrias);
    expect(await pageEditorTarget("/", "editor")).toEqual({ ok: true, to: `/admin/contenido/inicio/${await idOf(inicio.name, () => true)}` });
    expect(await pageEditorTarget("/about", "editor")).toEqual({ ok: true, to: `/admin/contenido/paginas/${await idOf(paginas.name, (data) => data.slug === "about")}` });
    expect(await pageEditorTarget(industryPath(String(industry!.data.slug)), "editor")).toEqual({ ok: true, to: `/admin/contenido/industrias/${industry!.id}` });
    expect(await pageEditorTarget("/faqs", "editor")).toEqual({ ok: true, to: "/admin/contenido/preguntas" });
    expect(await pageEditorTarget("/FAQS/", "editor")).toEqual({ ok: true, to: "/admin/contenido/preguntas" });
    expect(await pageEditorTarget("/servicios", "editor")).toEqual({ ok: true, to: "/admin/contenido/servicios" });
    expect(await pageEditorTarget("/industrias", "editor")).toEqual({ ok: true, to: "/admin/contenido/industrias" });
  });

  it("sends /contact to the business settings for an admin, and an editor to the list with the reason", async () => {
    expect(await pageEditorTarget("/contact", "admin")).toEqual({ ok: true, to: `/admin/contenido/ajustes/${ajustesId}` });
    expect(await pageEditorTarget("/contact", "editor")).toEqual({ ok: false, notice: "solo-administracion" });
  });

  it("answers a page without a record, or something that is not a path, with the notice", async () => {
    for (const path of ["/catalogo", "/cotiza", "//ejemplo.com/faqs", "https://ejemplo.com/faqs", "/faqs?x=1", ""]) {
      expect(await pageEditorTarget(path, "admin"), path).toEqual({ ok: false, notice: "sin-registro" });
    }
    expect(pageNoticeMessage(new URL("http://localhost/admin/contenido?aviso=sin-registro&ruta=/catalogo"))).toContain("La página /catalogo no muestra ningún registro");
    expect(pageNoticeMessage(new URL("http://localhost/admin/contenido?aviso=solo-administracion&ruta=/contact"))).toContain("solo edita quien administra el panel");
    expect(pageNoticeMessage(new URL("http://localhost/admin/contenido"))).toBeNull();
  });
});
