import { describe, expect, it } from "vitest";
import type { ContentField } from "./collection";
import { diffContent, diffSequence, sentences } from "./diff";

// The history's differences: sentence by sentence for text, block by block for rich text, item by
// item for lists, before and after for everything else.

const paragraph = (text: string) => ({ type: "paragraph", version: 1, children: [{ type: "text", version: 1, text, format: 0 }] });
const doc = (...children: object[]) => ({ root: { type: "root", version: 1, children } });

const fields: ContentField[] = [
  { name: "cuerpo", label: "Texto", kind: "richtext" },
  { name: "resumen", label: "Resumen", kind: "textarea" },
  { name: "capacidades", label: "Capacidades", kind: "list" },
  { name: "orden", label: "Orden", kind: "number" },
];

describe("sentences", () => {
  it("splits a text into its sentences, paragraph by paragraph", () => {
    expect(sentences("Cortamos acero. ¿Qué espesor? Hasta 25 mm…\nSegundo párrafo sin punto")).toEqual(["Cortamos acero.", "¿Qué espesor?", "Hasta 25 mm…", "Segundo párrafo sin punto"]);
    expect(sentences("")).toEqual([]);
  });
});

describe("diffSequence", () => {
  it("keeps what both share and shows each change as removed then added", () => {
    expect(diffSequence(["a", "b", "c"], ["a", "x", "c", "d"])).toEqual([
      { op: "same", text: "a" },
      { op: "removed", text: "b" },
      { op: "added", text: "x" },
      { op: "same", text: "c" },
      { op: "added", text: "d" },
    ]);
  });
});

describe("diffContent", () => {
  it("shows the one changed sentence of a long text, not the whole text twice", () => {
    const before = { resumen: "Uno. Dos. Tres. Cuatro." };
    const after = { resumen: "Uno. Dos y medio. Tres. Cuatro." };
    expect(diffContent(fields, before, after)).toEqual([
      {
        field: "resumen",
        label: "Resumen",
        kind: "text",
        parts: [
          { op: "same", text: "Uno." },
          { op: "removed", text: "Dos." },
          { op: "added", text: "Dos y medio." },
          { op: "same", text: "Tres." },
          { op: "same", text: "Cuatro." },
        ],
      },
    ]);
  });

  it("compares rich text by the plain text of its blocks, ignoring formatting-only node changes", () => {
    const before = { cuerpo: doc(paragraph("Entregamos en todo México. Enviamos por paquetería."), { type: "list", children: [{ type: "listitem", children: [{ type: "text", text: "Acero" }] }] }) };
    const after = {
      cuerpo: doc(paragraph("Entregamos en todo México. Enviamos por flete."), { type: "list", children: [{ type: "listitem", children: [{ type: "text", text: "Acero", format: 1 }] }] }),
    };
    expect(diffContent(fields, before, after)).toEqual([
      {
        field: "cuerpo",
        label: "Texto",
        kind: "text",
        parts: [
          { op: "same", text: "Entregamos en todo México." },
          { op: "removed", text: "Enviamos por paquetería." },
          { op: "added", text: "Enviamos por flete." },
          { op: "same", text: "Acero" },
        ],
      },
    ]);
  });

  it("compares lists item by item and other values as before and after; unchanged fields are left out", () => {
    const diff = diffContent(fields, { capacidades: ["Corte", "Doblez"], orden: 1, resumen: "Igual." }, { capacidades: ["Corte", "Soldadura"], orden: 2, resumen: "Igual." });
    expect(diff).toEqual([
      { field: "capacidades", label: "Capacidades", kind: "text", parts: [{ op: "same", text: "Corte" }, { op: "removed", text: "Doblez" }, { op: "added", text: "Soldadura" }] },
      { field: "orden", label: "Orden", kind: "value", before: 1, after: 2 },
    ]);
  });
});

describe("diffContent and stored data", () => {
  it("sees no change in a record that comes back from the database with its keys reordered", () => {
    const before = { cuerpo: doc(paragraph("Cortamos acero.")), resumen: "Corte láser.", capacidades: ["Láser"], orden: 1 };
    const reordered = {
      orden: 1,
      capacidades: ["Láser"],
      resumen: "Corte láser.",
      cuerpo: { root: { children: [{ children: [{ format: 0, text: "Cortamos acero.", version: 1, type: "text" }], version: 1, type: "paragraph" }], version: 1, type: "root" } },
    };
    expect(diffContent(fields, before, reordered)).toEqual([]);
  });
});
