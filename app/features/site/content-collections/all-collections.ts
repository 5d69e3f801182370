import type { AnyContentCollection } from "~/services/content/registry.server";
import { ajustes } from "./ajustes";
import { industrias } from "./industrias";
import { inicio } from "./inicio";
import { medios } from "./medios";
import { paginas } from "./paginas";
import { preguntas } from "./preguntas";
import { redirecciones } from "./redirecciones";
import { servicios } from "./servicios";

// The site's content collections (issue 16 §1), in the editor's order, for the content store to
// register (registerCollections). Browser-safe: the editor renders its forms from them.

export const siteContentCollections: readonly AnyContentCollection[] = [inicio, servicios, industrias, preguntas, paginas, medios, redirecciones, ajustes];
