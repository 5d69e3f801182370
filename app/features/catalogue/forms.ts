import { z } from "~/lib/zod";

// The staff product form and the catalogue's wording rules, shared by the browser and the server.

export const PRODUCT_UNITS = ["pieza", "juego", "kit", "par", "metro", "kg", "lote"] as const;

export type ProductUnit = (typeof PRODUCT_UNITS)[number];
const UNIT_VALUES = [...PRODUCT_UNITS] as [ProductUnit, ...ProductUnit[]];

/** IVA rates a product may carry, in basis points: general 16 %, border region 8 %, tasa 0 %. */
export const IVA_RATES = [
  { value: 1600, label: "16 % (tasa general)" },
  { value: 800, label: "8 % (región fronteriza)" },
  { value: 0, label: "0 % (tasa cero)" },
] as const;

export { LOW_STOCK_THRESHOLD, stockStatus, type StockLevel } from "./stock";

/** "1,250.50", "$1250.5" or "1250" (pesos) → centavos; null when it is not an amount with at most 2 decimals. */
export function parsePesos(text: string): number | null {
  const clean = text.replace(/[\s,$]/g, "");
  if (!/^\d{1,8}(\.\d{1,2})?$/.test(clean)) return null;
  const [whole, fraction = ""] = clean.split(".");
  return Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
}

/** Centavos → "1250.50", the way the price field shows a stored price. */
export function pesosInput(centavos: number): string {
  return (centavos / 100).toFixed(2);
}

const text = (label: string, min: number, max: number) =>
  z
    .string({ error: `Escriba ${label}.` })
    .trim()
    .min(min, min > 1 ? `Escriba ${label} (al menos ${min} caracteres).` : `Escriba ${label}.`)
    .max(max, `Máximo ${max} caracteres.`);

const wholeNumber = (label: string, min: number, max: number) =>
  z
    .number({ error: `Escriba ${label} como número entero.` })
    .int(`Escriba ${label} como número entero.`)
    .min(min, `${label[0]!.toUpperCase()}${label.slice(1)} no puede ser menor que ${min}.`)
    .max(max, `${label[0]!.toUpperCase()}${label.slice(1)} no puede pasar de ${max.toLocaleString("es-MX")}.`);

export const ProductSchema = z.object({
  name: text("el nombre del producto", 3, 120),
  sku: z
    .string({ error: "Escriba el SKU, por ejemplo FOR-BRD-150." })
    .trim()
    .toUpperCase()
    .max(40, "Máximo 40 caracteres.")
    .regex(/^[A-Z0-9]+(?:-[A-Z0-9]+)*$/, "Use letras, números y guiones, por ejemplo FOR-BRD-150."),
  slug: z
    .string()
    .trim()
    .toLowerCase()
    .max(80, "Máximo 80 caracteres.")
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "Use minúsculas sin acentos, números y guiones, por ejemplo brida-slip-on-2-in.")
    .optional(),
  category: text("la categoría", 2, 60),
  shortDescription: text("la descripción corta", 10, 240),
  description: z.string().trim().max(20_000, "Máximo 20,000 caracteres.").optional().default(""),
  price: z
    .string({ error: "Escriba el precio neto en pesos, antes de IVA." })
    .transform((value, ctx) => {
      const centavos = parsePesos(value);
      if (centavos === null || centavos <= 0) {
        ctx.addIssue({ code: "custom", message: "Escriba un precio mayor que cero en pesos, con hasta dos decimales; por ejemplo 1250.50." });
        return z.NEVER;
      }
      return centavos;
    }),
  ivaBp: z
    .number({ error: "Elija la tasa de IVA." })
    .refine((value) => IVA_RATES.some((rate) => rate.value === value), "Elija la tasa de IVA."),
  unit: z.enum(UNIT_VALUES, { error: "Elija la unidad de venta." }),
  stock: wholeNumber("la existencia", 0, 1_000_000),
  minOrder: wholeNumber("el pedido mínimo", 1, 100_000),
  active: z.boolean().optional().default(false),
});

export type ProductInput = z.input<typeof ProductSchema>;

/** Above the product form when it comes back with marked fields. */
export const PRODUCT_NOT_SAVED = "No se guardó el producto: revise los campos marcados.";
export type ProductValues = z.output<typeof ProductSchema>;

export const ImageAltSchema = z.object({
  imageId: z.uuid({ error: "Imagen desconocida." }),
  alt: text("el texto alternativo", 3, 200),
});
