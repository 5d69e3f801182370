// Spanish copy checks: the slips staff are warned about while they type (issue 16) and that a test
// keeps out of today's content (copy-slips.test.ts). Warnings only, never a reason to refuse a save.
// Pure and dependency-free: it ships to the browser with the editor. See docs/decisions/0041.

export type CopyKind = "text" | "seo-title" | "seo-description" | "alt";

export type CopyCode =
  | "tuteo"
  | "sigla-en-minusculas"
  | "x-por-signo"
  | "comillas-rectas"
  | "alt-vacio"
  | "alt-archivo"
  | "alt-redundante"
  | "titulo-corto"
  | "titulo-largo"
  | "descripcion-corta"
  | "descripcion-larga"
  /** Raised by services/site-config/fact-tokens.ts: a name between braces that is not a fact. */
  | "dato-desconocido";

export interface CopyWarning {
  code: CopyCode;
  /** What to write instead, in Spanish, addressed as usted. */
  message: string;
  /** The words the warning is about, as they appear in the text. */
  excerpt: string;
}

export interface CopyCheckOptions {
  kind: CopyKind;
  /** Text the page adds to an SEO title (" | Forja"): counted, since search results show it. */
  titleSuffix?: string;
}

/** Lengths in characters of what search results show (docs/decisions/0041-copy-checks.md). */
export const SEO_TITLE_LENGTH = { min: 30, max: 60 } as const;
export const SEO_DESCRIPTION_LENGTH = { min: 70, max: 160 } as const;

// Imperatives of tú, capitalized as they open a button or a sentence (lowercase "cotiza" is also
// "Forja cotiza", which is fine), with their usted form.
const TU_IMPERATIVES: Record<string, string> = {
  Cotiza: "Cotice", Envía: "Envíe", Sube: "Suba", Adjunta: "Adjunte", Escribe: "Escriba", Elige: "Elija",
  Llena: "Llene", Descarga: "Descargue", Solicita: "Solicite", Conoce: "Conozca", Descubre: "Descubra",
  Pide: "Pida", Haz: "Haga", Agrega: "Agregue", Selecciona: "Seleccione", Regístrate: "Regístrese",
  Contáctanos: "Contáctenos", Escríbenos: "Escríbanos", Llámanos: "Llámenos", Cuéntanos: "Cuéntenos",
  Visítanos: "Visítenos", Síguenos: "Síganos", Pregúntanos: "Pregúntenos",
};
// Words that are tú in any position.
const TU_WORDS: Record<string, string> = {
  tú: "usted", tu: "su", tus: "sus", contigo: "con usted", tuyo: "suyo", tuya: "suya", tuyos: "suyos", tuyas: "suyas",
  puedes: "puede", tienes: "tiene", quieres: "quiere", necesitas: "necesita", deseas: "desea", buscas: "busca",
  estás: "está", eres: "es", podrás: "podrá", recibirás: "recibirá", tendrás: "tendrá",
};
const ACRONYMS = ["cnc", "cad", "cam", "cmm", "3d", "pdf", "step", "stl", "iges", "dxf", "dwg", "iva", "rfc", "cfdi", "clabe", "spei", "iso", "mig", "tig"];

const L = String.raw`\p{L}\p{N}`;
const tuImperative = new RegExp(String.raw`(?<![${L}])(${Object.keys(TU_IMPERATIVES).join("|")})(?![${L}])`, "gu");
const tuWord = new RegExp(String.raw`(?<![${L}])(${Object.keys(TU_WORDS).join("|")})(?![${L}])`, "giu");
// An acronym inside a slug, a path, a file extension, a MIME type or the name of a fact ("maquinado-cnc",
// ".stl", "application/pdf", "{rfc}") is not prose.
const lowercaseAcronym = new RegExp(String.raw`(?<![${L}./_{-])(${ACRONYMS.join("|")})(?![${L}/_}-])`, "gu");

const NUMBER = String.raw`\d+(?:[.,]\d+)*(?:\/\d+)?`;
const UNIT = String.raw`(?:mm|cm|m|µm|in|pulg\.?|ft|″)`;
// A number standing alone before the x (not glued to a word, a path, a file name or a part number), maybe with its unit.
const leftOperand = new RegExp(String.raw`(?<![\p{L}\d_\-./@#:])(${NUMBER}(?:[ \u00a0]?${UNIT})?)[ \u00a0]*$`, "u");
const rightOperand = new RegExp(String.raw`^[ \u00a0]*(${NUMBER})`, "u");
const chainedOperand = new RegExp(String.raw`^((?:[ \u00a0]?${UNIT})?)[ \u00a0]*[xX](?!\p{L})[ \u00a0]*(${NUMBER})`, "u");
// Whole words written with x: "2x3", "3x4m", "10x", "x2". Anything else around the x is a code or a part number.
const compactDimension = new RegExp(String.raw`^${NUMBER}${UNIT}?(?:[xX×]${NUMBER}${UNIT}?)+$`, "u");
const compactTimes = new RegExp(String.raw`^(?:${NUMBER}[xX]|x${NUMBER})$`, "u");
const imageReference = /(?:\.(?:png|jpe?g|webp|avif|gif|svg)(?:\?\S*)?|\))$/i;

