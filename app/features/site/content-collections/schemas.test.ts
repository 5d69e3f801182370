import { describe, expect, it } from "vitest";
import type { z } from "~/lib/zod";
import { industrias } from "./industrias";
import { inicio } from "./inicio";
import { paginas } from "./paginas";
import { preguntas } from "./preguntas";
import { RedireccionSchema } from "./redirecciones";
import { servicios } from "./servicios";

// Bad input gets a Spanish message on the field that has it; good input passes, cleaned.

function messages(schema: z.ZodType, data: unknown): Record<string, string> {
  const result = schema.safeParse(data);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((issue) => [issue.path.join("."), issue.message]));
}

describe("servicios", () => {
  const service = servicios.seed()[0]!;

  it("refuses a slug with capitals or accents, an empty description and an empty list", () => {
    expect(messages(servicios.schema, { ...service, slug: "Diseño Industrial", descripcion: "", capacidades: [] })).toEqual({
      slug: "Use minúsculas sin acentos, números y guiones, por ejemplo maquinado-cnc.",
      descripcion: "Escriba la descripción del servicio.",
      capacidades: "Agregue al menos un elemento.",
    });
  });

  it("refuses a blank capability, an order that is not a whole number and a description that is not the editor's", () => {
    expect(messages(servicios.schema, { ...service, capacidades: ["Fresado", "  "], orden: 1.5, descripcion: "{no es json" })).toEqual({
      "capacidades.1": "Escriba cada capacidad en su renglón.",
      orden: "Escriba el orden como un número entero.",
      descripcion: "El texto con formato no es válido; vuelva a abrirlo en el editor.",
    });
  });

  it("accepts the editor's JSON as a string, trims text and fills what may be left out", () => {
    const { imagen: _imagen, seo_titulo: _title, seo_descripcion: _description, publicado: _published, ...rest } = service;
    const parsed = servicios.schema.parse({ ...rest, nombre: "  Maquinado CNC  ", descripcion: JSON.stringify(service.descripcion) });
    expect(parsed).toEqual({ ...service, nombre: "Maquinado CNC" });
  });
});

describe("industrias", () => {
  const industry = industrias.seed()[0]!;

  it("asks for one example project and complete challenges", () => {
    expect(messages(industrias.schema, { ...industry, proyecto: [], retos: [{ titulo: "Trazabilidad", texto: "" }] })).toEqual({
      proyecto: "Describa un solo proyecto de ejemplo.",
      "retos.0.texto": "Escriba el texto de cada reto.",
    });
    expect(messages(industrias.schema, { ...industry, proyecto: [...industry.proyecto, ...industry.proyecto] })).toEqual({
      proyecto: "Describa un solo proyecto de ejemplo.",
    });
  });

  it("are private when unpublished", () => {
    expect(industrias.isPublic({ ...industry, publicado: false })).toBe(false);
  });
});

describe("preguntas, inicio and paginas", () => {
  it("refuse a question without words in its answer", () => {
    const question = preguntas.seed()[0]!;
    const emptyParagraph = { root: { type: "root", children: [{ type: "paragraph", children: [{ type: "text", text: "   ", format: 0 }] }] } };
    expect(messages(preguntas.schema, { ...question, respuesta: emptyParagraph, categoria: "" })).toEqual({
      respuesta: "Escriba la respuesta.",
      categoria: "Escriba la categoría, por ejemplo Plazos de entrega.",
    });
  });

  it("refuse a home page without steps or with a figure left blank", () => {
    const home = inicio.seed()[0]!;
    expect(messages(inicio.schema, { ...home, pasos: [], cifras: [{ valor: "", etiqueta: "Proyectos" }], razones: [] })).toEqual({
      pasos: "Agregue al menos un paso.",
      "cifras.0.valor": "Escriba la cifra, por ejemplo +1,800.",
      razones: "Agregue al menos una razón.",
    });
  });

  it("take a new page at a free address", () => {
    const page = paginas.schema.parse({ slug: "calidad", titulo: "Calidad", descripcion: "Cómo medimos y documentamos cada pieza.", cuerpo: paginas.seed()[1]!.cuerpo });
    expect(page).toMatchObject({ slug: "calidad", titular: "", entrada: "", cifras: [], imagen: null, publicado: true });
    expect(paginas.paths(page)).toEqual(["/calidad"]);
  });
});

describe("redirecciones", () => {
  it("go from a path of this site to another path or an https address", () => {
    expect(RedireccionSchema.parse({ desde: "/nosotros", hacia: "/about" })).toEqual({ desde: "/nosotros", hacia: "/about" });
    expect(RedireccionSchema.safeParse({ desde: "/folleto", hacia: "https://forja.example/catalogo" }).success).toBe(true);
  });

  it("refuse other hosts, javascript:, the home page, a route of the site and a loop", () => {
    expect(messages(RedireccionSchema, { desde: "//otro.example/x", hacia: "javascript:alert(1)" })).toEqual({
      desde: "Escriba una dirección de este sitio que empiece con /, por ejemplo /nosotros.",
      hacia: "Escriba una dirección de este sitio que empiece con /, o una dirección completa que empiece con https://.",
    });
    expect(messages(RedireccionSchema, { desde: "/", hacia: "/about" })).toEqual({ desde: "La página de inicio no se puede redirigir." });
    expect(messages(RedireccionSchema, { desde: "/cotiza", hacia: "/about" })).toEqual({
      desde: "La dirección /cotiza es una página del sitio; una redirección desde ahí no tendría efecto.",
    });
    expect(messages(RedireccionSchema, { desde: "/nosotros?x=1", hacia: "/about" })).toEqual({ desde: "Escriba la dirección sin «?» ni «#»: se redirige la página completa." });
    expect(messages(RedireccionSchema, { desde: "/Nosotros", hacia: "/nosotros#equipo" })).toEqual({ hacia: "La dirección nueva debe ser distinta de la anterior." });
  });
});
