import type { ContentCollection } from "~/services/content/collection";
import { z } from "~/lib/zod";
import { industries } from "../content/industries";
import {
  IMAGE_FIELD,
  mediaSchema,
  PUBLISHED_FIELD,
  publishedSchema,
  requiredText,
  richTextSchema,
  SEO_FIELDS,
  seoSchemas,
  SLUG_FIELD,
  slugSchema,
  textList,
  TITLE_TEXT_ITEMS,
  titleTextItems,
} from "./fields";
import { paragraphsDocument } from "./seed-rich-text";

// The industry pages (/industrias-design/{slug}) and the /industrias grid. The ten industries of
// the routes always exist: their slugs are fixed and they cannot be deleted (issue 16 §1).

export const INDUSTRY_SLUGS = industries.map((industry) => industry.slug);

/** The public address of an industry's page. */
export const industryPath = (slug: string) => `/industrias-design/${slug}`;

export const IndustriaSchema = z.object({
  slug: slugSchema,
  nombre: requiredText("Escriba el nombre de la industria, con acentos.", 80),
  frase_proyecto: requiredText("Escriba cómo se nombra un proyecto de esta industria, por ejemplo un proyecto médico.", 120),
  frase_sector: requiredText("Escriba cómo se nombra la industria a media frase, por ejemplo el sector médico.", 120),
  titular: requiredText("Escriba el titular de la página.", 200),
  resumen: requiredText("Escriba el resumen, una frase para las tarjetas y los buscadores.", 300),
  introduccion: richTextSchema("Escriba la introducción de la página."),
  retos: titleTextItems("un", "reto"),
  servicios: z
    .array(
      z.object({
        servicio: slugSchema,
        texto: requiredText("Escriba cómo se aplica el servicio en esta industria.", 600),
      }),
      { error: "Agregue los servicios que aplican." },
    )
    .max(8, "Use como máximo 8 servicios."),
  materiales: textList("Escriba cada material en su renglón.", { max: 12, itemMax: 160 }),
  normas: textList("Escriba cada norma o certificación en su renglón.", { max: 12, itemMax: 200 }),
  proyecto: z
    .array(
      z.object({
        titulo: requiredText("Escriba el título del proyecto de ejemplo.", 160),
        texto: requiredText("Escriba en qué consistió el proyecto de ejemplo.", 1500),
        cifras: textList("Escriba cada resultado del proyecto en su renglón.", { max: 6, itemMax: 160 }),
      }),
      { error: "Describa un proyecto de ejemplo." },
    )
    .length(1, "Describa un solo proyecto de ejemplo."),
  imagen: mediaSchema,
  ...seoSchemas,
  publicado: publishedSchema,
});

export type Industria = z.output<typeof IndustriaSchema>;

export const industrias: ContentCollection<Industria> = {
  name: "industrias",
  label: "Industrias",
  singular: "industria",
  access: "public",
  singleton: false,
  slugField: "slug",
  fields: [
    SLUG_FIELD(industryPath("medica"), "Las diez industrias del sitio conservan la suya."),
    { name: "nombre", label: "Nombre", kind: "text", required: true, help: "Con acentos: Agrícola, Médica, Construcción." },
    { name: "frase_proyecto", label: "Un proyecto de esta industria", kind: "text", required: true, help: "Completa el botón «Cotizar …»: «un proyecto médico», «un proyecto de minería»." },
    { name: "frase_sector", label: "La industria a media frase", kind: "text", required: true, help: "En minúsculas y con su artículo: «el sector médico», «la minería»." },
    { name: "titular", label: "Titular", kind: "text", required: true, help: "El título grande de la página, en una línea." },
    { name: "resumen", label: "Resumen", kind: "textarea", required: true, help: "Una frase de hasta unos 155 caracteres para las tarjetas y la descripción en buscadores." },
    { name: "introduccion", label: "Introducción", kind: "richtext", required: true, help: "El párrafo bajo el titular." },
    { name: "retos", label: "Retos que resolvemos", kind: "items", required: true, items: TITLE_TEXT_ITEMS, help: "De 3 a 5 problemas que traen los clientes de esta industria." },
    {
      name: "servicios",
      label: "Servicios que aplican",
      kind: "items",
      items: [
        { name: "servicio", label: "Servicio", kind: "slug", required: true, help: "La dirección del servicio, por ejemplo maquinado-cnc." },
        { name: "texto", label: "Cómo se aplica", kind: "textarea", required: true },
      ],
      help: "De 3 a 4 servicios, con una frase sobre cómo se aplica cada uno aquí.",
    },
    { name: "materiales", label: "Materiales frecuentes", kind: "list", required: true, help: "De 4 a 6 materiales, uno por renglón." },
    { name: "normas", label: "Normas y certificaciones", kind: "list", required: true, help: "De 2 a 5, una por renglón." },
    {
      name: "proyecto",
      label: "Proyecto de ejemplo",
      kind: "items",
      required: true,
      items: [
        { name: "titulo", label: "Título", kind: "text", required: true },
        { name: "texto", label: "Descripción", kind: "textarea", required: true, help: "Realista y sin nombres de clientes." },
        { name: "cifras", label: "Resultados", kind: "list", required: true, help: "Plazos, tolerancias o cantidades, uno por renglón." },
      ],
      help: "Un solo proyecto, que se muestra con su dibujo técnico.",
    },
    IMAGE_FIELD("La ilustración de la tarjeta y de la página. Si no elige ninguna, se muestra la ilustración del sitio para esta industria."),
    ...SEO_FIELDS,
    PUBLISHED_FIELD,
  ],
  schema: IndustriaSchema,
  seed: () =>
    industries.map((industry) => ({
      slug: industry.slug,
      nombre: industry.name,
      frase_proyecto: industry.projectPhrase,
      frase_sector: industry.sectorPhrase,
      titular: industry.headline,
      resumen: industry.summary,
      introduccion: paragraphsDocument([industry.intro]),
      retos: industry.challenges.map((challenge) => ({ titulo: challenge.title, texto: challenge.text })),
      servicios: industry.services.map((service) => ({ servicio: service.slug, texto: service.text })),
      materiales: [...industry.materials],
      normas: [...industry.standards],
      proyecto: [{ titulo: industry.example.title, texto: industry.example.text, cifras: [...industry.example.figures] }],
      imagen: null,
      seo_titulo: "",
      seo_descripcion: "",
      publicado: true,
    })),
  fixedSlugs: INDUSTRY_SLUGS,
  isPublic: (data) => data.publicado,
  // The page, the grid of /industrias and the home page's; the other industry pages list its name too.
  paths: (data) => [industryPath(data.slug), "/industrias", "/"],
  compare: (a, b) => a.nombre.localeCompare(b.nombre, "es-MX"),
};
