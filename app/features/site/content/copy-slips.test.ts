import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { checkCopy } from "~/lib/copy-check";
import { about } from "./about";
import { faqGroups } from "./faqs";
import { home } from "./home";
import { industries } from "./industries";
import { legalPages } from "./legal";
import { serviceNameInSentence } from "../service-name";
import { services } from "./services";

// The site speaks to customers as "usted" and writes acronyms in capitals. This scans the editorial
// content, the email modules and the text of the pages and components for the slips that crept in
// before: tú forms ("Cotiza", "tu proyecto"), acronyms a helper lowercased ("maquinado cnc"), straight
// double quotes where Spanish copy quotes with « » (docs/decisions/0033) and the letter x for × ("3 x 4").
// The checks are the ones the content editor shows while staff type (~/lib/copy-check, docs/decisions/0041).

/** The slips found in one piece of visible text, as short descriptions. */
function copySlips(text: string): string[] {
  return checkCopy(text, { kind: "text" }).map(({ code, excerpt }) => `${code} «${excerpt}»`);
}

/** Every string value of a content object, with where it sits; slugs are identifiers, not copy. */
function contentStrings(value: unknown, where: string, out: { where: string; text: string }[] = []) {
  if (typeof value === "string") out.push({ where, text: value });
  else if (Array.isArray(value)) value.forEach((item, index) => contentStrings(item, `${where}[${index}]`, out));
  else if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) if (key !== "slug") contentStrings(item, `${where}.${key}`, out);
  }
  return out;
}

const appRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

// Attributes and properties whose strings are for people, not for code.
const TEXT_KEYS = new Set(["title", "label", "heading", "subject", "text", "message", "description", "lead", "eyebrow", "intro", "summary", "notice", "alt", "aria-label", "placeholder", "hint", "body", "error", "question", "answer", "cta", "seeAllLabel", "emptyTitle", "emptyText"]);

function keyOf(node: ts.Node): string | undefined {
  const parent = node.parent;
  if (ts.isPropertyAssignment(parent) && parent.initializer === node) return parent.name.getText();
  if (ts.isJsxAttribute(parent)) return parent.name.getText();
  if (ts.isJsxExpression(parent) && ts.isJsxAttribute(parent.parent)) return parent.parent.name.getText();
  return undefined;
}

