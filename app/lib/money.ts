// Money arithmetic in integer centavos (BigInt inside), shared by quotes, the catalogue and orders,
// in the browser and on the server.
//
// Rounding rule: a line's net amount is quantity × unit price × (1 − discount), rounded half up to
// the centavo; its IVA is the rate applied to that net, rounded half up to the centavo; totals are
// the sums of the rounded line figures.

export const IVA_BP = 1600; // 16 % in basis points

/** n / d rounded half up, for non-negative n and positive d. */
export function divideHalfUp(n: bigint, d: bigint): bigint {
  return (n * 2n + d) / (2n * d);
}

export interface LineInput {
  /** Quantity in thousandths (2 pieces → 2000; 1.5 m → 1500). */
  quantityMilli: number;
  unitPriceCentavos: number;
  /** Discount in basis points (750 = 7.5 %). */
  discountBp?: number;
  /** IVA rate in basis points; 16 % unless given. */
  ivaBp?: number;
}

export interface LineAmounts {
  netCentavos: number;
  ivaCentavos: number;
}

export function lineAmounts(line: LineInput): LineAmounts {
  const gross = BigInt(line.quantityMilli) * BigInt(line.unitPriceCentavos) * BigInt(10_000 - (line.discountBp ?? 0));
  const net = divideHalfUp(gross, 1_000n * 10_000n);
  const iva = divideHalfUp(net * BigInt(line.ivaBp ?? IVA_BP), 10_000n);
  return { netCentavos: Number(net), ivaCentavos: Number(iva) };
}

export interface Totals {
  subtotalCentavos: number;
  ivaCentavos: number;
  totalCentavos: number;
}

export function sumLines(amounts: LineAmounts[]): Totals {
  const subtotalCentavos = amounts.reduce((sum, line) => sum + line.netCentavos, 0);
  const ivaCentavos = amounts.reduce((sum, line) => sum + line.ivaCentavos, 0);
  return { subtotalCentavos, ivaCentavos, totalCentavos: subtotalCentavos + ivaCentavos };
}

/**
 * A line sold at a price that includes IVA (the catalogue, docs/decisions/0028): the shown unit
 * price is the contract, so the line's total is exactly quantity × that price; its net is the
 * total divided by (1 + rate), rounded half up to the centavo, and its IVA is what remains (so net
 * plus IVA is always the total, and the IVA is within one centavo of the rate applied to the net).
 */
export function grossLineAmounts(line: { quantity: number; unitPriceWithIvaCentavos: number; ivaBp: number }): LineAmounts & { totalCentavos: number } {
  const total = BigInt(line.quantity) * BigInt(line.unitPriceWithIvaCentavos);
  const net = divideHalfUp(total * 10_000n, 10_000n + BigInt(line.ivaBp));
  return { netCentavos: Number(net), ivaCentavos: Number(total - net), totalCentavos: Number(total) };
}

/** The price the public sees for one unit: net plus its IVA, rounded like a one-unit line. */
export function priceWithIva(netCentavos: number, ivaBp = IVA_BP): number {
  const { netCentavos: net, ivaCentavos } = lineAmounts({ quantityMilli: 1000, unitPriceCentavos: netCentavos, ivaBp });
  return net + ivaCentavos;
}
