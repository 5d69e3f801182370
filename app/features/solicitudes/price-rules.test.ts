import { describe, expect, it } from "vitest";
import { addIva, estimatePrice, getPriceRule, IVA_PERCENT, normalizeQuantity, PRICE_RULES, roundCentavos, volumeDiscount } from "./price-rules";
import { SERVICE_OPTIONS } from "./forms";

const box = (x: number, y: number, z: number, volumeMm3 = x * y * z) => ({ volumeMm3, bbox: { x, y, z } });

describe("price rules config", () => {
  it("has rules only for 3D printing and CNC, in whole centavos with low ≤ high", () => {
    expect(Object.keys(PRICE_RULES).sort()).toEqual(["maquinado-cnc", "prototipado-rapido"]);
    for (const rule of Object.values(PRICE_RULES)) {
      const bounds = rule.kind === "volumen-pieza"
        ? [rule.ratePerCm3Centavos, rule.minimumOrderCentavos]
        : [rule.stockRatePerCm3Centavos, rule.removalRatePerCm3Centavos, rule.minimumOrderCentavos];
      for (const { min, max } of bounds) {
        expect(Number.isInteger(min) && Number.isInteger(max)).toBe(true);
        expect(min).toBeLessThanOrEqual(max);
      }
      expect(rule.rangeNote).toMatch(/\.$/);
    }
  });

  it("returns null for services without a rule and for unknown names", () => {
    const priced = new Set(["prototipado-rapido", "maquinado-cnc"]);
    for (const { value } of SERVICE_OPTIONS) {
      if (!priced.has(value)) expect(estimatePrice(value, box(10, 20, 30), 1)).toBeNull();
    }
    for (const name of [undefined, null, "", "fundicion", "toString", "__proto__", "constructor"]) {
      expect(getPriceRule(name)).toBeUndefined();
      expect(estimatePrice(name, box(10, 20, 30), 1)).toBeNull();
    }
  });
});

describe("rounding and IVA", () => {
  it("rounds half up to the centavo", () => {
    expect(roundCentavos(0.5)).toBe(1);
    expect(roundCentavos(2.5)).toBe(3);
    expect(roundCentavos(2.4999)).toBe(2);
    expect(roundCentavos(61728.3945)).toBe(61728);
    expect(roundCentavos(271604.9358)).toBe(271605);
  });

  it("adds 16 % IVA in integer arithmetic, rounding half up", () => {
    expect(IVA_PERCENT).toBe(16);
    expect(addIva(0)).toBe(0);
    expect(addIva(1)).toBe(1); // 1.16
    expect(addIva(3)).toBe(3); // 3.48
    expect(addIva(4)).toBe(5); // 4.64
    expect(addIva(100)).toBe(116);
    expect(addIva(12_345)).toBe(14_320); // 14,320.20
    expect(addIva(99_999)).toBe(115_999); // 115,998.84
    expect(addIva(1_000_000_000_000)).toBe(1_160_000_000_000);
    expect(() => addIva(1.5)).toThrow(RangeError);
    expect(() => addIva(-1)).toThrow(RangeError);
  });

  it("prices a 3D print on awkward figures: rate × volume, rounded, then IVA", () => {
    // 123.456789 cm³ × $5.00 = $617.283945 → 61,728 ¢ → × 1.16 = 71,604.48 → 71,604 ¢
    // 123.456789 cm³ × $22.00 = $2,716.049358 → 271,605 ¢ → × 1.16 = 315,061.80 → 315,062 ¢
    expect(estimatePrice("prototipado-rapido", box(1, 1, 1, 123_456.789), 1)).toEqual({ minCentavos: 71_604, maxCentavos: 315_062 });
  });

  it("prices CNC from stock (box + 3 mm per side) and removed volume, with the quantity discount", () => {
    // Stock 106 × 106 × 56 = 629.216 cm³; part 200 cm³; removed 429.216 cm³; 10 pieces → × 10 × 0.92.
    // Low: 629.216 × 55 + 429.216 × 210 = 124,742.24 ¢ × 9.2 = 1,147,628.608 → 1,147,629 → IVA → 1,331,250 ¢
    // High: 629.216 × 130 + 429.216 × 1,300 = 639,778.88 ¢ × 9.2 = 5,885,965.696 → 5,885,966 → IVA → 6,827,721 ¢
    expect(estimatePrice("maquinado-cnc", box(100, 100, 50, 200_000), 10)).toEqual({ minCentavos: 1_331_250, maxCentavos: 6_827_721 });
  });

  it("charges at least the minimum order, IVA included", () => {
    expect(estimatePrice("prototipado-rapido", box(10, 20, 30), 1)).toEqual({ minCentavos: addIva(35_000), maxCentavos: addIva(120_000) });
    expect(estimatePrice("maquinado-cnc", box(10, 20, 30), 1)).toEqual({ minCentavos: 174_000, maxCentavos: 348_000 });
    // An open surface with no volume still gets the minimum, not zero.
    expect(estimatePrice("prototipado-rapido", box(10, 10, 0, 0), 1)).toEqual({ minCentavos: 40_600, maxCentavos: 139_200 });
  });

  it("always returns whole centavos with min ≤ max", () => {
    for (const volume of [0.001, 1, 999.999, 12_345.678, 1_234_567.891]) {
      for (const quantity of [1, 3, 7, 33, 999, 12_345]) {
        for (const service of ["prototipado-rapido", "maquinado-cnc"]) {
          const range = estimatePrice(service, box(37.3, 12.1, 8.77, volume), quantity)!;
          expect(Number.isInteger(range.minCentavos) && Number.isInteger(range.maxCentavos)).toBe(true);
          expect(range.minCentavos).toBeLessThanOrEqual(range.maxCentavos);
        }
      }
    }
  });

  it("gives up (null) rather than overflow on absurd figures", () => {
    expect(estimatePrice("maquinado-cnc", box(5_000, 5_000, 5_000), 10_000_000)).toBeNull();
  });
});

