import { describe, expect, it } from "vitest";
import { about } from "~/features/site/content/about";
import { faqGroups } from "~/features/site/content/faqs";
import { home } from "~/features/site/content/home";
import { industries } from "~/features/site/content/industries";
import { legalPages } from "~/features/site/content/legal";
import { services } from "~/features/site/content/services";
import { renderMarkdown } from "~/lib/markdown.server";
import type { RichTextDocument } from "~/lib/rich-text/document";
import { plainText } from "~/lib/rich-text/plain-text";
import { industrias, INDUSTRY_SLUGS, industryPath } from "./industrias";
import { inicio } from "./inicio";
import { ABOUT_PAGE, ABOUT_SLUG, paginas } from "./paginas";
import { groupByCategory, preguntas } from "./preguntas";
import { servicios } from "./servicios";

// Each seed says what today's modules say, word for word, so the demo site stays the same when the
// pages start reading the database.

const lines = (document: unknown) => plainText(document as RichTextDocument).split("\n");

/** The words of some HTML as a reader sees them: tags out, entities decoded, spaces collapsed. */
function htmlWords(html: string): string {
  return html
    .replace(/<\/?(a|strong|em|code)\b[^>]*>/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .trim();
}

describe("servicios", () => {
  it("are today's eight services, in their order and words", () => {
    const seed = [...servicios.seed()].sort(servicios.compare);
    expect(seed.map((record) => record.slug)).toEqual(services.map((service) => service.slug));
    seed.forEach((record, index) => {
      const service = services[index]!;
      expect({ nombre: record.nombre, resumen: record.resumen, capacidades: record.capacidades, plazo: record.plazo }).toEqual({
        nombre: service.name,
        resumen: service.summary,
        capacidades: service.capabilities,
        plazo: service.leadTime,
      });
      expect(lines(record.descripcion)).toEqual(service.description);
    });
  });
});

describe("industrias", () => {
  it("are the ten industries of the routes, fixed, in today's order and words", () => {
    expect(INDUSTRY_SLUGS).toEqual(["aeroespacial", "agricola", "alimentos", "automotriz", "construccion", "electronica", "energia", "industrial", "medica", "minera"]);
    expect(industrias.fixedSlugs).toEqual(INDUSTRY_SLUGS);
    const seed = [...industrias.seed()].sort(industrias.compare);
    expect(seed.map((record) => record.slug)).toEqual(INDUSTRY_SLUGS);
    seed.forEach((record, index) => {
      const industry = industries[index]!;
      expect(record).toMatchObject({
        nombre: industry.name,
        frase_proyecto: industry.projectPhrase,
        frase_sector: industry.sectorPhrase,
        titular: industry.headline,
        resumen: industry.summary,
        retos: industry.challenges.map(({ title, text }) => ({ titulo: title, texto: text })),
        servicios: industry.services.map(({ slug, text }) => ({ servicio: slug, texto: text })),
        materiales: industry.materials,
        normas: industry.standards,
        proyecto: [{ titulo: industry.example.title, texto: industry.example.text, cifras: industry.example.figures }],
      });
      expect(lines(record.introduccion)).toEqual([industry.intro]);
      expect(industrias.paths(record)[0]).toBe(`/industrias-design/${industry.slug}`);
    });
    expect(industryPath("medica")).toBe("/industrias-design/medica");
  });

  it("name only services that exist", () => {
    const serviceSlugs = new Set(servicios.seed().map((record) => record.slug));
    for (const record of industrias.seed()) for (const { servicio } of record.servicios) expect(serviceSlugs).toContain(servicio);
  });
});

describe("preguntas", () => {
  it("group back into today's FAQ: the same categories, questions and answers, in order", () => {
    const groups = groupByCategory(preguntas.seed());
    expect(groups.map((group) => group.categoria)).toEqual(faqGroups.map((group) => group.title));
    groups.forEach((group, index) => {
      const today = faqGroups[index]!;
      expect(group.preguntas.map((record) => record.pregunta)).toEqual(today.items.map((item) => item.question));
      expect(group.preguntas.map((record) => lines(record.respuesta))).toEqual(today.items.map((item) => item.answer));
    });
  });

  it("group by category and order by orden, a group where its first question goes", () => {
    const [first, second, third] = preguntas.seed();
    const moved = [
      { ...first!, categoria: "Envíos", orden: 30 },
      { ...second!, categoria: "Pagos", orden: 20 },
      { ...third!, categoria: "Envíos", orden: 10 },
    ];
    expect(groupByCategory(moved).map((group) => [group.categoria, group.preguntas.map((record) => record.orden)])).toEqual([
      ["Envíos", [10, 30]],
      ["Pagos", [20]],
    ]);
  });
});

describe("inicio", () => {
  it("is today's home page", () => {
    expect(inicio.seed()).toEqual([
      {
        titular: home.headline,
        subtitular: home.subheadline,
        cifras: home.figures.map(({ value, label }) => ({ valor: value, etiqueta: label })),
        pasos: home.process.map(({ title, text }) => ({ titulo: title, texto: text })),
        razones: home.reasons.map(({ title, text }) => ({ titulo: title, texto: text })),
        imagen: null,
      },
    ]);
  });
});

describe("paginas", () => {
  const seed = paginas.seed();

  it("are the about page and the two legal pages", () => {
    expect(seed.map((page) => page.slug)).toEqual([ABOUT_SLUG, ...legalPages.map((page) => page.slug)]);
    expect(paginas.fixedSlugs).toEqual(["about"]);
    expect(seed.map((page) => paginas.paths(page))).toEqual([["/about"], ["/aviso-de-privacidad"], ["/terminos"]]);
  });

  it("give the about page today's words, in the order /about shows them", () => {
    const page = seed[0]!;
    expect(page).toMatchObject({ titulo: "Nosotros", titular: about.headline, entrada: about.intro[0], descripcion: ABOUT_PAGE.description });
    expect(page.cifras).toEqual(about.figures.map(({ value, label }) => ({ valor: value, etiqueta: label })));
    const { headings } = ABOUT_PAGE;
    expect(lines(page.cuerpo)).toEqual([
      headings.history,
      ...about.intro.slice(1),
      headings.values,
      ...about.values.flatMap((value) => [value.title, value.text]),
      headings.plant,
      ...about.plant,
      headings.team,
      ...about.team,
    ]);
  });

  it("give the legal pages their Markdown's words, as the site renders them today, and their headings and lists", () => {
    legalPages.forEach((legal, index) => {
      const page = seed[index + 1]!;
      expect({ titulo: page.titulo, descripcion: page.descripcion }).toEqual({ titulo: legal.title, descripcion: legal.description });
      expect(plainText(page.cuerpo).replace(/\s+/g, " ")).toBe(htmlWords(renderMarkdown(legal.body)));
      const html = renderMarkdown(legal.body);
      const children = page.cuerpo.root.children;
      expect(children.filter((node) => node.type === "heading")).toHaveLength((html.match(/<h2>/g) ?? []).length);
      expect(children.filter((node) => node.type === "list" && node.listType === "number")).toHaveLength((html.match(/<ol>/g) ?? []).length);
      expect(children.filter((node) => node.type === "list" && node.listType === "bullet")).toHaveLength((html.match(/<ul>/g) ?? []).length);
      expect(JSON.stringify(page.cuerpo).match(/"type":"link"/g) ?? []).toHaveLength((html.match(/<a /g) ?? []).length);
      // Bold lead-ins of the lists ("**Datos fiscales:** …") stay bold.
      const bold = JSON.stringify(page.cuerpo).match(/"format":1,/g) ?? [];
      expect(bold).toHaveLength((html.match(/<strong>/g) ?? []).length);
    });
  });
});
