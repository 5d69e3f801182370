import { renderRichText } from "~/lib/rich-text/render.server";
import { publishedRecords } from "~/services/content/published.server";
import { siteRichTextOptions } from "./rich-text.server";
import { groupByCategory, preguntas, type Pregunta } from "./content-collections/preguntas";

// The questions of /faqs as staff published them (the `preguntas` collection, issue 16): grouped by
// category, each answer rendered to sanitized HTML on the server.

export interface FaqGroup {
  title: string;
  items: { question: string; answerHtml: string }[];
}

export async function listFaqGroups(): Promise<FaqGroup[]> {
  const records = await publishedRecords<Pregunta>(preguntas);
  const data = records.map((record) => record.data);
  const options = await siteRichTextOptions(...data.map((question) => question.respuesta));
  return groupByCategory(data).map((group) => ({
    title: group.categoria,
    items: group.preguntas.map((question) => ({ question: question.pregunta, answerHtml: renderRichText(question.respuesta, options) })),
  }));
}
