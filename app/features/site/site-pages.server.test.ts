import { beforeAll, describe, expect, it } from "vitest";
import { TEST_EDITOR } from "../../../tests/support/content-pages";
import { setupTestDatabase } from "../../../tests/support/test-database";
import { getDb } from "~/db/client.server";
import { media } from "~/db/schema/content";
import { paragraphNode, richTextDocument, textNode } from "~/lib/rich-text/from-markdown";
import type { ContentData } from "~/services/content/collection";
import { saveDraft } from "~/services/content/drafts.server";
import { listEntries } from "~/services/content/entries.server";
import { publish } from "~/services/content/publish.server";
import type { CollectionRef } from "~/services/content/registry.server";
import { seedContent } from "~/services/content/seed.server";
import { getAboutPage } from "./about-page.server";
import { about } from "./content/about";
import { home } from "./content/home";
import { industries } from "./content/industries";
import { services } from "./content/services";
import type { IndustrySlug, ServiceSlug } from "./content/types";
import { industrias, type Industria } from "./content-collections/industrias";
import { inicio, type Inicio } from "./content-collections/inicio";
import { ABOUT_PAGE, ABOUT_SLUG, paginas, type Pagina } from "./content-collections/paginas";
import { servicios, type Servicio } from "./content-collections/servicios";
import { getExampleDrawing, getHeroPicture, getIndustryPicture, getServicePicture } from "./imagery/images.server";
import { buildSitemap } from "./sitemap.server";
import { getHomePage, getIndustryPage, listIndustryCards, listServiceSections } from "./site-pages.server";

// The home page, /servicios, /industrias, the industry pages and /about read what staff published
// (issue 16 §1): the seed shows today's words, and a publish changes what the next read answers.

setupTestDatabase();

beforeAll(async () => {
  await seedContent();
});

/** Staff's edit of a record (public or not) found by its published slug: a draft over its published data, then published. */
async function publishEdit<T extends ContentData>(collection: CollectionRef<T>, slug: string | null, change: Partial<T>): Promise<void> {
  const entries = await listEntries<T>(collection);
  const entry = entries.find((candidate) => slug === null || candidate.slug === slug);
  if (!entry?.published) throw new Error(`No published record ${slug}.`);
  const saved = await saveDraft(collection, { id: entry.id, data: { ...entry.published, ...change } }, TEST_EDITOR);
  if (!saved.ok) throw new Error(`The edit was refused: ${JSON.stringify(saved)}`);
  const published = await publish(collection, entry.id, TEST_EDITOR);
  if (!published.ok) throw new Error(`The edit was not published: ${JSON.stringify(published)}`);
}

const editService = (slug: string, change: Partial<Servicio>) => publishEdit<Servicio>(servicios, slug, change);
const editIndustry = (slug: string, change: Partial<Industria>) => publishEdit<Industria>(industrias, slug, change);

const plain = (...texts: string[]) => richTextDocument(texts.map((text) => paragraphNode([textNode(text)])));
const escaped = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

/** A library image as the upload leaves it in the table (the files themselves are not read by pages). */
async function libraryImage(alt: string): Promise<string> {
  const base = `prueba-${Math.random().toString(36).slice(2)}`;
  const variants = [400, 800].flatMap((width) =>
    (["avif", "webp"] as const).map((format) => ({ width, height: (width * 3) / 4, format, path: `media/${base}-${width}.${format}` })),
  );
  const [row] = await getDb()
    .insert(media)
    .values({ fileName: `${base}-original.png`, originalName: "brida.png", mime: "image/png", bytes: 1000, width: 1200, height: 900, alt, focalX: 0.25, focalY: 0.75, variants })
    .returning({ id: media.id });
  return row!.id;
}

