import { renderRichText } from "~/lib/rich-text/render.server";
import { publishedRecords } from "~/services/content/published.server";
import { groupByCategory, preguntas, type Pregunta } from "./content-collections/preguntas";

// The questions of /faqs as staff published them (the `preguntas` collection, issue 16): grouped by
// category, each answer rendered to sanitized HTML on the server.

export interface FaqGroup {
  title: string;
  items: { question: string; answerHtml: string }[];
}

export async function listFaqGroups(): Promise<FaqGroup[]> {
  const records = await publishedRecords<Pregunta>(preguntas);
  return groupByCategory(records.map((record) => record.data)).map((group) => ({
    title: group.categoria,
    items: group.preguntas.map((question) => ({ question: question.pregunta, answerHtml: renderRichText(question.respuesta) })),
  }));
}
