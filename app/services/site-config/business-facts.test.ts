import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { faqGroups } from "~/features/site/content/faqs";
import { legalPages } from "~/features/site/content/legal";
import { ajustes } from "~/features/site/content-collections/ajustes";
import { factsFromAjustes } from "~/features/site/site-facts.server";
import { factTokenExpander, unknownFactTokens } from "./fact-tokens";
import { DEMO_CLABE } from "./payment-account";
import { paymentRule, quoteDefaults, siteConfig } from "./site-config";

// One source for business facts (docs/decisions/0033, 0047): the published `ajustes` record. Hours,
// phone numbers, the sales email, the RFC, the CLABE and the plant's address are written only in
// app/services/site-config, which seeds that record (and the editorial content quoting them) on an
// empty database; every page, email and the quote PDF read the record (getSiteFacts), and no module
// but the seed reads site-config. The /contact page once said 9:00 to 17:00 while the FAQ said 8:00
// to 18:00, and a quote's default terms asked every customer for a 50 % deposit while the FAQ said
// prototypes are paid on confirmation: this file fails on either. The FAQ and the legal pages name the
// facts ("{horario_en_frase}") and the page writes the published values in their place
// (docs/decisions/0087), so a change in Ajustes reaches them too.

/** A seeded text as a visitor reads it on a new site: the names replaced with the seed's facts. */
const asShown = factTokenExpander(factsFromAjustes(ajustes.seed()[0]!));

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const siteConfigDir = path.join(root, "app/services/site-config");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx)$/.test(entry.name) && !/\.(test|spec)\.tsx?$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => !file.startsWith(siteConfigDir + path.sep));
}