/** Visible text in a module: JSX text, strings rendered as JSX children, and strings under the keys above. */
function visibleStrings(file: string): { where: string; text: string }[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const out: { where: string; text: string }[] = [];
  const where = (node: ts.Node) => `${path.relative(appRoot, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) && node.text.trim()) out.push({ where: where(node), text: node.text });
    else if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node)) {
      const text = ts.isTemplateExpression(node) ? [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join(" … ") : node.text;
      const key = keyOf(node);
      const child = ts.isJsxExpression(node.parent) && !ts.isJsxAttribute(node.parent.parent);
      if (child || (key && TEXT_KEYS.has(key.replace(/^["']|["']$/g, "")))) out.push({ where: where(node), text });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

describe("copySlips", () => {
  it("finds the tú forms and lowercased acronyms the site used to show", () => {
    expect(copySlips("Cotiza")).toEqual(["tuteo «Cotiza»"]);
    expect(copySlips("Cotiza su proyecto")).toEqual(["tuteo «Cotiza»"]);
    expect(copySlips("Sube tu archivo")).toEqual(["tuteo «Sube»", "tuteo «tu»"]);
    expect(copySlips("Trabajamos contigo")).toEqual(["tuteo «contigo»"]);
    expect(copySlips("Cotizar maquinado cnc")).toEqual(["sigla-en-minusculas «cnc»"]);
    expect(copySlips("Cotizar ingeniería mecánica y cad")).toEqual(["sigla-en-minusculas «cad»"]);
    expect(copySlips("Cotizar ingeniería inversa y escaneo 3d")).toEqual(["sigla-en-minusculas «3d»"]);
    expect(copySlips('en adelante, "Forja"')).toEqual(['comillas-rectas «"Forja"»']);
    expect(copySlips("Mesa de 3,000 x 1,500 mm")).toEqual(["x-por-signo «3,000 x 1,500»"]);
  });

  it("leaves usted copy, capital acronyms, slugs, paths and file extensions alone", () => {
    for (const text of [
      "Cotizar",
      "Solicite su cotización",
      "Cotizar maquinado CNC",
      "Suba su modelo 3D en STEP, STL o PDF",
      "/servicios/maquinado-cnc",
      "Archivos .step, .stl y .pdf",
      "application/pdf",
      "Tubo de acero",
      "Cotización",
      "en adelante, «Forja»",
      "Mesa de 3,000 × 1,500 mm",
    ]) {
      expect(copySlips(text), text).toEqual([]);
    }
  });
});

describe("visible copy", () => {
  it("the editorial content speaks as usted and writes acronyms in capitals", () => {
    const strings = [
      ...contentStrings(home, "home"),
      ...contentStrings(about, "about"),
      ...contentStrings(services, "services"),
      ...contentStrings(industries, "industries"),
      ...contentStrings(faqGroups, "faqs"),
      ...contentStrings(legalPages, "legal"),
      // The calls to action built from the content, as /servicios and the industry pages show them.
      ...services.map((service) => ({ where: `/servicios ${service.slug}`, text: `Cotizar ${serviceNameInSentence(service.name)}` })),
      ...industries.map((industry) => ({ where: `/industrias-design/${industry.slug}`, text: `Cotizar ${industry.projectPhrase}; su solicitud nos llega ya clasificada en ${industry.sectorPhrase}.` })),
    ];
    expect(strings.length).toBeGreaterThan(300);
    const slips = strings.flatMap(({ where, text }) => copySlips(text).map((slip) => `${where}: ${slip} en «${text}»`));
    expect(slips).toEqual([]);
  });

  it("industries are named mid-sentence in lowercase, with their own agreement", () => {
    for (const industry of industries) {
      expect(industry.projectPhrase, industry.slug).toMatch(/^un proyecto [a-záéíóúñ ]+$/u);
      expect(industry.sectorPhrase, industry.slug).toMatch(/^(el|la) [a-záéíóúñ ]+$/u);
    }
  });

  it("pages, components and emails speak as usted and write acronyms in capitals", () => {
    const files = [...sourceFiles(path.join(appRoot, "app/routes")), ...sourceFiles(path.join(appRoot, "app/components")), ...sourceFiles(path.join(appRoot, "app/features")), ...sourceFiles(path.join(appRoot, "app/services/mail"))];
    const strings = files.flatMap(visibleStrings);
    // The scan must reach the header, the email modules and the pages, or it proves nothing.
    for (const expected of ["Solicite su cotización", "Preguntas frecuentes", "Le damos la bienvenida"]) {
      expect(strings.some(({ text }) => text.includes(expected)), expected).toBe(true);
    }
    expect(strings.some(({ where }) => where.startsWith("app/features/solicitudes/solicitud-emails.server.ts"))).toBe(true);
    const slips = strings.flatMap(({ where, text }) => copySlips(text).map((slip) => `${where}: ${slip} en «${text.trim()}»`));
    expect(slips).toEqual([]);
  });

  it("no formatted time is followed by a literal period: es-MX times end in «p.m.» already (endSentence)", () => {
    // `{formatDateTime(x)}.` in JSX or `${clock(x)}.` in a template printed «2:30 p.m..».
    const timeThenPeriod = /\b(?:formatDateTime|clock)\((?:[^()]|\([^()]*\))*\)\}\./g;
    expect("Última comprobación: {formatDateTime(status.checkedAt)}.".match(timeThenPeriod)).toHaveLength(1);
    expect("`Programada para el ${formatDateTime(new Date(at))}.`".match(timeThenPeriod)).toHaveLength(1);
    expect("{endSentence(`Última comprobación: ${formatDateTime(status.checkedAt)}`)}".match(timeThenPeriod)).toBeNull();
    const files = [...sourceFiles(path.join(appRoot, "app/routes")), ...sourceFiles(path.join(appRoot, "app/components")), ...sourceFiles(path.join(appRoot, "app/features")), ...sourceFiles(path.join(appRoot, "app/services"))];
    const found = files.flatMap((file) => [...readFileSync(file, "utf8").matchAll(timeThenPeriod)].map((match) => `${path.relative(appRoot, file)}: ${match[0]}`));
    expect(found).toEqual([]);
  });
});
