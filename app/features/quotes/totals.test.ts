import { describe, expect, it } from "vitest";
import { computeTotals, formatDiscount, formatQuantity, IVA_BP, lineAmounts, parseDiscount, parseMoney, parseQuantity } from "./totals";

// The documented rounding rule (totals.ts): each line's net = quantity × unit price × (1 − discount),
// rounded half up to the centavo; each line's IVA = 16 % of that rounded net, rounded half up; the
// quote's subtotal, IVA and total are sums of the rounded line figures. Integer (BigInt) arithmetic.

const line = (quantityMilli: number, unitPriceCentavos: number, discountBp = 0) => ({ quantityMilli, unitPriceCentavos, discountBp });

describe("lineAmounts and computeTotals: the rounding rule", () => {
  it("IVA is 16 %", () => {
    expect(IVA_BP).toBe(1600);
  });

  it("prices 3 × $33.33 with a 7.5 % discount as net 9249, IVA 1480, total 10729 centavos", () => {
    // By hand: 3 × 3333 = 9999 centavos; × (1 − 0.075) = 9999 × 0.925 = 9249.075 → 9249 (below .5, down).
    // IVA: 9249 × 0.16 = 1479.84 → 1480 (above .5, up). Total: 9249 + 1480 = 10729 = $107.29.
    const amounts = lineAmounts(line(3_000, 3_333, 750));
    expect(amounts).toEqual({ netCentavos: 9_249, ivaCentavos: 1_480 });
    expect(computeTotals([line(3_000, 3_333, 750)]).totals).toEqual({ subtotalCentavos: 9_249, ivaCentavos: 1_480, totalCentavos: 10_729 });
  });

  it("rounds a net of exactly half a centavo up (not to even)", () => {
    // 0.5 × $0.05 = 2.5 centavos → 3 (banker's rounding would give 2); IVA 3 × 0.16 = 0.48 → 0.
    expect(lineAmounts(line(500, 5))).toEqual({ netCentavos: 3, ivaCentavos: 0 });
    // 0.5 × $0.01 = 0.5 centavo → 1 (banker's: 0); IVA 0.16 → 0.
    expect(lineAmounts(line(500, 1))).toEqual({ netCentavos: 1, ivaCentavos: 0 });
    // 1 × $0.05 with 50 % discount = 2.5 → 3.
    expect(lineAmounts(line(1_000, 5, 5_000))).toEqual({ netCentavos: 3, ivaCentavos: 0 });
    // Just below half: 0.001 × $4.99 = 0.499 centavo → 0.
    expect(lineAmounts(line(1, 499))).toEqual({ netCentavos: 0, ivaCentavos: 0 });
  });

  it("rounds IVA half up around the half centavo (16 % of an integer is never exactly .5)", () => {
    // 16·n ≡ 50 (mod 100) has no integer solution, so IVA never lands on .5; check both sides of it.
    expect(lineAmounts(line(1_000, 3)).ivaCentavos).toBe(0); // 0.48 → 0
    expect(lineAmounts(line(1_000, 4)).ivaCentavos).toBe(1); // 0.64 → 1
    expect(lineAmounts(line(1_000, 28)).ivaCentavos).toBe(4); // 4.48 → 4
    expect(lineAmounts(line(1_000, 29)).ivaCentavos).toBe(5); // 4.64 → 5
    expect(lineAmounts(line(1_000, 3_125)).ivaCentavos).toBe(500); // exactly 500.00
  });

  it("prices fractional quantities: 1.5 m × $10.01", () => {
    // 1.5 × 1001 = 1501.5 centavos → 1502 (half up); IVA 1502 × 0.16 = 240.32 → 240; total 1742.
    expect(computeTotals([line(1_500, 1_001)]).totals).toEqual({ subtotalCentavos: 1_502, ivaCentavos: 240, totalCentavos: 1_742 });
    // 2.375 kg × $12.34 = 29.3075 → 2930.75 centavos → 2931; IVA 468.96 → 469.
    expect(lineAmounts(line(2_375, 1_234))).toEqual({ netCentavos: 2_931, ivaCentavos: 469 });
  });

  it("a 100 % discount gives zero; 0 % leaves the price alone", () => {
    expect(lineAmounts(line(7_000, 123_456, 10_000))).toEqual({ netCentavos: 0, ivaCentavos: 0 });
    expect(lineAmounts(line(2_000, 10_000, 0))).toEqual({ netCentavos: 20_000, ivaCentavos: 3_200 });
  });

  it("sums the rounded line figures (not the rounding of the sum)", () => {
    // Each line 0.5 × $0.01 = 0.5 → 1 centavo; three lines → 3 (rounding the sum 1.5 would give 2).
    const { lines, totals } = computeTotals([line(500, 1), line(500, 1), line(500, 1)]);
    expect(lines).toEqual([
      { netCentavos: 1, ivaCentavos: 0 },
      { netCentavos: 1, ivaCentavos: 0 },
      { netCentavos: 1, ivaCentavos: 0 },
    ]);
    expect(totals).toEqual({ subtotalCentavos: 3, ivaCentavos: 0, totalCentavos: 3 });
    // Mixed lines: 9249 + 1480 and 1502 + 240 and 20000 + 3200.
    expect(computeTotals([line(3_000, 3_333, 750), line(1_500, 1_001), line(2_000, 10_000)]).totals).toEqual({
      subtotalCentavos: 9_249 + 1_502 + 20_000,
      ivaCentavos: 1_480 + 240 + 3_200,
      totalCentavos: 10_729 + 1_742 + 23_200,
    });
  });

  it("an empty quote totals zero", () => {
    expect(computeTotals([])).toEqual({ lines: [], totals: { subtotalCentavos: 0, ivaCentavos: 0, totalCentavos: 0 } });
  });

  it("keeps large values exact (the intermediate product is far above 2^53)", () => {
    // 1,234,567.891 units × $987,654.32 with 12.34 % discount.
    // quantityMilli × price × (10000 − 1234) = 1234567891 × 98765432 × 8766 = 1068861444116916332592
    // (≈ 1.07e21, beyond Number's exact range); ÷ 10^7 = 106886144411691.6332592 → 106886144411692.
    // IVA: 106886144411692 × 0.16 = 17101783105870.72 → 17101783105871. Total 123987927517563.
    const amounts = lineAmounts(line(1_234_567_891, 98_765_432, 1_234));
    expect(amounts).toEqual({ netCentavos: 106_886_144_411_692, ivaCentavos: 17_101_783_105_871 });
    expect(computeTotals([line(1_234_567_891, 98_765_432, 1_234)]).totals.totalCentavos).toBe(123_987_927_517_563);
    // In floating point the first product is already inexact:
    expect(BigInt(1_234_567_891 * 98_765_432)).not.toBe(1_234_567_891n * 98_765_432n);
  });

  it("agrees with an exact decimal computation on a grid of awkward prices", () => {
    // Half up of a/b computed independently with BigInt: floor((2a + b) / 2b).
    const halfUp = (a: bigint, b: bigint) => (2n * a + b) / (2n * b);
    for (const quantityMilli of [1, 333, 1_000, 1_500, 2_375, 9_999]) {
      for (const price of [1, 5, 99, 1_001, 3_333, 999_999]) {
        for (const discountBp of [0, 1, 750, 3_333, 9_999, 10_000]) {
          const net = halfUp(BigInt(quantityMilli) * BigInt(price) * BigInt(10_000 - discountBp), 10_000_000n);
          const iva = halfUp(net * 16n, 100n);
          expect(lineAmounts(line(quantityMilli, price, discountBp))).toEqual({ netCentavos: Number(net), ivaCentavos: Number(iva) });
        }
      }
    }
  });
});

