import type { ContentCollection } from "~/services/content/collection";
import { z } from "~/lib/zod";
import { requiredText } from "./fields";

// The media library: images staff upload for pages, services, industries and the logo. Defined here
// for the editor and the record API; the files themselves are stored and checked by the upload
// service, which fills `archivo`, `ancho` and `alto`. Empty on a new database.

const pixels = (what: string) =>
  z
    .number({ error: `Falta el ${what} de la imagen en píxeles.` })
    .int(`El ${what} de la imagen es un número entero de píxeles.`)
    .min(1, `El ${what} de la imagen debe ser de al menos 1 píxel.`)
    .max(20_000, `El ${what} de la imagen es de como máximo 20,000 píxeles.`);

const focus = (axis: string) =>
  z
    .number({ error: `Indique el punto de interés ${axis} como un número de 0 a 1.` })
    .min(0, `El punto de interés ${axis} va de 0 a 1.`)
    .max(1, `El punto de interés ${axis} va de 0 a 1.`)
    .default(0.5);

export const MedioSchema = z.object({
  archivo: requiredText("Falta el archivo de la imagen.", 200),
  alt: requiredText("Describa la imagen para quien no puede verla: qué muestra, en una frase.", 250),
  ancho: pixels("ancho"),
  alto: pixels("alto"),
  foco_x: focus("horizontal"),
  foco_y: focus("vertical"),
});

export type Medio = z.output<typeof MedioSchema>;

export const medios: ContentCollection<Medio> = {
  name: "medios",
  label: "Imágenes",
  singular: "imagen",
  access: "public",
  singleton: false,
  fields: [
    { name: "archivo", label: "Archivo", kind: "text", required: true, help: "Lo asigna el sitio al subir la imagen; se revisa que sea una imagen por su contenido." },
    { name: "alt", label: "Texto alternativo", kind: "text", required: true, help: "Qué muestra la imagen, para lectores de pantalla y buscadores: «Brida de acero maquinada con seis barrenos»." },
    { name: "ancho", label: "Ancho (px)", kind: "number", required: true },
    { name: "alto", label: "Alto (px)", kind: "number", required: true },
    { name: "foco_x", label: "Punto de interés horizontal", kind: "number", help: "De 0 (izquierda) a 1 (derecha): al recortar la imagen, este punto queda a la vista." },
    { name: "foco_y", label: "Punto de interés vertical", kind: "number", help: "De 0 (arriba) a 1 (abajo)." },
  ],
  schema: MedioSchema,
  seed: () => [],
  isPublic: () => true,
  // An image is shown by the records that choose it; the store finds those when it changes.
  paths: () => [],
  compare: (a, b) => a.alt.localeCompare(b.alt, "es-MX"),
};