describe("quantity", () => {
  it("discounts 8 % per factor of ten, capped at 30 %", () => {
    expect(volumeDiscount(1)).toBe(0);
    expect(volumeDiscount(10)).toBeCloseTo(0.08, 12);
    expect(volumeDiscount(100)).toBeCloseTo(0.16, 12);
    expect(volumeDiscount(1_000)).toBeCloseTo(0.24, 12);
    expect(volumeDiscount(10_000)).toBe(0.3);
    expect(volumeDiscount(10_000_000)).toBe(0.3);
  });

  // The unit price may wobble by the centavo rounding (at most ~2 ¢ over the whole order), never more.
  it("never raises the unit price nor lowers the total when a piece is added", () => {
    const quantities = [...Array.from({ length: 2_000 }, (_, i) => i + 1), 5_000, 5_623, 5_624, 10_000, 100_000, 1_000_000];
    for (const service of ["prototipado-rapido", "maquinado-cnc"]) {
      let previous: { quantity: number; min: number; max: number } | undefined;
      for (const quantity of quantities) {
        const range = estimatePrice(service, box(80, 60, 40, 95_000), quantity)!;
        if (previous) {
          expect(range.minCentavos).toBeGreaterThanOrEqual(previous.min);
          expect(range.maxCentavos).toBeGreaterThanOrEqual(previous.max);
          expect(range.minCentavos / quantity).toBeLessThanOrEqual((previous.min + 2) / previous.quantity);
          expect(range.maxCentavos / quantity).toBeLessThanOrEqual((previous.max + 2) / previous.quantity);
        }
        previous = { quantity, min: range.minCentavos, max: range.maxCentavos };
      }
    }
  });

  it("treats a missing or unusable quantity as one piece and drops fractions", () => {
    const one = estimatePrice("prototipado-rapido", box(50, 50, 50), 1);
    for (const quantity of [undefined, null, 0, -3, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(normalizeQuantity(quantity)).toBe(1);
      expect(estimatePrice("prototipado-rapido", box(50, 50, 50), quantity)).toEqual(one);
    }
    expect(normalizeQuantity(2.7)).toBe(2);
    expect(estimatePrice("prototipado-rapido", box(50, 50, 50), 2.7)).toEqual(estimatePrice("prototipado-rapido", box(50, 50, 50), 2));
  });
});
