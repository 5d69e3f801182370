import { z } from "~/lib/zod";

// The library's upload limits and the forms' schema, shared by the admin screen and the server.

export const MEDIA_LIMITS = { maxFiles: 1, maxFileBytes: 15 * 1024 * 1024, maxTotalBytes: 15 * 1024 * 1024 } as const;

const focus = (axis: string) =>
  z.coerce
    .number({ error: `Indique el punto de interés ${axis} como un número de 0 a 1.` })
    .min(0, `El punto de interés ${axis} va de 0 a 1.`)
    .max(1, `El punto de interés ${axis} va de 0 a 1.`)
    .default(0.5);

const alt = z
  .string({ error: "Describa la imagen: qué muestra, en una frase." })
  .trim()
  .min(1, "Describa la imagen: qué muestra, en una frase.")
  .max(250, "Use como máximo 250 caracteres en el texto alternativo.");

/** The details of an image, at upload and when edited. */
export const MediaDetailsSchema = z.object({ alt, focoX: focus("horizontal"), focoY: focus("vertical") });
export type MediaDetails = z.output<typeof MediaDetailsSchema>;
