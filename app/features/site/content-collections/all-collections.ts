import type { AnyContentCollection } from "~/services/content/registry.server";
import { ajustes } from "./ajustes";
import { industrias } from "./industrias";
import { inicio } from "./inicio";
import { paginas } from "./paginas";
import { preguntas } from "./preguntas";
import { redirecciones } from "./redirecciones";
import { servicios } from "./servicios";

// The site's content collections (issue 16 §1), in the editor's order, for the content store to
// register (registerCollections). Browser-safe: the editor renders its forms from them. The issue's
// `medios` is the media library's own table (docs/decisions/0046, 0050), not a collection here.

export const siteContentCollections: readonly AnyContentCollection[] = [inicio, servicios, industrias, preguntas, paginas, redirecciones, ajustes];