const keepCase = (found: string, replacement: string) =>
  found[0] === found[0].toUpperCase() && found[0] !== found[0].toLowerCase() ? replacement[0].toUpperCase() + replacement.slice(1) : replacement;

/** The whitespace-delimited word around position i, without the punctuation that surrounds words. */
function wordAround(text: string, i: number): { word: string; start: number } {
  let start = i;
  while (start > 0 && !/\s/.test(text[start - 1])) start--;
  let end = i + 1;
  while (end < text.length && !/\s/.test(text[end])) end++;
  const raw = text.slice(start, end);
  const lead = /^[([«"'¿¡]*/.exec(raw)![0].length;
  return { word: raw.slice(lead).replace(/[)\]»"'.,;:!?]+$/, ""), start };
}

function timesSlips(text: string): CopyWarning[] {
  const slips: { excerpt: string; suggestion: string }[] = [];
  let consumed = 0;
  for (const { index: at } of text.matchAll(/[xX]/g)) {
    if (at < consumed) continue;
    const before = text[at - 1] ?? "";
    const after = text[at + 1] ?? "";
    if (/\p{L}/u.test(before) || /\p{L}/u.test(after)) continue; // "max", "Xbox", "xilófono", "FOR-X12"
    const left = leftOperand.exec(text.slice(Math.max(0, at - 40), at));
    const right = rightOperand.exec(text.slice(at + 1));
    const spaced = /[ \u00a0]/.test(before) || /[ \u00a0]/.test(after);
    const { word, start } = wordAround(text, at);
    if (left && right) {
      if (!spaced && (!compactDimension.test(word) || /^0x/i.test(word))) continue; // "12X4-B", hex "0x12"
      // A chain ("650 x 520 x 475 mm") is one slip.
      const operands = [left[1], right[1]];
      let end = at + 1 + right[0].length;
      for (let next = chainedOperand.exec(text.slice(end)); next; next = chainedOperand.exec(text.slice(end))) {
        operands[operands.length - 1] += next[1];
        operands.push(next[2]);
        end += next[0].length;
      }
      consumed = end;
      slips.push({ excerpt: text.slice(at - left[0].length, end), suggestion: operands.join(" × ") });
    } else if (left && !/\s/.test(before) && compactTimes.test(word)) {
      const previous = text.slice(0, start).trimEnd().split(/\s+/).pop() ?? "";
      if (imageReference.test(previous.replace(/,$/, ""))) continue; // densities of srcset and image-set: "a.png 2x"
      slips.push({ excerpt: word, suggestion: word.replace(/[xX]$/, "×") });
    } else if (!left && text[at] === "x" && /^$|[\s(]/.test(before) && compactTimes.test(word)) {
      slips.push({ excerpt: word, suggestion: word.replace(/^x/, "×") });
    }
  }
  return slips.map(({ excerpt, suggestion }) => ({
    code: "x-por-signo",
    excerpt,
    message: `Use el signo de multiplicación ×, no la letra x: escriba «${suggestion}» en lugar de «${excerpt}».`,
  }));
}

function quoteSlips(text: string): CopyWarning[] {
  const out: CopyWarning[] = [];
  // Inches first, so that «3" y 5"» is two measures and not a quotation.
  const inches = /(\d+(?:[.,]\d+)?)[ \u00a0]?"(?![\p{L}\d])/gu;
  for (const match of text.matchAll(inches)) {
    out.push({ code: "comillas-rectas", excerpt: match[0], message: `Para pulgadas escriba «${match[1]} pulg.» en lugar de «${match[0]}».` });
  }
  const rest = text.replace(inches, "");
  for (const match of rest.matchAll(/"([^"]{1,120})"/g)) {
    out.push({ code: "comillas-rectas", excerpt: match[0], message: `Use comillas latinas: escriba «${match[1]}» en lugar de ${match[0]}.` });
  }
  if (!out.length && text.includes('"')) {
    out.push({ code: "comillas-rectas", excerpt: '"', message: 'Use comillas latinas « » en lugar de comillas rectas (").' });
  }
  return out;
}

function textSlips(text: string): CopyWarning[] {
  const tuteo = [...text.matchAll(tuImperative), ...text.matchAll(tuWord)]
    .sort((a, b) => a.index - b.index)
    .map(([found]) => {
      const usted = TU_IMPERATIVES[found] ?? keepCase(found, TU_WORDS[found.toLowerCase()]);
      return { code: "tuteo" as const, excerpt: found, message: `«${found}» trata al cliente de tú; el sitio le habla de usted: escriba «${usted}».` };
    });
  const acronyms = [...text.matchAll(lowercaseAcronym)].map(([found]) => ({
    code: "sigla-en-minusculas" as const,
    excerpt: found,
    message: `Escriba la sigla en mayúsculas: «${found.toUpperCase()}» en lugar de «${found}».`,
  }));
  return [...tuteo, ...acronyms, ...quoteSlips(text), ...timesSlips(text)];
}

const clean = (text: string) => text.replace(/\s+/g, " ").trim();

const SEO_FIELDS = {
  title: {
    range: SEO_TITLE_LENGTH, short: "titulo-corto", long: "titulo-largo", name: "El título para buscadores", empty: "está vacío", cut: "acórtelo",
    advice: "nombre el servicio o el tema y, si aplica, la ciudad",
  },
  description: {
    range: SEO_DESCRIPTION_LENGTH, short: "descripcion-corta", long: "descripcion-larga", name: "La descripción para buscadores", empty: "está vacía", cut: "acórtela",
    advice: "diga qué encuentra el cliente en la página y qué puede hacer ahí",
  },
} as const;

function lengthSlip(text: string, field: keyof typeof SEO_FIELDS, suffix = ""): CopyWarning | undefined {
  const { range: { min, max }, short, long, name, empty, cut, advice } = SEO_FIELDS[field];
  const counted = suffix.trim() ? ` contando «${suffix.trim()}», que la página agrega` : "";
  const characters = [...(text ? text + suffix : "")];
  const count = characters.length;
  if (count === 0) return { code: short, excerpt: "", message: `${name} ${empty}: escriba entre ${min} y ${max} caracteres; ${advice}.` };
  if (count < min) return { code: short, excerpt: text, message: `${name} tiene ${count} caracteres${counted}; use entre ${min} y ${max}: ${advice}.` };
  if (count > max) {
    return { code: long, excerpt: characters.slice(max).join(""), message: `${name} tiene ${count} caracteres${counted}; los buscadores muestran unos ${max}: ${cut} a ${max} o menos, con lo importante al principio.` };
  }
  return undefined;
}

function altSlips(alt: string): CopyWarning[] {
  if (!alt) {
    return [{ code: "alt-vacio", excerpt: "", message: "Falta el texto alternativo: describa en una frase qué muestra la imagen, para quien no puede verla y para los buscadores." }];
  }
  if (/^[\w.-]+\.(?:png|jpe?g|webp|avif|gif|svg|heic)$/i.test(alt) || /^(?:IMG|DSC|DCIM|PXL)[_-]?\d+/i.test(alt)) {
    return [{ code: "alt-archivo", excerpt: alt, message: `«${alt}» es un nombre de archivo: describa lo que muestra la imagen (por ejemplo, «Pieza de aluminio recién maquinada»).` }];
  }
  const opening = /^(?:imagen|foto|fotografía|picture|image)(?: del?(?=\s)|$)/iu.exec(alt);
  if (opening) {
    return [{ code: "alt-redundante", excerpt: opening[0], message: `Quite «${opening[0]}»: los lectores de pantalla ya anuncian que es una imagen; empiece por lo que muestra.` }];
  }
  return [];
}

function unique(warnings: CopyWarning[]): CopyWarning[] {
  const seen = new Set<string>();
  return warnings.filter(({ code, excerpt }) => {
    const key = `${code}\u0000${excerpt}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The slips in one field's text, each with what to write instead. An empty list means nothing to say. */
export function checkCopy(text: string, options: CopyCheckOptions = { kind: "text" }): CopyWarning[] {
  const value = clean(text);
  const warnings = textSlips(value);
  if (options.kind === "alt") warnings.unshift(...altSlips(value));
  if (options.kind === "seo-title") {
    const slip = lengthSlip(value, "title", options.titleSuffix);
    if (slip) warnings.push(slip);
  }
  if (options.kind === "seo-description") {
    const slip = lengthSlip(value, "description");
    if (slip) warnings.push(slip);
  }
  return unique(warnings);
}

/** A block of a rich text as plain text, or one of its images by its alt text. */
export type RichTextCopyBlock = string | { alt: string | null | undefined };

/** The slips in a rich text, block by block (`block` is the block's position). */
export function checkRichTextCopy(blocks: readonly RichTextCopyBlock[]): (CopyWarning & { block: number })[] {
  return blocks.flatMap((block, index) =>
    (typeof block === "string" ? checkCopy(block, { kind: "text" }) : checkCopy(block.alt ?? "", { kind: "alt" })).map((warning) => ({ ...warning, block: index })),
  );
}
