import { describe, expect, it } from "vitest";
import { checkCopy, checkRichTextCopy, SEO_DESCRIPTION_LENGTH, SEO_TITLE_LENGTH, type CopyCode, type CopyKind } from "./copy-check";

const codes = (text: string, kind: CopyKind = "text") => checkCopy(text, { kind }).map(({ code, excerpt }) => `${code} «${excerpt}»`);
const only = (text: string, code: CopyCode, kind: CopyKind = "text") => checkCopy(text, { kind }).filter((warning) => warning.code === code);

describe("tuteo", () => {
  it.each([
    ["Cotiza su pieza", "Cotiza", "Cotice"],
    ["Sube los planos", "Sube", "Suba"],
    ["Contáctanos hoy", "Contáctanos", "Contáctenos"],
    ["Regístrate para ver sus pedidos", "Regístrate", "Regístrese"],
    ["Envíe tu archivo", "tu", "su"],
    ["Tus piezas, a tiempo", "Tus", "Sus"],
    ["Trabajamos contigo", "contigo", "con usted"],
    ["¿Necesitas una cotización?", "Necesitas", "Necesita"],
    ["Aquí puedes ver el avance", "puedes", "puede"],
    ["Recibirás un correo", "Recibirás", "Recibirá"],
    ["Tú decides el material", "Tú", "Usted"],
  ])("flags %j and says to write the usted form", (text, found, usted) => {
    const [warning, ...rest] = only(text, "tuteo");
    expect(rest).toEqual([]);
    expect(warning.excerpt).toBe(found);
    expect(warning.message).toBe(`«${found}» trata al cliente de tú; el sitio le habla de usted: escriba «${usted}».`);
  });

  it("finds every tú form of a text, in order, once each", () => {
    expect(codes("Sube tu archivo y tus planos; tu pieza llega pronto")).toEqual(["tuteo «Sube»", "tuteo «tu»", "tuteo «tus»"]);
  });

  it("leaves usted copy and the third person alone", () => {
    for (const text of ["Cotice su pieza", "Forja cotiza en 24 horas hábiles", "Suba sus planos", "Solicite su cotización", "Su pedido", "Estatus del pedido", "Tubo de acero", "Tuerca M8", "Actualice su contraseña", "Aquí puede ver el avance"]) {
      expect(only(text, "tuteo"), text).toEqual([]);
    }
  });
});

describe("lowercased acronyms", () => {
  it.each([
    ["Maquinado cnc de 5 ejes", "cnc", "CNC"],
    ["Modelo en 3d", "3d", "3D"],
    ["Precios con iva incluido", "iva", "IVA"],
    ["Archivos step o stl", "step", "STEP"],
    ["Factura con cfdi 4.0", "cfdi", "CFDI"],
  ])("flags %j", (text, found, upper) => {
    const [warning] = only(text, "sigla-en-minusculas");
    expect(warning.excerpt).toBe(found);
    expect(warning.message).toBe(`Escriba la sigla en mayúsculas: «${upper}» en lugar de «${found}».`);
  });

  it("leaves capitals, slugs, paths, extensions, MIME types and words that contain the letters alone", () => {
    for (const text of ["Maquinado CNC", "Suba su modelo 3D en STEP, STL o PDF", "/servicios/maquinado-cnc", "Archivos .step, .stl y .pdf", "application/pdf", "cámara", "Cadena", "Pasos", "cnc_router", "ISO 9001"]) {
      expect(only(text, "sigla-en-minusculas"), text).toEqual([]);
    }
  });
});

