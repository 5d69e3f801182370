import { describe, expect, it } from "vitest";
import { priceLine, priceLines } from "./pricing";

// Totals and rounding: IVA is computed per line on the rounded net and rounded half up to the
// centavo; the order's figures are the sums of the rounded lines (never IVA on the subtotal).

describe("priceLine", () => {
  it("prices one unit like the public price with IVA", () => {
    expect(priceLine({ quantity: 1, unitPriceCentavos: 10_000, ivaBp: 1600 })).toEqual({
      unitPriceWithIvaCentavos: 11_600,
      netCentavos: 10_000,
      ivaCentavos: 1_600,
      totalCentavos: 11_600,
    });
  });

  it("rounds the line's IVA half up to the centavo", () => {
    // 3 × $0.33 = $0.99 net; 16 % = 15.84 ¢ → 16 ¢.
    expect(priceLine({ quantity: 3, unitPriceCentavos: 33, ivaBp: 1600 })).toMatchObject({ netCentavos: 99, ivaCentavos: 16, totalCentavos: 115 });
    // $0.03 × 16 % = 0.48 ¢ → 0 ¢; $0.04 → 0.64 ¢ → 1 ¢.
    expect(priceLine({ quantity: 1, unitPriceCentavos: 3, ivaBp: 1600 }).ivaCentavos).toBe(0);
    expect(priceLine({ quantity: 1, unitPriceCentavos: 4, ivaBp: 1600 }).ivaCentavos).toBe(1);
    // 8 % of 44 ¢ = 3.52 ¢ → 4 ¢.
    expect(priceLine({ quantity: 1, unitPriceCentavos: 44, ivaBp: 800 }).ivaCentavos).toBe(4);
    // 16 % of 1,234.57 = 197.5312 → 197.53
    expect(priceLine({ quantity: 1, unitPriceCentavos: 123_457, ivaBp: 1600 }).ivaCentavos).toBe(19_753);
  });

  it("takes each product's own IVA rate (0 %, 8 % border zone, 16 %)", () => {
    expect(priceLine({ quantity: 2, unitPriceCentavos: 50_000, ivaBp: 0 })).toMatchObject({ ivaCentavos: 0, totalCentavos: 100_000 });
    expect(priceLine({ quantity: 2, unitPriceCentavos: 50_000, ivaBp: 800 })).toMatchObject({ ivaCentavos: 8_000, totalCentavos: 108_000 });
  });
});

describe("priceLines", () => {
  it("sums rounded lines, which can differ from IVA on the subtotal", () => {
    // Three lines of 1 × $0.03: each IVA 0.48 ¢ → 0; IVA on the $0.09 subtotal would be 1.44 → 1 ¢.
    const { totals, lines } = priceLines([
      { quantity: 1, unitPriceCentavos: 3, ivaBp: 1600 },
      { quantity: 1, unitPriceCentavos: 3, ivaBp: 1600 },
      { quantity: 1, unitPriceCentavos: 3, ivaBp: 1600 },
    ]);
    expect(lines.map((line) => line.ivaCentavos)).toEqual([0, 0, 0]);
    expect(totals).toEqual({ subtotalCentavos: 9, ivaCentavos: 0, totalCentavos: 9 });
  });

  it("totals a realistic mixed cart", () => {
    const { totals } = priceLines([
      { quantity: 4, unitPriceCentavos: 18_990, ivaBp: 1600 }, // 759.60 net, IVA 121.536 → 121.54
      { quantity: 25, unitPriceCentavos: 1_337, ivaBp: 1600 }, // 334.25 net, IVA 53.48
      { quantity: 1, unitPriceCentavos: 245_000, ivaBp: 1600 }, // 2,450.00 net, IVA 392.00
    ]);
    expect(totals).toEqual({ subtotalCentavos: 354_385, ivaCentavos: 56_702, totalCentavos: 411_087 });
  });

  it("keeps the caller's fields on each line", () => {
    const { lines } = priceLines([{ quantity: 2, unitPriceCentavos: 100, ivaBp: 1600, name: "Buje" }]);
    expect(lines[0]).toMatchObject({ name: "Buje", netCentavos: 200, ivaCentavos: 32, unitPriceWithIvaCentavos: 116 });
  });
});
