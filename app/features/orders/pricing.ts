import { grossLineAmounts, priceWithIva, sumLines, type Totals } from "~/lib/money";

// Cart and order arithmetic on top of ~/lib/money (docs/decisions/0028). The catalogue shows each
// unit's price with IVA included, and that price is what the customer pays: a line costs exactly
// quantity × the shown price; the IVA inside it is derived per line (net = total ÷ (1 + rate),
// rounded half up to the centavo; IVA = total − net), and the totals are the sums of the lines —
// the same numbers the cart shows, the order stores and the email repeats.

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
  const unitPriceWithIvaCentavos = priceWithIva(line.unitPriceCentavos, line.ivaBp);
  return { unitPriceWithIvaCentavos, ...grossLineAmounts({ quantity: line.quantity, unitPriceWithIvaCentavos, ivaBp: line.ivaBp }) };
}

export function priceLines<T extends PricedLineInput>(lines: T[]): { lines: (T & PricedLine)[]; totals: Totals } {
  const priced = lines.map((line) => ({ ...line, ...priceLine(line) }));
  return { lines: priced, totals: sumLines(priced) };
}
