import type { CopyWarning, RichTextCopyBlock } from "~/lib/copy-check";
import type { SiteFacts } from "./business-facts";

// Business facts named inside editable text (docs/decisions/0087). A FAQ answer or a legal page
// that says "{horario_en_frase}" shows the hours of the published `ajustes` record when it is
// rendered, so a change of hours, address, e-mail or payment terms in Ajustes reaches every text
// that quotes them with no one editing those texts. A name the list does not know is left as typed.

export interface FactToken {
  /** Written between braces: {correo}. */
  name: string;
  /** What the editor's help says it shows. */
  label: string;
  value: (facts: SiteFacts) => string;
}

export const FACT_TOKENS: readonly FactToken[] = [
  { name: "nombre", label: "Nombre del negocio", value: (facts) => facts.name },
  { name: "razon_social", label: "Razón social", value: (facts) => facts.legalName },
  { name: "rfc", label: "RFC", value: (facts) => facts.rfc },
  { name: "domicilio", label: "Domicilio completo", value: (facts) => facts.address.formatted },
  { name: "localidad", label: "Localidad y estado", value: (facts) => facts.address.localityLine },
  { name: "horario", label: "Horario, al inicio de una frase («Lunes a viernes, 8:00 a 18:00»)", value: (facts) => facts.hours.label },
  { name: "horario_en_frase", label: "Horario a media frase («de lunes a viernes de 8:00 a 18:00»)", value: (facts) => facts.hours.inSentence },
  { name: "telefono", label: "Teléfono", value: (facts) => facts.phone.display },
  { name: "whatsapp", label: "WhatsApp", value: (facts) => facts.whatsapp.display },
  { name: "correo", label: "Correo de contacto", value: (facts) => facts.email },
  { name: "regla_de_pago", label: "Regla de pago (al confirmar y anticipo de series)", value: (facts) => facts.paymentTerms.rule },
  { name: "pago_al_confirmar", label: "Pago al confirmar", value: (facts) => facts.paymentTerms.onConfirmation },
  { name: "pago_series", label: "Pago de series", value: (facts) => facts.paymentTerms.series },
  { name: "anticipo", label: "Porcentaje de anticipo («50 %»)", value: (facts) => `${facts.paymentTerms.depositPercent} %` },
  { name: "credito", label: "Condiciones de crédito (vacío si no hay)", value: (facts) => facts.paymentTerms.credit },
];

const TOKEN = /\{([a-z_]{2,40})\}/g;
// With the space before it, so an empty fact (no credit) leaves no double space.
const SPACED_TOKEN = /( ?)\{([a-z_]{2,40})\}/g;

/** A function that writes the facts in place of the names it knows: what rich text rendering applies to every text. */
export function factTokenExpander(facts: SiteFacts): (text: string) => string {
  const values = new Map(FACT_TOKENS.map((token) => [token.name, token.value(facts)]));
  return (text) =>
    text.includes("{")
      ? text.replace(SPACED_TOKEN, (whole, space: string, name: string) => {
          const value = values.get(name);
          if (value === undefined) return whole;
          return value === "" ? "" : `${space}${value}`;
        })
      : text;
}

const KNOWN_NAMES = new Set(FACT_TOKENS.map((token) => token.name));

/** The names in `text` the list does not know, to warn the editor ("{horarios}" misspelt). */
export function unknownFactTokens(text: string): string[] {
  return [...new Set([...text.matchAll(TOKEN)].map((match) => match[1]!))].filter((name) => !KNOWN_NAMES.has(name));
}

/** The editor's warnings for a rich text, block by block: each name the list does not know, shown to visitors as typed. */
export function unknownFactWarnings(blocks: readonly RichTextCopyBlock[]): (CopyWarning & { block: number })[] {
  return blocks.flatMap((block, index) =>
    typeof block === "string"
      ? unknownFactTokens(block).map((name) => ({
          code: "dato-desconocido" as const,
          message: `{${name}} no es un dato de Ajustes y se mostrará tal cual; revise cómo se escribe en la lista «Datos del negocio que puede escribir».`,
          excerpt: `{${name}}`,
          block: index,
        }))
      : [],
  );
}