describe("x for ×", () => {
  it.each([
    ["Placa de 3 x 4", "3 x 4", "3 × 4"],
    ["Placa de 2x3", "2x3", "2 × 3"],
    ["Paquete de tornillos x2", "x2", "×2"],
    ["Lupa de 10x", "10x", "10×"],
    ["Mesa de 3,000 x 1,500 mm", "3,000 x 1,500", "3,000 × 1,500"],
    ["Piezas de hasta 650 x 520 x 475 mm", "650 x 520 x 475", "650 × 520 × 475"],
    ["Lámina de 4 m x 2 m", "4 m x 2", "4 m × 2"],
    ["Corte de 1/2 x 3/4 in", "1/2 x 3/4", "1/2 × 3/4"],
    ["Tablero 1.5X2", "1.5X2", "1.5 × 2"],
    ["Caja (x12)", "x12", "×12"],
  ])("flags %j as %j and writes it with ×", (text, excerpt, fixed) => {
    expect(only(text, "x-por-signo")).toEqual([
      { code: "x-por-signo", excerpt, message: `Use el signo de multiplicación ×, no la letra x: escriba «${fixed}» en lugar de «${excerpt}».` },
    ]);
  });

  it("leaves words, names, CSS values, image densities, hexadecimal and part numbers alone", () => {
    for (const text of [
      "xilófono",
      "Xbox",
      "El eje X de la fresadora",
      "Pieza FOR-X12",
      "Número de parte 12X4-B",
      "Rosca M8x1.25",
      "max-width: 12px",
      "transform: rotateX(30deg)",
      "srcset: torno.webp 1x, torno@2x.webp 2x",
      "image-set(url(a.png) 1x, url(b.png) 2x)",
      "logo@2x.png",
      "0x1F y 0x12",
      "Talla 2XL",
      "Piezas de 650 × 520 × 475 mm",
      "/catalogo/solera-6x100-mm",
    ]) {
      expect(only(text, "x-por-signo"), text).toEqual([]);
    }
  });
});

describe("straight quotes", () => {
  it("flags a quoted phrase and says how to write it with « »", () => {
    expect(only('en adelante, "Forja"', "comillas-rectas")).toEqual([
      { code: "comillas-rectas", excerpt: '"Forja"', message: 'Use comillas latinas: escriba «Forja» en lugar de "Forja".' },
    ]);
  });

  it("flags inches written with a straight quote, and a lone quote", () => {
    expect(only('Tubo de 3" de diámetro', "comillas-rectas").map((warning) => warning.message)).toEqual(["Para pulgadas escriba «3 pulg.» en lugar de «3\"»."]);
    expect(codes('Dijo " y se fue')).toEqual(['comillas-rectas «"»']);
    expect(codes('Tubos de 3" y 5", en "acero" negro')).toEqual(['comillas-rectas «3"»', 'comillas-rectas «5"»', 'comillas-rectas «"acero"»']);
  });

  it("leaves « » and “ ” alone", () => {
    for (const text of ["en adelante, «Forja»", "la llamada «pieza “patrón”»", "Tubo de 3 pulg."]) expect(only(text, "comillas-rectas"), text).toEqual([]);
  });
});

describe("alt text", () => {
  it("flags a missing alt text, a file name and an opening that repeats «imagen»", () => {
    expect(codes("", "alt")).toEqual(["alt-vacio «»"]);
    expect(codes("   ", "alt")).toEqual(["alt-vacio «»"]);
    expect(codes("IMG_2041.jpg", "alt")).toEqual(["alt-archivo «IMG_2041.jpg»"]);
    expect(codes("torno-cnc-final.webp", "alt")).toEqual(["alt-archivo «torno-cnc-final.webp»"]);
    expect(codes("Foto de un torno CNC", "alt")).toEqual(["alt-redundante «Foto de»"]);
    expect(codes("Imagen del taller", "alt")).toEqual(["alt-redundante «Imagen del»"]);
  });

  it("passes a description and still checks its Spanish", () => {
    expect(codes("Torno CNC con herramienta motorizada maquinando una flecha de acero", "alt")).toEqual([]);
    expect(codes("Fotografía aérea de la planta en Querétaro", "alt")).toEqual([]);
    expect(codes("Fotografía de la planta en Querétaro", "alt")).toEqual(["alt-redundante «Fotografía de»"]);
    expect(codes("Imagen", "alt")).toEqual(["alt-redundante «Imagen»"]);
    expect(codes("Fotomontaje del ensamble", "alt")).toEqual([]);
    expect(codes("Router cnc cortando MDF", "alt")).toEqual(["sigla-en-minusculas «cnc»"]);
  });

  it("is only about images: other kinds accept an empty text", () => {
    expect(checkCopy("", { kind: "text" })).toEqual([]);
  });
});

