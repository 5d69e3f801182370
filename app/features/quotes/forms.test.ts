import { describe, expect, it } from "vitest";
import { AcceptQuoteSchema, QUOTE_STATUSES, QuoteDraftSchema, QuoteMessageSchema, REJECTION_REASONS, RejectQuoteSchema, UNITS } from "./forms";

// The forms of the quote screens, as a browser posts them (every field a string).

const aLine = (overrides: Record<string, unknown> = {}) => ({
  description: "Brida de aluminio 6061, maquinada",
  quantity: "3",
  unit: "pieza",
  unitPrice: "33.33",
  discount: "7.5",
  ...overrides,
});

const aDraft = (overrides: Record<string, unknown> = {}) => ({
  intent: "guardar",
  customerName: "Ana Torres",
  customerEmail: "Ana.Torres@Ejemplo.MX ",
  customerCompany: "Metalmecánica del Bajío",
  lines: [aLine()],
  leadTimeDays: "10",
  validityDays: "30",
  terms: "Condiciones",
  notes: "",
  ...overrides,
});

/** Messages by dotted path, e.g. { "lines.0.unitPrice": ["…"] }. */
function issues(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }): Record<string, string[]> {
  expect(result.success).toBe(false);
  const byPath: Record<string, string[]> = {};
  for (const issue of result.error!.issues) (byPath[issue.path.join(".")] ??= []).push(issue.message);
  return byPath;
}

describe("QuoteDraftSchema", () => {
  it("converts the posted strings to centavos, thousandths and basis points", () => {
    const parsed = QuoteDraftSchema.parse(
      aDraft({
        lines: [aLine(), aLine({ description: "Solera de acero 1018", quantity: "1.5", unit: "metro", unitPrice: "$1,234.50", discount: "" }), aLine({ description: "Servicio", discount: undefined })],
      }),
    );
    expect(parsed.lines).toEqual([
      { description: "Brida de aluminio 6061, maquinada", quantity: 3_000, unit: "pieza", unitPrice: 3_333, discount: 750 },
      { description: "Solera de acero 1018", quantity: 1_500, unit: "metro", unitPrice: 123_450, discount: 0 },
      { description: "Servicio", quantity: 3_000, unit: "pieza", unitPrice: 3_333, discount: 0 },
    ]);
    expect(parsed).toMatchObject({ intent: "guardar", customerEmail: "ana.torres@ejemplo.mx", leadTimeDays: 10, validityDays: 30 });
  });

  it("defaults the intent and empty terms/notes; without a validity the revision keeps its own (a new quote's is the ajustes record's)", () => {
    const { intent: _intent, validityDays: _validity, terms: _terms, notes: _notes, ...rest } = aDraft();
    const parsed = QuoteDraftSchema.parse(rest);
    expect(parsed).toMatchObject({ intent: "guardar", terms: "", notes: "" });
    expect(parsed.validityDays).toBeUndefined();
    expect(QuoteDraftSchema.parse({ ...rest, validityDays: "45" }).validityDays).toBe(45);
  });

  it("drops any total the client sends: totals are the server's job", () => {
    const parsed = QuoteDraftSchema.parse({ ...aDraft({ lines: [aLine({ netCentavos: 1, ivaCentavos: 1 })] }), totalCentavos: 1, subtotalCentavos: 1 });
    expect(parsed).not.toHaveProperty("totalCentavos");
    expect(parsed).not.toHaveProperty("subtotalCentavos");
    expect(parsed.lines[0]).not.toHaveProperty("netCentavos");
  });

  it("explains a bad price, quantity and discount in Spanish, on the field of the line", () => {
    const byPath = issues(
      QuoteDraftSchema.safeParse(
        aDraft({ lines: [aLine(), aLine({ unitPrice: "1.234", quantity: "0", discount: "101" }), aLine({ unitPrice: "-1", quantity: "1.2345", discount: "-1" })] }),
      ),
    );
    expect(byPath["lines.1.unitPrice"]).toEqual(["Escriba un precio en pesos con hasta dos decimales, por ejemplo 1250.50."]);
    expect(byPath["lines.1.quantity"]).toEqual(["Escriba una cantidad mayor que cero, con hasta tres decimales."]);
    expect(byPath["lines.1.discount"]).toEqual(["El descuento va de 0 a 100 %, con hasta dos decimales."]);
    expect(byPath["lines.2.unitPrice"]).toHaveLength(1);
    expect(byPath["lines.2.quantity"]).toHaveLength(1);
    expect(byPath["lines.2.discount"]).toHaveLength(1);
    expect(Object.keys(byPath).some((path) => path.startsWith("lines.0"))).toBe(false);
  });

  it("asks for the missing parts of a line", () => {
    const byPath = issues(QuoteDraftSchema.safeParse(aDraft({ lines: [{ description: " x ", unit: "tonelada" }] })));
    expect(byPath["lines.0.description"]).toEqual(["Describa la partida."]);
    expect(byPath["lines.0.quantity"]).toEqual(["Escriba la cantidad."]);
    expect(byPath["lines.0.unitPrice"]).toEqual(["Escriba el precio unitario."]);
    expect(byPath["lines.0.unit"]).toEqual(["Elija una unidad."]);
  });

  it("accepts every unit of the list", () => {
    for (const unit of UNITS) expect(QuoteDraftSchema.safeParse(aDraft({ lines: [aLine({ unit })] })).success).toBe(true);
  });

  it("requires at least one line (and at most 100)", () => {
    expect(issues(QuoteDraftSchema.safeParse(aDraft({ lines: [] })))["lines"]).toEqual(["Agregue al menos una partida."]);
    expect(issues(QuoteDraftSchema.safeParse(aDraft({ lines: undefined })))["lines"]).toEqual(["Agregue al menos una partida."]);
    expect(issues(QuoteDraftSchema.safeParse(aDraft({ lines: Array.from({ length: 101 }, () => aLine()) })))["lines"]).toEqual(["Máximo 100 partidas."]);
  });

  it("checks the customer, lead time and validity with Spanish messages", () => {
    const byPath = issues(QuoteDraftSchema.safeParse(aDraft({ customerName: " ", customerEmail: "no-es-correo", leadTimeDays: "0", validityDays: "181" })));
    expect(byPath.customerName).toEqual(["Escriba el nombre del cliente."]);
    expect(byPath.customerEmail).toEqual(["Escriba un correo válido."]);
    expect(byPath.leadTimeDays).toEqual(["El plazo debe ser de al menos 1 día hábil."]);
    expect(byPath.validityDays).toEqual(["La vigencia máxima es 180 días."]);
    expect(issues(QuoteDraftSchema.safeParse(aDraft({ leadTimeDays: "2.5" }))).leadTimeDays).toEqual(["El plazo es un número entero de días hábiles."]);
    expect(issues(QuoteDraftSchema.safeParse(aDraft({ validityDays: "0" }))).validityDays).toEqual(["La vigencia mínima es 1 día."]);
    expect(issues(QuoteDraftSchema.safeParse(aDraft({ intent: "aceptar" }))).intent).toHaveLength(1);
  });
});

