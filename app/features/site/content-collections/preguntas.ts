import type { ContentCollection } from "~/services/content/collection";
import { z } from "~/lib/zod";
import { faqGroups } from "../content/faqs";
import { ORDER_FIELD, orderSchema, PUBLISHED_FIELD, publishedSchema, requiredText, richTextSchema } from "./fields";
import { paragraphsDocument } from "./seed-rich-text";

// The questions of /faqs: the page groups them by `categoria`, and orders questions and groups by
// `orden` (a group goes where its first question goes).

export const PreguntaSchema = z.object({
  pregunta: requiredText("Escriba la pregunta.", 200),
  respuesta: richTextSchema("Escriba la respuesta."),
  categoria: requiredText("Escriba la categoría, por ejemplo Plazos de entrega.", 80),
  orden: orderSchema,
  publicado: publishedSchema,
});

export type Pregunta = z.output<typeof PreguntaSchema>;

const compare = (a: Pregunta, b: Pregunta) => a.orden - b.orden || a.pregunta.localeCompare(b.pregunta, "es-MX");

/** Questions in the page's groups: each category once, in the order of its first question. */
export function groupByCategory<T extends Pregunta>(questions: readonly T[]): { categoria: string; preguntas: T[] }[] {
  const groups = new Map<string, T[]>();
  for (const question of [...questions].sort(compare)) {
    const group = groups.get(question.categoria);
    if (group) group.push(question);
    else groups.set(question.categoria, [question]);
  }
  return [...groups].map(([categoria, preguntas]) => ({ categoria, preguntas }));
}

export const preguntas: ContentCollection<Pregunta> = {
  name: "preguntas",
  label: "Preguntas frecuentes",
  singular: "pregunta",
  access: "public",
  singleton: false,
  fields: [
    { name: "pregunta", label: "Pregunta", kind: "text", required: true, help: "Como la haría el cliente, entre signos de interrogación." },
    { name: "respuesta", label: "Respuesta", kind: "richtext", required: true, help: "Directa, con datos concretos: plazos, formatos, tolerancias." },
    { name: "categoria", label: "Categoría", kind: "text", required: true, help: "Las preguntas con la misma categoría se muestran juntas; escríbala igual en cada una." },
    ORDER_FIELD,
    PUBLISHED_FIELD,
  ],
  schema: PreguntaSchema,
  seed: () =>
    faqGroups
      .flatMap((group) => group.items.map((item) => ({ group, item })))
      .map(({ group, item }, index) => ({
        pregunta: item.question,
        respuesta: paragraphsDocument(item.answer),
        categoria: group.title,
        orden: (index + 1) * 10,
        publicado: true,
      })),
  isPublic: (data) => data.publicado,
  paths: () => ["/faqs"],
  compare,
};