/** Every literal piece of text in a module (strings, template parts, JSX text), never comments. */
function literals(file: string): { where: string; text: string }[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const out: { where: string; text: string }[] = [];
  const add = (node: ts.Node, text: string) =>
    out.push({ where: `${path.relative(root, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`, text });
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isJsxText(node)) add(node, node.text);
    else if (ts.isTemplateExpression(node)) {
      add(node, node.head.text);
      for (const span of node.templateSpans) add(span, span.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

// A clock time from 1:00 to 23:59 ("8:00", "17:00"); not part of a longer time ("15:04:05" in a
// format description) and not midnight, which the staff pages use as a day boundary ("desde las 0:00").
const HOUR = /(?<![\d:])(?:0?[1-9]|1\d|2[0-3]):[0-5]\d(?![\d:])/;
const FACTS: { name: string; pattern: RegExp }[] = [
  { name: "hora", pattern: HOUR },
  { name: "correo de Forja", pattern: /[\w.+-]+@forja\.example/i },
  { name: "teléfono", pattern: /(?:\+?52[\s-]?)?442[\s-]?\d{3}[\s-]?\d{4}/ },
  { name: "RFC", pattern: new RegExp(siteConfig.rfc, "i") },
  { name: "CLABE", pattern: /(?<!\d)\d{18}(?!\d)|\d{3} \d{3} \d{11} \d/ },
  // The plant's street and locality (the checkout's pickup option and the catalogue once wrote
  // them), and its postal code as a number of its own.
  { name: "dirección", pattern: new RegExp([siteConfig.address.street, siteConfig.address.locality].map(escapeRegExp).join("|"), "i") },
  { name: "código postal", pattern: new RegExp(`(?<!\\d)${escapeRegExp(siteConfig.address.postalCode)}(?!\\d)`) },
];

/** The business facts written literally in a piece of text. */
function factsIn(text: string): string[] {
  return FACTS.filter(({ pattern }) => pattern.test(text)).map(({ name }) => name);
}

const scanned = [...sourceFiles(path.join(root, "app")), ...sourceFiles(path.join(root, "server"))];

describe("factsIn", () => {
  it("finds the literals that used to drift apart", () => {
    expect(factsIn("la ventanilla de embarques atiende de lunes a viernes de 9:00 a 17:00")).toEqual(["hora"]);
    expect(factsIn("escríbanos a ventas@forja.example")).toEqual(["correo de Forja"]);
    expect(factsIn("Llame al +52 442 000 0000")).toEqual(["teléfono"]);
    expect(factsIn(`CLABE ${DEMO_CLABE}`)).toEqual(["CLABE"]);
    expect(factsIn("CLABE 012 180 00123456789 9")).toEqual(["CLABE"]);
    expect(factsIn("Forja, RFC FDM150312AB1")).toEqual(["RFC"]);
    expect(factsIn("Recoger en planta: Santa Rosa Jáuregui, Querétaro. Sin costo.")).toEqual(["dirección"]);
    expect(factsIn("al recoger en planta (Parque Industrial Querétaro)")).toEqual(["dirección"]);
    expect(factsIn("El código postal tiene 5 dígitos, por ejemplo 76220.")).toEqual(["código postal"]);
  });

  it("leaves dates, long times, midnight and norms alone", () => {
    for (const text of ["2026-03-05T00:00:00Z", "2006-01-02 15:04:05.000Z", "Recibidos desde las 0:00", "ISO 9001:2015", "https://forja.example", "CP 762201", "Parque Industrial Benito Juárez"]) {
      expect(factsIn(text), text).toEqual([]);
    }
  });
});

/** Modules (not tests) that import site-config's demo data, the seed's source. */
function siteConfigReaders(): string[] {
  return scanned
    .filter((file) => /from "(?:~\/services\/site-config|\.)\/site-config"/.test(readFileSync(file, "utf8")))
    .map((file) => path.relative(root, file))
    .sort();
}

describe("business facts come from the ajustes record", () => {
  it("site-config's demo data is read only by the seeds: ajustes and the editorial content it quotes", () => {
    const readers = siteConfigReaders();
    expect(readers).toContain("app/features/site/content-collections/ajustes.ts");
    // The editorial seed modules (app/features/site/content/*) may quote the facts; nothing else.
    expect(readers.filter((file) => file !== "app/features/site/content-collections/ajustes.ts" && !file.startsWith("app/features/site/content/"))).toEqual([]);
  });

  it("no page, component, email, PDF or content module writes an hour, phone, email, RFC, CLABE or the address itself", () => {
    // The scan must reach the content, the pages, the emails and the PDF, or it proves nothing.
    for (const expected of ["app/features/orders/components/checkout-form.tsx", "app/routes/catalogo/catalogo.tsx", "app/features/site/content/faqs.ts", "app/features/site/content/legal.ts", "app/routes/site/contact.tsx", "app/features/quotes/quote-pdf.server.tsx", "app/features/quotes/quote-emails.server.ts", "app/features/orders/order-emails.server.ts"]) {
      expect(scanned.map((file) => path.relative(root, file)), expected).toContain(expected);
    }
    const found = scanned.flatMap(literals).flatMap(({ where, text }) => factsIn(text).map((fact) => `${where}: ${fact} en «${text.trim().slice(0, 120)}»`));
    expect(found).toEqual([]);
  });

  it("the FAQ and the legal terms name the plant hours instead of writing them, and read as the config's once shown", () => {
    const faqText = faqGroups.flatMap((group) => group.items.flatMap((item) => item.answer)).join("\n");
    const terms = legalPages.find((page) => page.slug === "terminos")!.body;
    for (const text of [faqText, terms]) {
      expect(text).toContain("{horario_en_frase}");
      expect(text.match(new RegExp(HOUR, "g"))).toBeNull();
      expect(asShown(text)).toContain(siteConfig.hours.inSentence);
    }
  });

  it("every name between braces in the seeded FAQ and legal pages is a fact of Ajustes", () => {
    const texts = [...faqGroups.flatMap((group) => group.items.flatMap((item) => item.answer)), ...legalPages.map((page) => page.body)];
    expect(texts.filter((text) => text.includes("{")).length).toBeGreaterThan(5);
    expect(texts.flatMap(unknownFactTokens)).toEqual([]);
    expect(texts.map(asShown).filter((text) => /\{[a-z_]+\}/.test(text))).toEqual([]);
  });
});

describe("one payment rule", () => {
  const faqAnswer = (question: string) => asShown(faqGroups.flatMap((group) => group.items).find((item) => item.question === question)!.answer.join(" "));
  const terms = asShown(legalPages.find((page) => page.slug === "terminos")!.body);
  const deposits = (text: string) => [...text.matchAll(/(\d+) ?% (?:de anticipo|restante)|anticipo del (\d+) ?%/g)].map((match) => Number(match[1] ?? match[2]));

  it("the FAQ «¿Piden anticipo?», the legal terms and a new quote's default terms state the same rule", () => {
    for (const [where, text] of [
      ["FAQ", faqAnswer("¿Piden anticipo?")],
      ["términos", terms],
      ["términos de la cotización", quoteDefaults.terms],
    ] as const) {
      expect(text, where).toContain(siteConfig.paymentTerms.onConfirmation);
      expect(text, where).toContain(siteConfig.paymentTerms.series);
      // No other split hides elsewhere in the same text.
      for (const percent of deposits(text)) expect([siteConfig.paymentTerms.depositPercent, 100 - siteConfig.paymentTerms.depositPercent], where).toContain(percent);
    }
    expect(quoteDefaults.terms).toContain(paymentRule());
  });

  it("the FAQ says where the bank details are, and that is where the pages put them (an accepted quote and the order confirmation)", () => {
    const answer = faqAnswer("¿Qué formas de pago aceptan?");
    expect(answer).toContain("acepta una cotización");
    expect(answer).toContain("confirmación del pedido");
    expect(answer).not.toMatch(/cada cotización/);
    expect(answer).toContain(siteConfig.email);
  });
});
