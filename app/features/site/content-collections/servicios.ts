import type { ContentCollection } from "~/services/content/collection";
import { z } from "~/lib/zod";
import { services } from "../content/services";
import {
  IMAGE_FIELD,
  mediaSchema,
  ORDER_FIELD,
  orderSchema,
  PUBLISHED_FIELD,
  publishedSchema,
  requiredText,
  richTextSchema,
  SEO_FIELDS,
  seoSchemas,
  SLUG_FIELD,
  slugSchema,
  textList,
} from "./fields";
import { paragraphsDocument } from "./seed-rich-text";

// The services of /servicios (also the cards of the home page and the services each industry names).

export const ServicioSchema = z.object({
  slug: slugSchema,
  nombre: requiredText("Escriba el nombre del servicio.", 120),
  resumen: requiredText("Escriba el resumen del servicio, una frase para las tarjetas.", 300),
  descripcion: richTextSchema("Escriba la descripción del servicio."),
  capacidades: textList("Escriba cada capacidad en su renglón.", { max: 12 }),
  plazo: requiredText("Escriba el plazo típico, por ejemplo Prototipos en 2 a 5 días hábiles.", 160),
  orden: orderSchema,
  imagen: mediaSchema,
  ...seoSchemas,
  publicado: publishedSchema,
});

export type Servicio = z.output<typeof ServicioSchema>;

export const servicios: ContentCollection<Servicio> = {
  name: "servicios",
  label: "Servicios",
  singular: "servicio",
  access: "public",
  singleton: false,
  slugField: "slug",
  fields: [
    SLUG_FIELD("/servicios#maquinado-cnc", "También la usa el formulario de cotización (/cotiza?servicio=…)."),
    { name: "nombre", label: "Nombre", kind: "text", required: true, help: "Como aparece en el título de su sección y en los botones «Cotizar …»." },
    { name: "resumen", label: "Resumen", kind: "textarea", required: true, help: "Una frase de hasta unos 140 caracteres para las tarjetas de la página de inicio." },
    { name: "descripcion", label: "Descripción", kind: "richtext", required: true, help: "Dos o tres párrafos cortos: qué hacemos, cómo y qué recibe el cliente." },
    { name: "capacidades", label: "Capacidades", kind: "list", required: true, help: "Datos concretos, uno por renglón: tamaños de mesa, tolerancias, materiales." },
    { name: "plazo", label: "Plazo típico", kind: "text", required: true, help: "Un hecho, por ejemplo «Piezas maquinadas en 5 a 10 días hábiles»." },
    ORDER_FIELD,
    IMAGE_FIELD("La ilustración de la sección. Si no elige ninguna, se muestra la ilustración del sitio para este servicio."),
    ...SEO_FIELDS,
    PUBLISHED_FIELD,
  ],
  schema: ServicioSchema,
  seed: () =>
    services.map((service, index) => ({
      slug: service.slug,
      nombre: service.name,
      resumen: service.summary,
      descripcion: paragraphsDocument(service.description),
      capacidades: [...service.capabilities],
      plazo: service.leadTime,
      orden: (index + 1) * 10,
      imagen: null,
      seo_titulo: "",
      seo_descripcion: "",
      publicado: true,
    })),
  isPublic: (data) => data.publicado,
  paths: () => ["/servicios", "/"],
  compare: (a, b) => a.orden - b.orden || a.nombre.localeCompare(b.nombre, "es-MX"),
};
