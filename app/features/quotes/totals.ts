import { lineAmounts, sumLines, type LineAmounts, type LineInput, type Totals } from "~/lib/money";
import { formatUnitQuantity } from "~/lib/units";

// Quote arithmetic, shared by the builder in the browser (live totals) and the server (the truth).
// The rounding rule is the one of ~/lib/money: each line's net and its 16 % IVA are rounded half up
// to the centavo; the quote's subtotal, IVA and total are the sums of the rounded line figures.

export { IVA_BP, lineAmounts } from "~/lib/money";
export type { LineAmounts, LineInput };
export type QuoteTotals = Totals;

/** The largest total a quote may reach: far beyond any real quote, well inside exact integers. */
export const MAX_TOTAL_CENTAVOS = 100_000_000_000_000; // $1,000,000,000,000.00

/**
 * Whether the lines' total stays within MAX_TOTAL_CENTAVOS. A line so large that its figures are no
 * longer exact integers is far above the limit anyway, so it is refused before anything is stored.
 */
export function withinTotalLimit(lines: LineInput[]): boolean {
  let total = 0n;
  for (const line of lines) {
    const amounts = lineAmounts(line);
    total += BigInt(amounts.netCentavos) + BigInt(amounts.ivaCentavos);
  }
  return total <= BigInt(MAX_TOTAL_CENTAVOS);
}

export function computeTotals(lines: LineInput[]): { lines: LineAmounts[]; totals: QuoteTotals } {
  const amounts = lines.map(lineAmounts);
  return { lines: amounts, totals: sumLines(amounts) };
}

/** "1,234.5" or "1234.50" (MXN) → centavos; null when it is not a price with at most 2 decimals. */
export function parseMoney(text: string): number | null {
  const clean = text.replace(/[\s,$]/g, "");
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(clean)) return null;
  const [whole, fraction = ""] = clean.split(".");
  return Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
}

/** "2" or "1.5" → thousandths; null when not a positive quantity with at most 3 decimals. */
export function parseQuantity(text: string): number | null {
  const clean = text.replace(/[\s,]/g, "");
  if (!/^\d{1,7}(\.\d{1,3})?$/.test(clean)) return null;
  const [whole, fraction = ""] = clean.split(".");
  const milli = Number(whole) * 1000 + Number(fraction.padEnd(3, "0"));
  return milli > 0 ? milli : null;
}

/** "7.5" (%) → 750 basis points; null when outside 0–100 or more than 2 decimals. */
export function parseDiscount(text: string): number | null {
  const clean = text.trim() === "" ? "0" : text.replace(/[\s%]/g, "");
  if (!/^\d{1,3}(\.\d{1,2})?$/.test(clean)) return null;
  const [whole, fraction = ""] = clean.split(".");
  const bp = Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
  return bp <= 10_000 ? bp : null;
}

export function formatQuantity(quantityMilli: number): string {
  return (quantityMilli / 1000).toLocaleString("es-MX", { maximumFractionDigits: 3 });
}

/** "1 pieza", "2.5 metros", "3 kg": a line's quantity (stored in thousandths) with its unit in the right number. */
export function formatLineQuantity(quantityMilli: number, unit: string): string {
  return formatUnitQuantity(quantityMilli / 1000, unit);
}

export function formatDiscount(discountBp: number): string {
  return `${(discountBp / 100).toLocaleString("es-MX", { maximumFractionDigits: 2 })} %`;
}