describe("SEO lengths", () => {
  const title = (length: number) => "T".repeat(length);

  it("wants a title of 30 to 60 characters", () => {
    expect(SEO_TITLE_LENGTH).toEqual({ min: 30, max: 60 });
    expect(checkCopy(title(30), { kind: "seo-title" })).toEqual([]);
    expect(checkCopy(title(60), { kind: "seo-title" })).toEqual([]);
    expect(checkCopy("Maquinado", { kind: "seo-title" })).toEqual([
      { code: "titulo-corto", excerpt: "Maquinado", message: "El título para buscadores tiene 9 caracteres; use entre 30 y 60: nombre el servicio o el tema y, si aplica, la ciudad." },
    ]);
    const long = `${title(60)}cortado`;
    expect(checkCopy(long, { kind: "seo-title" })).toEqual([
      { code: "titulo-largo", excerpt: "cortado", message: "El título para buscadores tiene 67 caracteres; los buscadores muestran unos 60: acórtelo a 60 o menos, con lo importante al principio." },
    ]);
    expect(codes("", "seo-title")).toEqual(["titulo-corto «»"]);
  });

  it("counts the suffix the page adds to the title, and says so", () => {
    expect(checkCopy(title(55), { kind: "seo-title", titleSuffix: " | Forja" }).map((warning) => warning.message)).toEqual([
      "El título para buscadores tiene 63 caracteres contando «| Forja», que la página agrega; los buscadores muestran unos 60: acórtelo a 60 o menos, con lo importante al principio.",
    ]);
    expect(checkCopy(title(52), { kind: "seo-title", titleSuffix: " | Forja" })).toEqual([]);
  });

  it("wants a description of 70 to 160 characters, counted as people read them", () => {
    expect(SEO_DESCRIPTION_LENGTH).toEqual({ min: 70, max: 160 });
    expect(checkCopy("d".repeat(70), { kind: "seo-description" })).toEqual([]);
    expect(checkCopy("ñ".repeat(160), { kind: "seo-description" })).toEqual([]);
    expect(codes("d".repeat(69), "seo-description")).toEqual([`descripcion-corta «${"d".repeat(69)}»`]);
    expect(codes(`${"d".repeat(160)} y más`, "seo-description")).toEqual(["descripcion-larga « y más»"]);
    expect(checkCopy("", { kind: "seo-description" })[0].message).toBe(
      "La descripción para buscadores está vacía: escriba entre 70 y 160 caracteres; diga qué encuentra el cliente en la página y qué puede hacer ahí.",
    );
    // Line breaks and runs of spaces count as one space, as a search result shows them.
    expect(checkCopy(`${"d".repeat(80)}\n\n     ${"d".repeat(79)}`, { kind: "seo-description" })).toEqual([]);
  });

  it("checks the Spanish of SEO texts too", () => {
    expect(codes("Cotiza tu maquinado cnc en Querétaro", "seo-title")).toEqual(["tuteo «Cotiza»", "tuteo «tu»", "sigla-en-minusculas «cnc»"]);
  });
});

describe("checkRichTextCopy", () => {
  it("checks each block, images by their alt text, and says which block", () => {
    expect(checkRichTextCopy(["Maquinado CNC de precisión.", "Sube tu plano", { alt: null }, { alt: "Brazo de medición sobre una carcasa" }, "Mesa de 3 x 2 m"]).map(({ block, code, excerpt }) => [block, code, excerpt])).toEqual([
      [1, "tuteo", "Sube"],
      [1, "tuteo", "tu"],
      [2, "alt-vacio", ""],
      [4, "x-por-signo", "3 x 2"],
    ]);
  });

  it("finds nothing in clean copy", () => {
    expect(checkRichTextCopy(["Cotice su pieza.", { alt: "Pieza de aluminio anodizado" }])).toEqual([]);
  });

  it("a fact's name between braces is not an acronym written in lowercase", () => {
    expect(checkRichTextCopy(["Con RFC {rfc}.", "Su rfc."]).map(({ block, code }) => [block, code])).toEqual([[1, "sigla-en-minusculas"]]);
  });
});
