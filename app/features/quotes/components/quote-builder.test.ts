import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { builderDefaults, QuoteBuilderSchema } from "./quote-builder";

function form(fields: Record<string, string>, intent?: { type: string; payload: unknown }): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  if (intent) data.append("__intent__", JSON.stringify(intent));
  return data;
}

const base = {
  customerName: "Ana Torres",
  customerEmail: "Ana@Ejemplo.MX",
  "lines[0].description": "Soporte maquinado",
  "lines[0].quantity": "3",
  "lines[0].unit": "pieza",
  "lines[0].unitPrice": "33.33",
  "lines[0].discount": "7.5",
  "lines[1].description": "Tratamiento térmico",
  "lines[1].quantity": "1",
  "lines[1].unit": "lote",
  "lines[1].unitPrice": "1,250.50",
  "lines[1].discount": "",
  leadTimeDays: "10",
  validityDays: "30",
};

describe("QuoteBuilderSchema", () => {
  it("turns the typed text into centavos, thousandths and basis points", () => {
    const parsed = parseWithZod(form({ ...base, intent: "previa" }), { schema: QuoteBuilderSchema });
    expect(parsed.status).toBe("success");
    if (parsed.status !== "success") return;
    expect(parsed.value.intent).toBe("previa");
    expect(parsed.value.customerEmail).toBe("ana@ejemplo.mx");
    expect(parsed.value.lines).toEqual([
      { description: "Soporte maquinado", quantity: 3000, unit: "pieza", unitPrice: 3333, discount: 750 },
      { description: "Tratamiento térmico", quantity: 1000, unit: "lote", unitPrice: 125050, discount: 0 },
    ]);
  });

  it("saves a draft with a zero price but refuses to send it, with every error at once", () => {
    const fields = { ...base, customerEmail: "no-es-correo", "lines[0].unitPrice": "0", "lines[1].unitPrice": "" };
    const draft = parseWithZod(form({ ...fields, customerEmail: "ana@ejemplo.mx", "lines[1].unitPrice": "10", intent: "guardar" }), { schema: QuoteBuilderSchema });
    expect(draft.status).toBe("success");
    const send = parseWithZod(form({ ...fields, intent: "enviar" }), { schema: QuoteBuilderSchema });
    expect(send.status).toBe("error");
    expect(send.reply().error).toEqual({
      customerEmail: ["Escriba un correo válido."],
      "lines[0].unitPrice": ["Para enviar, el precio unitario debe ser mayor que cero."],
      "lines[1].unitPrice": ["Escriba el precio unitario."],
    });
  });

  it("applies a line button posted without JavaScript to the values, without a success", () => {
    const moved = parseWithZod(form(base, { type: "reorder", payload: { name: "lines", from: 1, to: 0 } }), { schema: QuoteBuilderSchema });
    expect(moved.status).toBeUndefined();
    const reply = moved.reply();
    const lines = (reply.initialValue as { lines: { description: string }[] }).lines;
    expect(lines.map((line) => line.description)).toEqual(["Tratamiento térmico", "Soporte maquinado"]);
    expect(reply.initialValue).toMatchObject({ customerName: "Ana Torres" });

    const removed = parseWithZod(form(base, { type: "remove", payload: { name: "lines", index: 0 } }), { schema: QuoteBuilderSchema });
    expect((removed.reply().initialValue as { lines: unknown[] }).lines).toHaveLength(1);
  });
});

describe("builderDefaults", () => {
  it("writes stored amounts back as plain text the parsers read again", () => {
    const defaults = builderDefaults(
      { customerName: "Ana", customerEmail: "ana@ejemplo.mx", customerCompany: null },
      {
        lines: [{ description: "Placa", quantityMilli: 1500, unit: "metro", unitPriceCentavos: 125050, discountBp: 750, netCentavos: 0, ivaCentavos: 0 }],
        leadTimeDays: 8,
        validityDays: 30,
        terms: "Condiciones",
        notes: "",
      },
    );
    expect(defaults).toMatchObject({
      customerCompany: "",
      lines: [{ description: "Placa", quantity: "1.5", unit: "metro", unitPrice: "1250.50", discount: "7.5" }],
      leadTimeDays: "8",
      validityDays: "30",
    });
  });
});