describe("parseMoney (pesos → centavos)", () => {
  it.each([
    ["1,234.50", 123_450],
    ["1234.50", 123_450],
    ["1,234.5", 123_450],
    ["$99", 9_900],
    ["$ 1,234.56", 123_456],
    [" 33.33 ", 3_333],
    ["0", 0],
    ["0.01", 1],
    ["10.1", 1_010],
    ["999999999.99", 99_999_999_999],
  ])("%j → %d centavos", (text, expected) => {
    expect(parseMoney(text)).toBe(expected);
  });

  it.each([
    ["-1"],
    ["1.234"], // three decimals is not a price
    [""],
    ["abc"],
    ["1.2.3"],
    ["1e3"],
    ["12."],
    [".5"],
    ["1234567890"], // more than 9 digits of pesos
    ["1.234,50"], // European notation is not guessed
  ])("%j → null", (text) => {
    expect(parseMoney(text)).toBeNull();
  });
});

describe("parseQuantity (→ thousandths)", () => {
  it.each([
    ["2", 2_000],
    ["1.5", 1_500],
    ["0.001", 1],
    ["1,000", 1_000_000],
    [" 25 ", 25_000],
    ["2.375", 2_375],
  ])("%j → %d", (text, expected) => {
    expect(parseQuantity(text)).toBe(expected);
  });

  it.each([["0"], ["0.000"], ["-1"], ["1.2345"], [""], ["dos"], ["12345678"]])("%j → null", (text) => {
    expect(parseQuantity(text)).toBeNull();
  });
});

describe("parseDiscount (% → basis points)", () => {
  it.each([
    ["7.5", 750],
    ["7.5 %", 750],
    ["7.5%", 750],
    ["0", 0],
    ["", 0],
    ["   ", 0],
    ["100", 10_000],
    ["100.00", 10_000],
    ["0.01", 1],
    ["33.33", 3_333],
  ])("%j → %d", (text, expected) => {
    expect(parseDiscount(text)).toBe(expected);
  });

  it.each([["101"], ["100.01"], ["-1"], ["12.345"], ["diez"], ["1000"]])("%j → null", (text) => {
    expect(parseDiscount(text)).toBeNull();
  });
});

describe("formatQuantity and formatDiscount", () => {
  it("shows thousandths and basis points the es-MX way", () => {
    expect(formatQuantity(1_500)).toBe("1.5");
    expect(formatQuantity(2_000)).toBe("2");
    expect(formatQuantity(1_234_567)).toBe("1,234.567");
    expect(formatDiscount(750)).toBe("7.5 %");
    expect(formatDiscount(10_000)).toBe("100 %");
  });
});
