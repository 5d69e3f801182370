import type { ContentCollection } from "~/services/content/collection";
import { z } from "~/lib/zod";
import { isReservedSlug } from "./reserved-paths";

// 301s from an old address to a new one. The content store keeps them in a table of its own and
// creates one whenever a published record's slug changes; staff list and edit them here.

/** A path of this site: "/nosotros" (no other host, no "//", no spaces). */
const LOCAL_PATH = /^\/(?!\/)[^\s\\]*$/;

const desde = z
  .string({ error: "Escriba la dirección anterior, por ejemplo /nosotros." })
  .trim()
  .max(500, "Use como máximo 500 caracteres.")
  .regex(LOCAL_PATH, "Escriba una dirección de este sitio que empiece con /, por ejemplo /nosotros.")
  .refine((path) => !/[?#]/.test(path), "Escriba la dirección sin «?» ni «#»: se redirige la página completa.")
  .refine((path) => path !== "/", "La página de inicio no se puede redirigir.")
  .refine(
    (path) => !isReservedSlug(path.split("/")[1] ?? "") || path.split("/").filter(Boolean).length > 1,
    { error: (issue) => `La dirección ${String(issue.input)} es una página del sitio; una redirección desde ahí no tendría efecto.` },
  );

const hacia = z
  .string({ error: "Escriba la dirección nueva, por ejemplo /about." })
  .trim()
  .max(2000, "Use como máximo 2,000 caracteres.")
  .refine(
    (target) => LOCAL_PATH.test(target) || /^https:\/\/[^\s/]+\.[^\s/]+(\/\S*)?$/i.test(target),
    "Escriba una dirección de este sitio que empiece con /, o una dirección completa que empiece con https://.",
  );

export const RedireccionSchema = z
  .object({ desde, hacia })
  .refine((data) => data.desde.toLowerCase() !== data.hacia.split(/[?#]/)[0]!.toLowerCase(), {
    path: ["hacia"],
    message: "La dirección nueva debe ser distinta de la anterior.",
  });

export type Redireccion = z.output<typeof RedireccionSchema>;

export const redirecciones: ContentCollection<Redireccion> = {
  name: "redirecciones",
  label: "Redirecciones",
  singular: "redirección",
  access: "public",
  singleton: false,
  fields: [
    { name: "desde", label: "Dirección anterior", kind: "text", required: true, help: "La que ya no existe, por ejemplo /nosotros." },
    { name: "hacia", label: "Dirección nueva", kind: "text", required: true, help: "Adonde llega el visitante, con una redirección permanente (301)." },
  ],
  schema: RedireccionSchema,
  seed: () => [],
  isPublic: () => true,
  paths: (data) => [data.desde],
  compare: (a, b) => a.desde.localeCompare(b.desde, "es-MX"),
};
