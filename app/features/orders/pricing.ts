import { lineAmounts, priceWithIva, sumLines, type Totals } from "~/lib/money";

// Cart and order arithmetic on top of ~/lib/money: each line's net and its IVA (at the product's own
// rate) are rounded half up to the centavo, and the totals are the sums of the rounded line
// figures — the same numbers the cart shows, the order stores and the email repeats.

export interface PricedLineInput {
  quantity: number;
  /** Net unit price (before IVA) in centavos. */
  unitPriceCentavos: number;
  ivaBp: number;
}

export interface PricedLine {
  /** What the public sees for one unit: net plus its IVA. */
  unitPriceWithIvaCentavos: number;
  netCentavos: number;
  ivaCentavos: number;
  /** The line with IVA. */
  totalCentavos: number;
}

export function priceLine(line: PricedLineInput): PricedLine {
  const { netCentavos, ivaCentavos } = lineAmounts({ quantityMilli: line.quantity * 1000, unitPriceCentavos: line.unitPriceCentavos, ivaBp: line.ivaBp });
  return {
    unitPriceWithIvaCentavos: priceWithIva(line.unitPriceCentavos, line.ivaBp),
    netCentavos,
    ivaCentavos,
    totalCentavos: netCentavos + ivaCentavos,
  };
}

export function priceLines<T extends PricedLineInput>(lines: T[]): { lines: (T & PricedLine)[]; totals: Totals } {
  const priced = lines.map((line) => ({ ...line, ...priceLine(line) }));
  return { lines: priced, totals: sumLines(priced) };
}