describe("AcceptQuoteSchema", () => {
  it("accepts a full name of at least 5 characters and the ticked terms", () => {
    expect(AcceptQuoteSchema.parse({ intent: "aceptar", fullName: "  Ana Torres ", terms: "on" })).toEqual({ intent: "aceptar", fullName: "Ana Torres", terms: "on" });
    expect(AcceptQuoteSchema.safeParse({ intent: "aceptar", fullName: "Ana T", terms: "on" }).success).toBe(true);
  });

  it("refuses a short or missing name and unticked terms, in Spanish", () => {
    expect(issues(AcceptQuoteSchema.safeParse({ intent: "aceptar", fullName: " Ana  ", terms: "on" })).fullName).toEqual(["Escriba su nombre completo como firma."]);
    expect(issues(AcceptQuoteSchema.safeParse({ intent: "aceptar", terms: "on" })).fullName).toEqual(["Escriba su nombre completo como firma."]);
    expect(issues(AcceptQuoteSchema.safeParse({ intent: "aceptar", fullName: "Ana Torres" })).terms).toEqual(["Para aceptar debe confirmar que leyó las condiciones."]);
    expect(issues(AcceptQuoteSchema.safeParse({ intent: "aceptar", fullName: "Ana Torres", terms: "off" })).terms).toEqual([
      "Para aceptar debe confirmar que leyó las condiciones.",
    ]);
    expect(AcceptQuoteSchema.safeParse({ intent: "rechazar", fullName: "Ana Torres", terms: "on" }).success).toBe(false);
  });
});

describe("RejectQuoteSchema", () => {
  it("accepts each reason of the list, with an optional note", () => {
    for (const { value } of REJECTION_REASONS) {
      expect(RejectQuoteSchema.parse({ intent: "rechazar", reason: value, note: " Gracias " })).toEqual({ intent: "rechazar", reason: value, note: "Gracias" });
    }
    expect(RejectQuoteSchema.parse({ intent: "rechazar", reason: "precio" })).toEqual({ intent: "rechazar", reason: "precio" });
  });

  it("has Spanish labels for every reason and six distinct values", () => {
    expect(new Set(REJECTION_REASONS.map((reason) => reason.value)).size).toBe(REJECTION_REASONS.length);
    expect(REJECTION_REASONS.find((reason) => reason.value === "precio")?.label).toBe("El precio está fuera de nuestro presupuesto");
    expect(REJECTION_REASONS.find((reason) => reason.value === "otro")?.label).toBe("Otro motivo");
  });

  it("refuses an unknown or missing reason and a note over 2,000 characters", () => {
    expect(issues(RejectQuoteSchema.safeParse({ intent: "rechazar", reason: "capricho" })).reason).toEqual(["Elija un motivo."]);
    expect(issues(RejectQuoteSchema.safeParse({ intent: "rechazar" })).reason).toEqual(["Elija un motivo."]);
    expect(issues(RejectQuoteSchema.safeParse({ intent: "rechazar", reason: "otro", note: "x".repeat(2_001) })).note).toEqual(["Máximo 2,000 caracteres."]);
  });
});

describe("QuoteMessageSchema and the status list", () => {
  it("needs a message of at least 2 characters", () => {
    expect(QuoteMessageSchema.parse({ intent: "mensaje", body: "  ¿Incluye el envío?  " }).body).toBe("¿Incluye el envío?");
    expect(issues(QuoteMessageSchema.safeParse({ intent: "mensaje", body: " a " })).body).toEqual(["Escriba su mensaje."]);
    expect(issues(QuoteMessageSchema.safeParse({ intent: "mensaje" })).body).toEqual(["Escriba su mensaje."]);
  });

  it("labels every status in Spanish", () => {
    expect(QUOTE_STATUSES.map((status) => status.value)).toEqual(["borrador", "enviada", "aceptada", "rechazada", "vencida", "cancelada"]);
    for (const status of QUOTE_STATUSES) expect(status.label).toMatch(/^[A-ZÁÉÍÓÚ][a-záéíóúñ]+$/);
  });
});