describe("the seeded content shows today's words", () => {
  it("on the home page: headline, figures, steps, reasons, the services in order and the ten industries", async () => {
    const page = await getHomePage();
    expect({ headline: page.headline, subheadline: page.subheadline }).toEqual({ headline: home.headline, subheadline: home.subheadline });
    expect(page.figures).toEqual(home.figures.map(({ value, label }) => ({ valor: value, etiqueta: label })));
    expect(page.steps.map((step) => [step.titulo, step.texto])).toEqual(home.process.map((step) => [step.title, step.text]));
    expect(page.reasons.map((reason) => [reason.titulo, reason.texto])).toEqual(home.reasons.map((reason) => [reason.title, reason.text]));
    expect(page.services.map(({ slug, name, summary }) => ({ slug, name, summary }))).toEqual(services.map(({ slug, name, summary }) => ({ slug, name, summary })));
    expect(page.industries).toEqual(industries.map(({ slug, name }) => ({ slug, name, path: `/industrias-design/${slug}` })));
    // No library image chosen: the site's rendered pictures, where the build made them.
    const hero = getHeroPicture();
    expect(page.hero).toEqual(hero ? { source: "sitio", picture: hero } : null);
    for (const service of page.services) {
      const site = getServicePicture(service.slug as ServiceSlug);
      expect(service.picture).toEqual(site ? { source: "sitio", picture: site } : null);
    }
  });

  it("on /servicios: each description's paragraphs, capabilities, lead time and the quote button's words", async () => {
    const sections = await listServiceSections();
    expect(sections.map((section) => section.slug)).toEqual(services.map((service) => service.slug));
    sections.forEach((section, index) => {
      const service = services[index]!;
      expect(section.descriptionHtml).toBe(service.description.map((paragraph) => `<p>${escaped(paragraph)}</p>`).join(""));
      expect(section.capabilities).toEqual(service.capabilities);
      expect(section.leadTime).toBe(service.leadTime);
    });
    expect(sections.find((section) => section.slug === "maquinado-cnc")?.nameInSentence).toBe("maquinado CNC");
    expect(sections.find((section) => section.slug === "ingenieria-cad")?.nameInSentence).toBe("ingeniería mecánica y CAD");
  });

  it("on /industrias and each industry page", async () => {
    const cards = await listIndustryCards();
    expect(cards.map(({ slug, name, summary, sectorPhrase }) => ({ slug, name, summary, sectorPhrase }))).toEqual(
      industries.map(({ slug, name, summary, sectorPhrase }) => ({ slug, name, summary, sectorPhrase })),
    );
    for (const industry of industries) {
      const page = (await getIndustryPage(industry.slug))!;
      expect(page).toMatchObject({
        slug: industry.slug,
        name: industry.name,
        title: `Diseño y manufactura para ${industry.sectorPhrase}`,
        description: industry.summary,
        headline: industry.headline,
        introHtml: `<p>${escaped(industry.intro)}</p>`,
        projectPhrase: industry.projectPhrase,
        sectorPhrase: industry.sectorPhrase,
        materials: industry.materials,
        standards: industry.standards,
        example: industry.example,
      });
      expect(page.challenges.map(({ titulo, texto }) => ({ title: titulo, text: texto }))).toEqual(industry.challenges);
      expect(page.services.map(({ slug, text }) => ({ slug, text }))).toEqual(industry.services);
      expect(page.services.map(({ name }) => name)).toEqual(industry.services.map(({ slug }) => services.find((service) => service.slug === slug)!.name));
      expect(page.others.map(({ slug }) => slug)).toEqual(industries.filter((other) => other.slug !== industry.slug).map(({ slug }) => slug));
      const site = getIndustryPicture(industry.slug);
      expect(page.picture).toEqual(site ? { source: "sitio", picture: site } : null);
      expect(page.drawing).toEqual(getExampleDrawing(industry.slug as IndustrySlug));
    }
  });

  it("finds an industry whatever the case of its address, and answers null for one that does not exist", async () => {
    expect((await getIndustryPage("MEDICA"))?.slug).toBe("medica");
    expect(await getIndustryPage("submarina")).toBeNull();
  });

  it("on /about: title, headline, lead, figures, then the sections under their headings, the values as cards", async () => {
    const page = (await getAboutPage())!;
    expect(page).toMatchObject({ title: ABOUT_PAGE.title, description: ABOUT_PAGE.description, headline: about.headline, lead: about.intro[0] });
    expect(page.figures).toEqual(about.figures.map(({ value, label }) => ({ valor: value, etiqueta: label })));
    const { headings } = ABOUT_PAGE;
    expect(page.sections.map((section) => section.title)).toEqual([headings.history, headings.values, headings.plant, headings.team]);
    const [history, values, plant, team] = page.sections;
    const paragraphs = (texts: readonly string[]) => texts.map((text) => `<p>${escaped(text)}</p>`).join("");
    expect(history).toEqual({ title: headings.history, html: paragraphs(about.intro.slice(1)), cards: [] });
    expect(values).toEqual({ title: headings.values, html: "", cards: about.values.map((value) => ({ title: value.title, html: paragraphs([value.text]) })) });
    expect(plant).toEqual({ title: headings.plant, html: paragraphs(about.plant), cards: [] });
    expect(team).toEqual({ title: headings.team, html: paragraphs(about.team), cards: [] });
  });
});

