import type { ContentCollection } from "~/services/content/collection";
import { headingNode, markdownToRichText, paragraphNode, richTextDocument, textNode } from "~/lib/rich-text/from-markdown";
import { z } from "~/lib/zod";
import { about } from "../content/about";
import { legalPages } from "../content/legal";
import {
  FIGURE_ITEMS,
  figureItems,
  IMAGE_FIELD,
  mediaSchema,
  optionalText,
  PUBLISHED_FIELD,
  publishedSchema,
  requiredText,
  richTextSchema,
  SLUG_FIELD,
  slugSchema,
} from "./fields";
import { isReservedSlug, type PAGE_ROUTES } from "./reserved-paths";

// Pages at /{slug}: "Nosotros" (/about, shown by its own route with its layout), the legal pages and
// any page staff add. A slug may not take an address of the site's own routes.

/** The about page: a route of its own shows this record, so its slug stays. */
export const ABOUT_SLUG: (typeof PAGE_ROUTES)[number] = "about";

export const PaginaSchema = z.object({
  slug: slugSchema.refine(
    (slug) => !isReservedSlug(slug),
    { error: (issue) => `La dirección /${String(issue.input)} ya es una página del sitio; elija otra.` },
  ),
  titulo: requiredText("Escriba el título de la página.", 120),
  titular: optionalText(200),
  entrada: optionalText(800),
  descripcion: requiredText("Escriba la descripción de la página para buscadores.", 300),
  cuerpo: richTextSchema("Escriba el contenido de la página."),
  cifras: figureItems().default([]),
  imagen: mediaSchema,
  publicado: publishedSchema,
});

export type Pagina = z.output<typeof PaginaSchema>;

// The about page's title, meta description and section headings, as its route wrote them before it
// read this record (docs/decisions/0048); /about now shows whatever the record says.
export const ABOUT_PAGE = {
  title: "Nosotros",
  description: "Forja diseña y fabrica en Querétaro desde 2015: ingeniería, maquinado, lámina, moldes, inyección y ensamble bajo un mismo techo.",
  headings: { history: "Nuestra historia", values: "Cómo trabajamos", plant: "La planta", team: "Equipo y calidad" },
} as const;

function aboutPage(): Pagina {
  const { headings } = ABOUT_PAGE;
  const paragraphs = (texts: readonly string[]) => texts.map((text) => paragraphNode([textNode(text)]));
  return {
    slug: ABOUT_SLUG,
    titulo: ABOUT_PAGE.title,
    titular: about.headline,
    entrada: about.intro[0] ?? "",
    descripcion: ABOUT_PAGE.description,
    cuerpo: richTextDocument([
      headingNode("h2", headings.history),
      ...paragraphs(about.intro.slice(1)),
      headingNode("h2", headings.values),
      ...about.values.flatMap((value) => [headingNode("h3", value.title), paragraphNode([textNode(value.text)])]),
      headingNode("h2", headings.plant),
      ...paragraphs(about.plant),
      headingNode("h2", headings.team),
      ...paragraphs(about.team),
    ]),
    cifras: about.figures.map((figure) => ({ valor: figure.value, etiqueta: figure.label })),
    imagen: null,
    publicado: true,
  };
}

export const paginas: ContentCollection<Pagina> = {
  name: "paginas",
  label: "Páginas",
  singular: "página",
  access: "public",
  singleton: false,
  slugField: "slug",
  fields: [
    SLUG_FIELD("/aviso-de-privacidad"),
    { name: "titulo", label: "Título", kind: "text", required: true, seo: "title", help: "El título de la página y de la pestaña del navegador." },
    { name: "titular", label: "Titular", kind: "text", help: "Una frase grande bajo el título. Opcional." },
    { name: "entrada", label: "Entrada", kind: "textarea", help: "Un párrafo de presentación bajo el titular. Opcional." },
    { name: "descripcion", label: "Descripción para buscadores", kind: "textarea", required: true, seo: "description", help: "El texto bajo el título en Google, de 120 a 155 caracteres." },
    { name: "cuerpo", label: "Contenido", kind: "richtext", required: true, help: "Use subtítulos para dividir las secciones; el título de la página ya va arriba." },
    { name: "cifras", label: "Cifras", kind: "items", items: FIGURE_ITEMS, help: "Datos destacados en una franja, como en Nosotros. Opcional." },
    IMAGE_FIELD("Una imagen para compartir la página en redes y buscadores. Opcional."),
    PUBLISHED_FIELD,
  ],
  schema: PaginaSchema,
  seed: () => [
    aboutPage(),
    ...legalPages.map((page) => ({
      slug: page.slug,
      titulo: page.title,
      titular: "",
      entrada: "",
      descripcion: page.description,
      cuerpo: markdownToRichText(page.body),
      cifras: [],
      imagen: null,
      publicado: true,
    })),
  ],
  fixedSlugs: [ABOUT_SLUG],
  isPublic: (data) => data.publicado,
  paths: (data) => [`/${data.slug}`],
  compare: (a, b) => a.titulo.localeCompare(b.titulo, "es-MX"),
};
