import { describe, expect, it } from "vitest";
import { ajustes } from "~/features/site/content-collections/ajustes";
import { factsFromAjustes } from "~/features/site/site-facts.server";
import { FACT_TOKENS, factTokenExpander, unknownFactTokens, unknownFactWarnings } from "./fact-tokens";

const seed = ajustes.seed()[0]!;
const facts = factsFromAjustes(seed);

describe("factTokenExpander", () => {
  const expand = factTokenExpander(facts);

  it("writes each fact in place of its name", () => {
    expect(expand("Recoja su pedido {horario_en_frase} en {domicilio}.")).toBe(`Recoja su pedido ${facts.hours.inSentence} en ${facts.address.formatted}.`);
    expect(expand("{razon_social}, RFC {rfc}; escríbanos a {correo} o llame al {telefono}.")).toBe(
      `${facts.legalName}, RFC ${facts.rfc}; escríbanos a ${facts.email} o llame al ${facts.phone.display}.`,
    );
    expect(expand("Anticipo del {anticipo}.")).toBe(`Anticipo del ${seed.anticipo_porcentaje} %.`);
  });

  it("knows a value for every name it lists, and names are unique", () => {
    const names = FACT_TOKENS.map((token) => token.name);
    expect(new Set(names).size).toBe(names.length);
    for (const token of FACT_TOKENS.filter((one) => one.name !== "credito")) expect(expand(`{${token.name}}`), token.name).not.toBe("");
  });

  it("leaves a name it does not know, and text without braces, as typed", () => {
    expect(expand("Abrimos {horarios} y {Correo}; {x}")).toBe("Abrimos {horarios} y {Correo}; {x}");
    expect(expand("Sin datos.")).toBe("Sin datos.");
  });

  it("an empty fact (a business without credit) takes the space before it along, leaving no double space", () => {
    const withoutCredit = factTokenExpander({ ...facts, paymentTerms: { ...facts.paymentTerms, credit: "" } });
    expect(withoutCredit("{regla_de_pago} {credito}")).toBe(facts.paymentTerms.rule);
    expect(withoutCredit("Pague así. {credito} Gracias.")).toBe("Pague así. Gracias.");
  });

  it("follows the facts it was given: another hour, another text", () => {
    const changed = factsFromAjustes({ ...seed, horario_en_frase: "de lunes a sábado de 7:00 a 15:00" });
    expect(factTokenExpander(changed)("Recoja {horario_en_frase}.")).toBe("Recoja de lunes a sábado de 7:00 a 15:00.");
  });
});

describe("unknownFactTokens", () => {
  it("lists the names between braces that are not facts, once each", () => {
    expect(unknownFactTokens("{correo} {horarios} {horarios} {domicilio} {telefono_fijo}")).toEqual(["horarios", "telefono_fijo"]);
    expect(unknownFactTokens("Llaves sueltas { } y {Mayúsculas} no son nombres.")).toEqual([]);
  });
});

describe("unknownFactWarnings", () => {
  it("warns the editor about a name Ajustes does not have, block by block, and not about the ones it has", () => {
    const warnings = unknownFactWarnings(["Recoja {horario_en_frase} en {domicilio}.", { alt: "{corre}" }, "Escriba a {corre} o a {correo}."]);
    expect(warnings.map(({ block, code, excerpt }) => [block, code, excerpt])).toEqual([[2, "dato-desconocido", "{corre}"]]);
    expect(warnings[0]!.message).toContain("no es un dato de Ajustes");
  });
});
