import type { ContentCollection } from "~/services/content/collection";
import { z } from "~/lib/zod";
import { home } from "../content/home";
import { FIGURE_ITEMS, figureItems, IMAGE_FIELD, mediaSchema, requiredText, TITLE_TEXT_ITEMS, titleTextItems } from "./fields";

// The home page's own words (one record). Its service and industry cards come from those collections.

export const InicioSchema = z.object({
  titular: requiredText("Escriba el titular de la página de inicio.", 200),
  subtitular: requiredText("Escriba el texto bajo el titular.", 600),
  cifras: figureItems({ min: 1 }),
  pasos: titleTextItems("un", "paso", 8),
  razones: titleTextItems("una", "razón", 8),
  imagen: mediaSchema,
});

export type Inicio = z.output<typeof InicioSchema>;

export const inicio: ContentCollection<Inicio> = {
  name: "inicio",
  label: "Página de inicio",
  singular: "página de inicio",
  access: "public",
  singleton: true,
  fields: [
    { name: "titular", label: "Titular", kind: "text", required: true, help: "La promesa principal, en una línea." },
    { name: "subtitular", label: "Subtitular", kind: "textarea", required: true, help: "Dos frases: qué hacen y qué obtiene quien cotiza." },
    { name: "cifras", label: "Cifras", kind: "items", required: true, items: FIGURE_ITEMS, help: "Cuatro datos que dan confianza." },
    { name: "pasos", label: "Cómo trabajamos", kind: "items", required: true, items: TITLE_TEXT_ITEMS, help: "Los pasos de la cotización a la entrega, en orden." },
    { name: "razones", label: "Por qué Forja", kind: "items", required: true, items: TITLE_TEXT_ITEMS, help: "Tres razones concretas para elegir a Forja." },
    IMAGE_FIELD("La imagen junto al titular. Si no elige ninguna, se muestra la ilustración del sitio."),
  ],
  schema: InicioSchema,
  seed: () => [
    {
      titular: home.headline,
      subtitular: home.subheadline,
      cifras: home.figures.map((figure) => ({ valor: figure.value, etiqueta: figure.label })),
      pasos: home.process.map((step) => ({ titulo: step.title, texto: step.text })),
      razones: home.reasons.map((reason) => ({ titulo: reason.title, texto: reason.text })),
      imagen: null,
    },
  ],
  isPublic: () => true,
  paths: () => ["/"],
};
