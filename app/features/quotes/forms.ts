import { z } from "~/lib/zod";
import { parseDiscount, parseMoney, parseQuantity, withinTotalLimit } from "./totals";

// Forms of the quote screens, shared by the browser and the server.

export const QUOTE_STATUSES = [
  { value: "borrador", label: "Borrador" },
  { value: "enviada", label: "Enviada" },
  { value: "aceptada", label: "Aceptada" },
  { value: "rechazada", label: "Rechazada" },
  { value: "vencida", label: "Vencida" },
  { value: "cancelada", label: "Cancelada" },
] as const;

export const REJECTION_REASONS = [
  { value: "precio", label: "El precio está fuera de nuestro presupuesto" },
  { value: "plazo", label: "El plazo de entrega no nos funciona" },
  { value: "otro-proveedor", label: "Elegimos otro proveedor" },
  { value: "proyecto-cancelado", label: "El proyecto se canceló o pospuso" },
  { value: "especificacion", label: "La especificación cambió" },
  { value: "otro", label: "Otro motivo" },
] as const;

export const UNITS = ["pieza", "juego", "lote", "metro", "kg", "hora", "servicio"] as const;

const money = z
  .string({ error: "Escriba el precio unitario." })
  .transform((value, ctx) => {
    const centavos = parseMoney(value);
    if (centavos === null) ctx.addIssue({ code: "custom", message: "Escriba un precio en pesos con hasta dos decimales, por ejemplo 1250.50." });
    return centavos ?? 0;
  });

const quantity = z
  .string({ error: "Escriba la cantidad." })
  .transform((value, ctx) => {
    const milli = parseQuantity(value);
    if (milli === null) ctx.addIssue({ code: "custom", message: "Escriba una cantidad mayor que cero, con hasta tres decimales." });
    return milli ?? 0;
  });

const discount = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const bp = parseDiscount(value ?? "");
    if (bp === null) ctx.addIssue({ code: "custom", message: "El descuento va de 0 a 100 %, con hasta dos decimales." });
    return bp ?? 0;
  });

export const QuoteLineSchema = z.object({
  description: z.string({ error: "Describa la partida." }).trim().min(2, "Describa la partida.").max(500, "Máximo 500 caracteres."),
  quantity,
  unit: z.enum(UNITS, { error: "Elija una unidad." }),
  unitPrice: money,
  discount,
});

export const QuoteDraftSchema = z.object({
  intent: z.enum(["guardar", "enviar"]).default("guardar"),
  customerName: z.string({ error: "Escriba el nombre del cliente." }).trim().min(2, "Escriba el nombre del cliente.").max(120),
  customerEmail: z
    .string({ error: "Escriba el correo del cliente." })
    .trim()
    .toLowerCase()
    .pipe(z.email({ error: "Escriba un correo válido." })),
  customerCompany: z.string().trim().max(160).optional(),
  lines: z
    .array(QuoteLineSchema, { error: "Agregue al menos una partida." })
    .min(1, "Agregue al menos una partida.")
    .max(100, "Máximo 100 partidas.")
    .refine(
      (lines) => withinTotalLimit(lines.map((line) => ({ quantityMilli: line.quantity, unitPriceCentavos: line.unitPrice, discountBp: line.discount }))),
      "El total pasa del máximo de $1,000,000,000,000.00; divida la cotización.",
    ),
  leadTimeDays: z.coerce
    .number({ error: "Escriba el plazo de entrega en días hábiles." })
    .int("El plazo es un número entero de días hábiles.")
    .min(1, "El plazo debe ser de al menos 1 día hábil.")
    .max(365, "Máximo 365 días hábiles."),
  validityDays: z.coerce.number({ error: "Escriba la vigencia en días." }).int().min(1, "La vigencia mínima es 1 día.").max(180, "La vigencia máxima es 180 días.").optional(),
  terms: z.string().trim().max(5000, "Máximo 5,000 caracteres.").default(""),
  notes: z.string().trim().max(5000, "Máximo 5,000 caracteres.").default(""),
});

export const AcceptQuoteSchema = z.object({
  intent: z.literal("aceptar"),
  fullName: z.string({ error: "Escriba su nombre completo como firma." }).trim().min(5, "Escriba su nombre completo como firma.").max(120),
  terms: z.literal("on", { error: "Para aceptar debe confirmar que leyó las condiciones." }),
  /** The revision shown when the customer signed; a newer one sent meanwhile must be read first. */
  revision: z.coerce.number().int().positive().optional(),
});

export const RejectQuoteSchema = z.object({
  intent: z.literal("rechazar"),
  revision: z.coerce.number().int().positive().optional(),
  reason: z.enum(REJECTION_REASONS.map((reason) => reason.value) as [string, ...string[]], { error: "Elija un motivo." }),
  note: z.string().trim().max(2000, "Máximo 2,000 caracteres.").optional(),
});

export const QuoteMessageSchema = z.object({
  intent: z.literal("mensaje"),
  body: z.string({ error: "Escriba su mensaje." }).trim().min(2, "Escriba su mensaje.").max(5000, "Máximo 5,000 caracteres."),
});

export type QuoteDraftInput = z.infer<typeof QuoteDraftSchema>;
