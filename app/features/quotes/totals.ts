// Quote arithmetic, shared by the builder in the browser (live totals) and the server (the truth).
//
// Rounding rule: each line's net amount is quantity × unit price × (1 − discount), rounded half up
// to the centavo; each line's IVA is 16 % of that net, rounded half up to the centavo; the quote's
// subtotal, IVA and total are the sums of the rounded line figures. All integer arithmetic (BigInt),
// so the browser and the server always agree to the centavo.

export const IVA_BP = 1600; // 16 % in basis points

export interface LineInput {
  quantityMilli: number;
  unitPriceCentavos: number;
  discountBp: number;
}

export interface LineAmounts {
  netCentavos: number;
  ivaCentavos: number;
}

export interface QuoteTotals {
  subtotalCentavos: number;
  ivaCentavos: number;
  totalCentavos: number;
}

/** n / d rounded half up, for non-negative n and positive d. */
function divideHalfUp(n: bigint, d: bigint): bigint {
  return (n * 2n + d) / (2n * d);
}

export function lineAmounts(line: LineInput): LineAmounts {
  const gross = BigInt(line.quantityMilli) * BigInt(line.unitPriceCentavos) * BigInt(10_000 - line.discountBp);
  const net = divideHalfUp(gross, 1_000n * 10_000n);
  const iva = divideHalfUp(net * BigInt(IVA_BP), 10_000n);
  return { netCentavos: Number(net), ivaCentavos: Number(iva) };
}

export function computeTotals(lines: LineInput[]): { lines: LineAmounts[]; totals: QuoteTotals } {
  const amounts = lines.map(lineAmounts);
  const subtotalCentavos = amounts.reduce((sum, line) => sum + line.netCentavos, 0);
  const ivaCentavos = amounts.reduce((sum, line) => sum + line.ivaCentavos, 0);
  return { lines: amounts, totals: { subtotalCentavos, ivaCentavos, totalCentavos: subtotalCentavos + ivaCentavos } };
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

export function formatDiscount(discountBp: number): string {
  return `${(discountBp / 100).toLocaleString("es-MX", { maximumFractionDigits: 2 })} %`;
}
