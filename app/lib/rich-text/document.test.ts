import { describe, expect, it } from "vitest";
import { emptyRichText, RICH_TEXT_LIMITS, RichTextSchema, validateRichText, type RichTextNode } from "./document";
import { plainText } from "./plain-text";

const text = (value: string, format = 0): RichTextNode => ({ type: "text", text: value, format, detail: 0, mode: "normal", style: "", version: 1 });
const paragraph = (...children: RichTextNode[]): RichTextNode => ({ type: "paragraph", children, version: 1 });
const doc = (...children: RichTextNode[]) => ({ root: { type: "root" as const, children, version: 1 } });

describe("validateRichText", () => {
  it("accepts the editor's JSON string and the parsed object", () => {
    const value = doc(paragraph(text("Hola")));
    expect(validateRichText(JSON.stringify(value))).toEqual({ success: true, data: value });
    expect(validateRichText(value)).toEqual({ success: true, data: value });
  });

  it("reads an empty string as an empty document", () => {
    expect(validateRichText("")).toEqual({ success: true, data: emptyRichText() });
  });

  it.each([
    ["text that is not JSON", "{no es json"],
    ["JSON that is not a document", JSON.stringify({ hola: 1 })],
    ["a root of another type", JSON.stringify({ root: { type: "paragraph", children: [] } })],
    ["a node without a type", JSON.stringify(doc({ children: [] } as unknown as RichTextNode))],
    ["children that are not a list", JSON.stringify(doc({ type: "paragraph", children: "x" } as unknown as RichTextNode))],
    ["a text that is not a string", JSON.stringify(doc(paragraph({ type: "text", text: 5 } as unknown as RichTextNode)))],
    ["a second root inside", JSON.stringify(doc({ type: "root", children: [] }))],
    ["a number", 42],
    ["null", null],
  ])("refuses %s with a Spanish message", (_name, value) => {
    const result = validateRichText(value);
    expect(result.success).toBe(false);
    if (!result.success) expect(result.error).toBe("El texto con formato no es válido; vuelva a abrirlo en el editor.");
  });

  it("refuses a document nested deeper than the limit", () => {
    let node: RichTextNode = text("fondo");
    for (let level = 0; level < RICH_TEXT_LIMITS.depth + 5; level += 1) node = { type: "list", children: [{ type: "listitem", children: [node] }] };
    const result = validateRichText(doc(node));
    expect(result).toEqual({ success: false, error: `El texto tiene demasiados niveles anidados (máximo ${RICH_TEXT_LIMITS.depth}).` });
  });

  it("refuses a very deep object without overflowing the stack", () => {
    let node: RichTextNode = text("fondo");
    for (let level = 0; level < 100_000; level += 1) node = { type: "quote", children: [node] };
    expect(validateRichText(doc(node)).success).toBe(false);
  });

  it("refuses too many nodes and too many characters", () => {
    const many = doc(...Array.from({ length: RICH_TEXT_LIMITS.nodes + 1 }, () => paragraph()));
    expect(validateRichText(many)).toEqual({ success: false, error: "El texto tiene demasiados elementos (máximo 20,000)." });
    const long = JSON.stringify(doc(paragraph(text("a".repeat(RICH_TEXT_LIMITS.characters)))));
    expect(validateRichText(long)).toEqual({ success: false, error: "El texto es demasiado largo (máximo 500,000 caracteres con su formato)." });
    expect(validateRichText(JSON.parse(long))).toEqual({ success: false, error: "El texto es demasiado largo (máximo 500,000 caracteres con su formato)." });
  });

  it("is a zod schema forms can embed", () => {
    expect(RichTextSchema.safeParse("[]").success).toBe(false);
    expect(RichTextSchema.parse(JSON.stringify(doc()))).toEqual(doc());
  });
});

describe("plainText", () => {
  it("gives one block per line, without formatting", () => {
    const value = doc(
      { type: "heading", tag: "h2", children: [text("Servicios")] },
      paragraph(text("Piezas en "), text("aluminio", 1), { type: "linebreak" }, { type: "link", url: "/cotiza", children: [text("cotice aquí")] }),
      { type: "list", listType: "bullet", children: [{ type: "listitem", children: [text("uno")] }, { type: "listitem", children: [{ type: "list", children: [{ type: "listitem", children: [text("dos")] }] }] }] },
      paragraph(),
      { type: "table", children: [{ type: "tablerow", children: [{ type: "tablecell", children: [paragraph(text("Material"))] }, { type: "tablecell", children: [paragraph(text("Plazo"))] }] }] },
      paragraph({ type: "image", mediaId: "m1", alt: "Pieza" }, text("  con   espacios ")),
    );
    expect(plainText(value)).toBe("Servicios\nPiezas en aluminio\ncotice aquí\nuno\ndos\nMaterial\tPlazo\ncon espacios");
  });

  it("is empty for nothing", () => {
    expect(plainText(null)).toBe("");
    expect(plainText(emptyRichText())).toBe("");
  });
});
