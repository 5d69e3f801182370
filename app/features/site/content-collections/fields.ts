import type { ContentField } from "~/services/content/collection";
import { RichTextSchema, type RichTextDocument } from "~/lib/rich-text/document";
import { plainText } from "~/lib/rich-text/plain-text";
import { z } from "~/lib/zod";

// The pieces the site's collections share: the same rule and the same Spanish message for a slug,
// an order, an image or a rich text wherever it appears. Browser-safe (the editor validates with them).

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** One line of required text: trimmed, not empty, bounded. */
export function requiredText(message: string, max = 200) {
  return z
    .string({ error: message })
    .trim()
    .min(1, message)
    .max(max, `Use como máximo ${max.toLocaleString("es-MX")} caracteres.`);
}

/** Text that may stay empty ("" when missing). */
export function optionalText(max = 200) {
  return z
    .string({ error: "Escriba texto." })
    .trim()
    .max(max, `Use como máximo ${max.toLocaleString("es-MX")} caracteres.`)
    .default("");
}

/** A list of one-line texts, each required. */
export function textList(itemMessage: string, options: { min?: number; max?: number; itemMax?: number } = {}) {
  const { min = 1, max = 20, itemMax = 300 } = options;
  return z
    .array(requiredText(itemMessage, itemMax), { error: "Escriba la lista, un elemento por renglón." })
    .min(min, min === 1 ? "Agregue al menos un elemento." : `Agregue al menos ${min} elementos.`)
    .max(max, `Use como máximo ${max} elementos.`);
}

/** Part of a public address: lowercase words without accents, digits and hyphens. */
export const slugSchema = z
  .string({ error: "Escriba la dirección de la página." })
  .trim()
  .min(1, "Escriba la dirección de la página.")
  .max(80, "Use como máximo 80 caracteres en la dirección.")
  .regex(SLUG, "Use minúsculas sin acentos, números y guiones, por ejemplo maquinado-cnc.");

export const orderSchema = z
  .number({ error: "Escriba el orden como un número entero." })
  .int("Escriba el orden como un número entero.")
  .min(0, "El orden no puede ser negativo.")
  .max(100_000, "Use un orden menor a 100,000.");

export const publishedSchema = z.boolean({ error: "Indique si el registro se publica." }).default(true);

/** An image of the media library, by its id; null when none is chosen. */
export const mediaSchema = z
  .string({ error: "Elija una imagen de la biblioteca." })
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, "Elija una imagen de la biblioteca.")
  .nullable()
  .default(null);

/** A long text in the editor's format, with at least some words in it. */
export function richTextSchema(message: string) {
  return RichTextSchema.refine((document: RichTextDocument) => plainText(document) !== "", message);
}

// Fields that several collections show with the same label and help.

/** `example` is a whole address with the slug in it: "/industrias-design/medica". */
export const SLUG_FIELD = (example: string, after = "Al cambiarla, la dirección anterior redirige a la nueva."): ContentField => ({
  name: "slug",
  label: "Dirección",
  kind: "slug",
  required: true,
  help: `La parte final de la dirección, como en ${example}: minúsculas sin acentos, números y guiones. ${after}`,
});

export const ORDER_FIELD: ContentField = {
  name: "orden",
  label: "Orden",
  kind: "number",
  required: true,
  help: "Los números menores aparecen primero. Deje huecos (10, 20, 30…) para acomodar registros nuevos entre otros.",
};

export const PUBLISHED_FIELD: ContentField = {
  name: "publicado",
  label: "Publicado",
  kind: "boolean",
  help: "Si lo desmarca, el registro deja de mostrarse en el sitio aunque se publiquen sus cambios.",
};

export const IMAGE_FIELD = (help: string): ContentField => ({ name: "imagen", label: "Imagen", kind: "media", help });

export const SEO_FIELDS: readonly ContentField[] = [
  {
    name: "seo_titulo",
    label: "Título para buscadores",
    kind: "text",
    seo: "title",
    help: "Lo que Google muestra como título; conviene que tenga menos de 60 caracteres. Si lo deja vacío, se usa el nombre.",
  },
  {
    name: "seo_descripcion",
    label: "Descripción para buscadores",
    kind: "textarea",
    seo: "description",
    help: "El texto bajo el título en Google, de 120 a 155 caracteres. Si la deja vacía, se usa el resumen.",
  },
];

export const seoSchemas = {
  seo_titulo: optionalText(120),
  seo_descripcion: optionalText(300),
};

/** Items of a title and a sentence (retos, pasos, razones), with the same labels everywhere. */
export const TITLE_TEXT_ITEMS: readonly ContentField[] = [
  { name: "titulo", label: "Título", kind: "text", required: true },
  { name: "texto", label: "Texto", kind: "textarea", required: true },
];

/** A list of title-and-text items: `noun` with its article, "un reto", "una razón". */
export function titleTextItems(article: "un" | "una", noun: string, max = 12) {
  return z
    .array(
      z.object({
        titulo: requiredText(`Escriba el título de cada ${noun}.`, 160),
        texto: requiredText(`Escriba el texto de cada ${noun}.`, 800),
      }),
      { error: `Agregue al menos ${article} ${noun}.` },
    )
    .min(1, `Agregue al menos ${article} ${noun}.`)
    .max(max, `Use como máximo ${max} elementos.`);
}

/** Figures shown large with a caption ("+1,800" · "Proyectos entregados"). */
export const FIGURE_ITEMS: readonly ContentField[] = [
  { name: "valor", label: "Cifra", kind: "text", required: true, help: "Corta y grande: «+1,800», «3,200 m²», «96 %»." },
  { name: "etiqueta", label: "Descripción", kind: "text", required: true, help: "Qué mide la cifra, en una línea." },
];

export function figureItems(options: { min?: number; max?: number } = {}) {
  const { min = 0, max = 8 } = options;
  return z
    .array(
      z.object({
        valor: requiredText("Escriba la cifra, por ejemplo +1,800.", 40),
        etiqueta: requiredText("Escriba qué mide la cifra.", 160),
      }),
      { error: "Agregue las cifras." },
    )
    .min(min, `Agregue al menos ${min} cifras.`)
    .max(max, `Use como máximo ${max} cifras.`);
}