describe("what staff publish", () => {
  it("an edited industry introduction appears on its page, sanitized", async () => {
    const intro = plain("Piezas para quirófano con trazabilidad completa.", "<script>alert(1)</script> y más.");
    await editIndustry("medica", { introduccion: intro, titular: "Piezas médicas que pasan la auditoría", seo_titulo: "Manufactura médica" });
    const page = (await getIndustryPage("medica"))!;
    expect(page.introHtml).toBe("<p>Piezas para quirófano con trazabilidad completa.</p><p>&lt;script&gt;alert(1)&lt;/script&gt; y más.</p>");
    expect(page.headline).toBe("Piezas médicas que pasan la auditoría");
    expect(page.title).toBe("Manufactura médica");
    // The other industries are untouched.
    expect((await getIndustryPage("minera"))!.introHtml).toBe(`<p>${escaped(industries.find((industry) => industry.slug === "minera")!.intro)}</p>`);
  });

  it("a new service appears on /servicios and the home page, in its order, without a picture of the site", async () => {
    const draft: Servicio = {
      slug: "tratamientos-termicos",
      nombre: "Tratamientos térmicos",
      resumen: "Temple, revenido y nitrurado de piezas maquinadas, con certificado de dureza por lote.",
      descripcion: plain("Templamos y revenimos aceros de herramienta y de bajo carbono."),
      capacidades: ["Temple y revenido hasta 1,100 °C", "Nitrurado gaseoso"],
      plazo: "Lotes en 3 a 5 días hábiles",
      orden: 45,
      imagen: null,
      seo_titulo: "",
      seo_descripcion: "",
      publicado: true,
    };
    const saved = await saveDraft(servicios, { data: draft }, TEST_EDITOR);
    if (!saved.ok) throw new Error(JSON.stringify(saved));
    // A draft is not public.
    expect((await listServiceSections()).map((section) => section.slug)).not.toContain("tratamientos-termicos");
    const published = await publish(servicios, saved.value.id, TEST_EDITOR);
    expect(published.ok).toBe(true);

    const sections = await listServiceSections();
    const index = sections.findIndex((section) => section.slug === "tratamientos-termicos");
    // orden 45: after maquinado-cnc (40), before lamina (50).
    expect(sections[index - 1]?.slug).toBe("maquinado-cnc");
    expect(sections[index + 1]?.slug).toBe("lamina");
    expect(sections[index]).toMatchObject({
      name: "Tratamientos térmicos",
      nameInSentence: "tratamientos térmicos",
      descriptionHtml: "<p>Templamos y revenimos aceros de herramienta y de bajo carbono.</p>",
      capabilities: draft.capacidades,
      leadTime: draft.plazo,
      picture: null,
    });
    expect((await getHomePage()).services.map((service) => service.slug)).toContain("tratamientos-termicos");
  });

  it("an unpublished service disappears from /servicios, the home page and the industries that name it, and the sitemap lists no address of it", async () => {
    await editService("ingenieria-inversa", { publicado: false });
    expect((await listServiceSections()).map((section) => section.slug)).not.toContain("ingenieria-inversa");
    expect((await getHomePage()).services.map((service) => service.slug)).not.toContain("ingenieria-inversa");
    // Aeroespacial names it among its services: the page keeps the others.
    const aerospace = (await getIndustryPage("aeroespacial"))!;
    expect(aerospace.services.map((service) => service.slug)).toEqual(["maquinado-cnc", "ingenieria-cad", "prototipado-rapido"]);
    expect(await buildSitemap("https://forja.example")).not.toContain("ingenieria-inversa");

    await editService("ingenieria-inversa", { publicado: true });
    expect((await listServiceSections()).map((section) => section.slug)).toContain("ingenieria-inversa");
  });

  it("an unpublished industry has no page, no card, no link from the others and no place in the sitemap", async () => {
    expect(await buildSitemap("https://forja.example")).toContain("<loc>https://forja.example/industrias-design/energia</loc>");
    await editIndustry("energia", { publicado: false });
    expect(await getIndustryPage("energia")).toBeNull();
    expect((await listIndustryCards()).map((card) => card.slug)).not.toContain("energia");
    expect((await getHomePage()).industries.map((industry) => industry.slug)).not.toContain("energia");
    expect((await getIndustryPage("medica"))!.others.map((other) => other.slug)).not.toContain("energia");
    const sitemap = await buildSitemap("https://forja.example");
    expect(sitemap).not.toContain("/industrias-design/energia");
    expect(sitemap).toContain("<loc>https://forja.example/industrias-design/medica</loc>");
  });

  it("a library image chosen for a service, an industry or the home page is shown with its alt text, cut to the slot", async () => {
    const brida = await libraryImage("Brida de acero inoxidable con seis barrenos");
    await editService("maquinado-cnc", { imagen: brida });
    await editIndustry("automotriz", { imagen: brida });
    await publishEdit<Inicio>(inicio, null, { imagen: brida });

    const image = { id: brida, alt: "Brida de acero inoxidable con seis barrenos", width: 1200, height: 900, focalX: 0.25, focalY: 0.75, widths: [400, 800] };
    const section = (await listServiceSections()).find((service) => service.slug === "maquinado-cnc")!;
    expect(section.picture).toEqual({ source: "biblioteca", image, crop: "4x3" });
    expect((await getIndustryPage("automotriz"))!.picture).toEqual({ source: "biblioteca", image, crop: "4x3" });
    expect((await listIndustryCards()).find((card) => card.slug === "automotriz")!.picture).toEqual({ source: "biblioteca", image, crop: "4x3" });
    const page = await getHomePage();
    expect(page.hero).toEqual({ source: "biblioteca", image, crop: "16x9" });
    expect(page.services.find((service) => service.slug === "maquinado-cnc")!.picture).toEqual({ source: "biblioteca", image, crop: "4x3" });
    // Services without one keep the site's picture.
    const lamina = page.services.find((service) => service.slug === "lamina")!;
    const site = getServicePicture("lamina");
    expect(lamina.picture).toEqual(site ? { source: "sitio", picture: site } : null);
  });

  it("an image deleted from the library falls back to the site's picture", async () => {
    await editService("lamina", { imagen: "00000000-0000-4000-8000-000000000000" });
    const lamina = (await listServiceSections()).find((service) => service.slug === "lamina")!;
    const site = getServicePicture("lamina");
    expect(lamina.picture).toEqual(site ? { source: "sitio", picture: site } : null);
  });

  it("the about page follows its record, and an unpublished about page is gone from the page and the sitemap", async () => {
    await publishEdit<Pagina>(paginas, ABOUT_SLUG, {
      titular: "Cuarenta ingenieros y una planta",
      cuerpo: richTextDocument([paragraphNode([textNode("Antes del primer subtítulo.")])]),
    });
    const page = (await getAboutPage())!;
    expect(page.headline).toBe("Cuarenta ingenieros y una planta");
    expect(page.sections).toEqual([{ title: null, html: "<p>Antes del primer subtítulo.</p>", cards: [] }]);

    await publishEdit<Pagina>(paginas, ABOUT_SLUG, { publicado: false });
    expect(await getAboutPage()).toBeNull();
    expect(await buildSitemap("https://forja.example")).not.toContain("https://forja.example/about<");
  });
});
